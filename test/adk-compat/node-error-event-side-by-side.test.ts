import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";
import { SqliteSessionService } from "../../src/sqlite/index.js";
import type { Framework } from "./side-by-side.js";

/**
 * ADK's node error events (`createNodeErrorEvent`, `isNodeErrorEvent`) on `@google/adk` 2.0 and on toolsmith: the
 * event each ends a failed node with, for the same failure, the events the two functions make, and toolsmith's
 * stores keeping ADK's fields.
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
  it("both mark a failed node's event isNodeError with the error's type and the attempts; toolsmith's code is NODE_FAILED and its message names the path", async () => {
    const [onAdk, onToolsmith] = [await failedNode(adk), await failedNode(toolsmith)];
    expect([onAdk.attempts, onToolsmith.attempts]).toEqual([3, 3]);
    expect(onAdk).toMatchObject({ threw: true, recognised: true, event: { author: "boom", nodeInfo: { path: "failing.boom" }, errorCode: "E_QUOTA", errorMessage: "over quota", isNodeError: true, errorType: "QuotaError", attemptCount: 3 } });
    // toolsmith's run does not throw, and its code and message are its own (docs/adk-compat.md, Graph workflows).
    expect(onToolsmith).toMatchObject({ threw: false, recognised: true, event: { author: "boom", nodeInfo: { path: "failing.boom" }, errorCode: "NODE_FAILED", isNodeError: true, errorType: "QuotaError", attemptCount: 3 } });
    expect(onToolsmith.event.errorMessage).toMatch(/^Node "failing\.boom" failed: Error: over quota/);
    expect(toolsmith.isNodeErrorEvent(onToolsmith.event as never)).toBe(true);
  });

  it("createNodeErrorEvent makes ADK's event for the same arguments, and each guard knows the other's events", () => {
    class Named extends Error {
      override name = "Custom";
    }
    const plainNamed = Object.assign(new Error("renamed"), { name: "Renamed" });
    const cases = [
      { error: new QuotaError("over quota"), attemptCount: 2, author: "boom" },
      { error: new RangeError("far"), author: "boom", errorCode: "MINE", errorMessage: "given" },
      { error: new Named("named"), author: "n" },
      { error: plainNamed, author: "n" },
      { error: "a string", author: "n" },
      { error: { code: 7 }, author: "n" },
    ];
    for (const params of cases) {
      const ours = toolsmith.createNodeErrorEvent({ ...params, invocationId: "e-1" } as never);
      const theirs = adk.createNodeErrorEvent({ ...params, invocationId: "e-1" } as never);
      const fields = (event: Record<string, unknown>) => ({ isNodeError: event.isNodeError, errorType: event.errorType, errorCode: event.errorCode, errorMessage: event.errorMessage, attemptCount: event.attemptCount, author: event.author, invocationId: event.invocationId });
      expect(fields(ours as never)).toEqual(fields(theirs as never));
      expect([toolsmith.isNodeErrorEvent(theirs as never), adk.isNodeErrorEvent(ours as never)]).toEqual([true, true]);
    }
    expect(toolsmith.isNodeErrorEvent(toolsmith.createEvent({ errorCode: "X" }))).toBe(false);
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
