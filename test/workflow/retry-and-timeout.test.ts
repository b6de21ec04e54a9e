import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";

// Both modules export the names these programs use; each is written once against either.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Framework = any;

/** Runs `START -> flaky -> after` once; returns the events (author, output, whether an error) and what a run threw. */
async function run(framework: Framework, flaky: unknown) {
  const after = framework.node((_ctx: unknown, input: unknown) => `after ${JSON.stringify(input)}`, { name: "after" });
  const runner = new framework.InMemoryRunner({ agent: new framework.Workflow({ name: "wf", edges: [["START", flaky, after]] }), appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events: Array<Record<string, unknown>> = [];
  let thrown: string | undefined;
  try {
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "go" }] } })) {
      events.push({ author: event.author, output: event.output, error: event.errorCode ? event.errorMessage : undefined, code: event.errorCode });
    }
  } catch (error) {
    thrown = (error as Error).message;
  }
  return { events, thrown };
}

/** A node failing its first `failures` attempts (each sends an event first), recording the attempt numbers it saw. */
function flakyNode(framework: Framework, failures: number, attempts: number[], retryConfig: Record<string, unknown>) {
  return framework.node(
    async function* flaky(ctx: { attemptCount: number }) {
      attempts.push(ctx.attemptCount);
      yield framework.createEvent({ invocationId: "", author: "flaky", content: { role: "model", parts: [{ text: `attempt ${ctx.attemptCount}` }] } });
      if (attempts.length <= failures) throw new RangeError(`failure ${attempts.length}`);
      yield "done";
    },
    { retryConfig },
  );
}

