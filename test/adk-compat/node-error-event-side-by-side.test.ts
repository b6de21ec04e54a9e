import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";
import { SqliteSessionService } from "../../src/sqlite/index.js";
import type { Framework } from "./side-by-side.js";

/**
 * ADK's node error events (`createNodeErrorEvent`, `isNodeErrorEvent`, which toolsmith does not export yet), on
 * `@google/adk` 2.0 and on toolsmith: the event each ends a failed node with, for the same failure, and whether
 * toolsmith's stores would keep ADK's extra fields (what supporting the names would take; docs/adk-compat.md).
 */

class QuotaError extends Error {
  readonly code = "E_QUOTA";
}

/** The error event a workflow whose one node always throws ends with, retried up to three attempts, and whether the run threw. */
async function failedNode(f: Framework) {
  let attempts = 0;
  const boom = f.node(() => {
    attempts++;
    throw new QuotaError("over quota");
  }, { name: "boom", retryConfig: { maxAttempts: 3, initialDelay: 0.001, maxDelay: 0.001 } });
  const runner = new f.InMemoryRunner({ agent: new f.Workflow({ name: "failing", edges: [["START", boom]] }), appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events: Array<Record<string, unknown>> = [];
  let threw = false;
  try {
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "go" }] } })) events.push(event);
  } catch {
    threw = true;
  }
  const { author, nodeInfo, errorCode, errorMessage, isNodeError, errorType, attemptCount } = events.find((event) => event.errorCode !== undefined)!;
  return { attempts, threw, event: { author, nodeInfo, errorCode, errorMessage, isNodeError, errorType, attemptCount }, recognised: adk.isNodeErrorEvent(events.find((event) => event.errorCode !== undefined) as never) };
}

describe("node error events, side by side with @google/adk 2.0", () => {
  it("ADK's carries isNodeError, errorType and attemptCount, and the error's own code and message; toolsmith's its code NODE_FAILED and its path, none of the three", async () => {
    const [onAdk, onToolsmith] = [await failedNode(adk), await failedNode(toolsmith)];
    expect([onAdk.attempts, onToolsmith.attempts]).toEqual([3, 3]);
    expect(onAdk).toMatchObject({ threw: true, recognised: true, event: { author: "boom", nodeInfo: { path: "failing.boom" }, errorCode: "E_QUOTA", errorMessage: "over quota", isNodeError: true, errorType: "QuotaError", attemptCount: 3 } });
    expect(onToolsmith).toMatchObject({ threw: false, recognised: false, event: { author: "boom", nodeInfo: { path: "failing.boom" }, errorCode: "NODE_FAILED", isNodeError: undefined, errorType: undefined, attemptCount: undefined } });
    expect(onToolsmith.event.errorMessage).toMatch(/^Node "failing\.boom" failed: Error: over quota/);
  });

  it("an event with ADK's node-error fields is stored and read back whole by toolsmith's in-memory and SQLite stores, and ADK's guard still knows it", async () => {
    const made = adk.createNodeErrorEvent({ error: new QuotaError("over quota"), attemptCount: 2, author: "boom", invocationId: "e-1", nodeInfo: { path: "failing.boom" } });
    for (const store of [new toolsmith.InMemorySessionService(), new SqliteSessionService({ path: ":memory:" })]) {
      const session = await store.createSession({ appName: "app", userId: "u" });
      await store.appendEvent({ session, event: made as never });
      const read = (await store.getSession({ appName: "app", userId: "u", sessionId: session.id }))!.events.at(-1)!;
      expect(read).toMatchObject({ isNodeError: true, errorType: "QuotaError", errorCode: "E_QUOTA", errorMessage: "over quota", attemptCount: 2 });
      expect(adk.isNodeErrorEvent(read as never)).toBe(true);
    }
  });
});