describe("a node's retryConfig and timeout, side by side with @google/adk", () => {
  it("runs a failing node again, up to maxAttempts, counting ctx.attemptCount; what a failed attempt sent stays sent", async () => {
    const quick = { maxAttempts: 3, initialDelay: 0.001, jitter: 0 };
    const oursAttempts: number[] = [];
    const theirsAttempts: number[] = [];
    const [ours, theirs] = [await run(toolsmith, flakyNode(toolsmith, 2, oursAttempts, quick)), await run(adk, flakyNode(adk, 2, theirsAttempts, quick))];
    console.log(JSON.stringify(ours));
    expect(ours).toEqual(theirs);
    expect(oursAttempts).toEqual([1, 2, 3]);
    expect(theirsAttempts).toEqual([1, 2, 3]);
    expect(ours.events.at(-1)).toEqual({ author: "after", output: 'after "done"', error: undefined, code: undefined });
  });

  it("gives up after maxAttempts, and retries only the errors `exceptions` names", async () => {
    const attempts: number[] = [];
    const exhausted = await run(toolsmith, flakyNode(toolsmith, 5, attempts, { maxAttempts: 2, initialDelay: 0.001, jitter: 0 }));
    expect(attempts).toEqual([1, 2]);
    expect(exhausted.events.at(-1)).toMatchObject({ author: "flaky", error: 'Node "wf.flaky" failed: RangeError: failure 2 The workflow stopped there; the session holds every event up to it.' });
    const oursAttempts: number[] = [];
    const theirsAttempts: number[] = [];
    const only = { maxAttempts: 3, initialDelay: 0.001, jitter: 0, exceptions: [TypeError] };
    const [ours, theirs] = [await run(toolsmith, flakyNode(toolsmith, 1, oursAttempts, only)), await run(adk, flakyNode(adk, 1, theirsAttempts, { ...only, exceptions: ["TypeError"] }))];
    expect([oursAttempts, theirsAttempts]).toEqual([[1], [1]]);
    expect(theirs.thrown).toBe("failure 1");
    expect(ours.events.at(-1)).toMatchObject({ author: "flaky", error: expect.stringContaining("RangeError: failure 1") });
  });

  it("fails an attempt that runs past timeout with NODE_TIMEOUT (ADK's NodeTimeoutError message), aborting ctx.abortSignal", async () => {
    let sawAbort = false;
    const slow = (framework: Framework) =>
      framework.node(
        async function slow(ctx: { abortSignal?: AbortSignal }) {
          await new Promise((resolve) => {
            const timer = setTimeout(resolve, 2_000);
            ctx.abortSignal?.addEventListener("abort", () => {
              sawAbort = true;
              clearTimeout(timer);
              resolve(undefined);
            });
          });
          return "too late";
        },
        { timeout: 0.05 },
      );
    const started = Date.now();
    const [ours, theirs] = [await run(toolsmith, slow(toolsmith)), await run(adk, slow(adk))];
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(sawAbort).toBe(true);
    expect(theirs.thrown).toBe("Node 'slow' timed out after 0.05 seconds.");
    // ADK's message, after the node's path as toolsmith names every node's failure.
    expect(ours.events).toEqual([{ author: "slow", output: undefined, error: "Node \"wf.slow\" failed: Node 'slow' timed out after 0.05 seconds.", code: "NODE_TIMEOUT" }]);
    const error = new toolsmith.NodeTimeoutError("slow", 1);
    expect([error.code, toolsmith.isNodeTimeoutError(error), toolsmith.isNodeTimeoutError(new Error("x"))]).toEqual(["NODE_TIMEOUT", true, false]);
  });

  it("refuses a timeout that is not a positive number and retry settings that are not numbers, when the node is made", () => {
    expect(() => toolsmith.node(() => 1, { name: "x", timeout: 0 })).toThrow(expect.objectContaining({ code: "INVALID_WORKFLOW", message: 'Node "x": timeout is in seconds and must be more than 0, not 0.' }));
    expect(() => toolsmith.node(() => 1, { name: "x", retryConfig: { maxAttempts: -1 } })).toThrow(expect.objectContaining({ code: "INVALID_WORKFLOW", message: "retryConfig.maxAttempts must be a number of 0 or more, not -1." }));
    expect(toolsmith.prepareRetryConfig({ exceptions: [RangeError, "TypeError"] }).exceptions).toEqual(["RangeError", "TypeError"]);
  });
  it("retries a node that reported an error with an error event (ADK's NodeReportedError), by name or class, as ADK does", async () => {
    /** A node whose first two attempts send an error event and nothing else; the third answers. */
    const reporting = (framework: Framework, attempts: number[], exceptions: unknown) =>
      framework.node(
        async function* reporting(ctx: { attemptCount: number }) {
          attempts.push(ctx.attemptCount);
          if (attempts.length < 3) yield framework.createEvent({ invocationId: "", author: "reporting", errorCode: "FLAKY", errorMessage: `try ${attempts.length}` });
          else yield "done";
        },
        { retryConfig: { maxAttempts: 3, initialDelay: 0.001, jitter: 0, exceptions } },
      );
    for (const [oursExceptions, theirsExceptions] of [
      [["NodeReportedError"], ["NodeReportedError"]],
      [[toolsmith.NodeReportedError], [adk.NodeReportedError]],
    ]) {
      const oursAttempts: number[] = [];
      const theirsAttempts: number[] = [];
      const ours = await run(toolsmith, reporting(toolsmith, oursAttempts, oursExceptions));
      const theirs = await run(adk, reporting(adk, theirsAttempts, theirsExceptions));
      expect(ours).toEqual(theirs);
      expect(oursAttempts).toEqual([1, 2, 3]);
      expect(ours.events.map((event) => event.code ?? event.output)).toEqual(["FLAKY", "FLAKY", "done", 'after "done"']);
    }
    // Not named in `exceptions`: not retried. ADK's run throws the error; toolsmith's ends at the node's own error event.
    const oursAttempts: number[] = [];
    const theirsAttempts: number[] = [];
    const ours = await run(toolsmith, reporting(toolsmith, oursAttempts, ["RangeError"]));
    const theirs = await run(adk, reporting(adk, theirsAttempts, ["RangeError"]));
    expect([oursAttempts, theirsAttempts]).toEqual([[1], [1]]);
    expect(theirs.thrown).toBe("Node 'reporting' failed: FLAKY: try 1");
    expect(ours).toEqual({ events: [{ author: "reporting", output: undefined, error: "try 1", code: "FLAKY" }], thrown: undefined });
  });

  it("makes NodeReportedError as ADK makes it: its message, code, node name, and a guard by name", () => {
    for (const options of [{ nodeName: "n", errorCode: "E", errorMessage: "m" }, { nodeName: "n", errorMessage: "m" }, { nodeName: "n", errorCode: "E" }, { nodeName: "n" }]) {
      const ours = new toolsmith.NodeReportedError(options);
      const theirs = new adk.NodeReportedError(options);
      expect({ message: ours.message, code: ours.code, nodeName: ours.nodeName, name: ours.name }).toEqual({ message: theirs.message, code: theirs.code, nodeName: theirs.nodeName, name: theirs.name });
      expect([toolsmith.isNodeReportedError(theirs), adk.isNodeReportedError(ours)]).toEqual([true, true]);
    }
    expect(toolsmith.isNodeReportedError(new Error("other"))).toBe(false);
  });
});
