import * as adk from "@google/adk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";

/**
 * ADK's utility classes `AsyncQueue` and `Task`, side by side with `@google/adk` 2.0: the same operations on
 * each give the same values, ends, errors, sizes and states, in the same order.
 */
type Queue = { push(value: number): void; close(): void; fail(error: unknown): void; error(error: unknown): void; readonly size: number; readonly isClosed: boolean; [Symbol.asyncIterator](): AsyncIterator<number> };
type Step = { op: "push"; value: number } | { op: "close" } | { op: "fail"; value: number } | { op: "error"; value: number } | { op: "read" };

/** Runs the steps on a queue; a read is started at once and recorded when it settles. Returns what was seen. */
async function runSteps(queue: Queue, steps: Step[]): Promise<unknown[]> {
  const seen: unknown[] = [];
  const reader = queue[Symbol.asyncIterator]();
  const reads: Promise<void>[] = [];
  let readNumber = 0;
  for (const step of steps) {
    if (step.op === "read") {
      const number = ++readNumber;
      reads.push(
        reader.next().then(
          (result) => void seen.push({ read: number, result }),
          (error: unknown) => void seen.push({ read: number, rejected: (error as Error).message }),
        ),
      );
    } else if (step.op === "push") queue.push(step.value);
    else if (step.op === "close") queue.close();
    else queue[step.op](new Error(`failure ${step.value}`));
    // Lets settled reads record before the next step, so the order of what was seen is the order things happened.
    await Promise.resolve();
    seen.push({ after: step.op, size: queue.size, isClosed: queue.isClosed });
  }
  queue.close();
  await Promise.all(reads);
  return seen;
}

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant("push" as const), value: fc.integer({ min: 0, max: 99 }) }),
  fc.record({ op: fc.constant("read" as const) }),
  fc.record({ op: fc.constant("read" as const) }),
  fc.record({ op: fc.constant("close" as const) }),
  fc.record({ op: fc.constantFrom("fail" as const, "error" as const), value: fc.integer({ min: 0, max: 9 }) }),
);

describe("AsyncQueue, side by side with @google/adk 2.0", () => {
  it("delivers values before the end, the first failure wins, and a push after the end is ignored, as ADK's for 500 random sequences", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 14 }), async (steps) => {
        const ours = await runSteps(new toolsmith.AsyncQueue<number>(), steps);
        const theirs = await runSteps(new adk.AsyncQueue<number>(), steps);
        expect(ours).toEqual(theirs);
      }),
      { numRuns: 500 },
    );
  });

  it("streams pushes made later to a for-await reader, and ends it on close, as ADK's", async () => {
    const read = async (queue: Queue) => {
      setTimeout(() => {
        queue.push(1);
        queue.push(2);
        setTimeout(() => {
          queue.push(3);
          queue.close();
          queue.push(4);
        }, 5);
      }, 5);
      const values: number[] = [];
      for await (const value of { [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator]() }) values.push(value);
      return values;
    };
    const ours = await read(new toolsmith.AsyncQueue<number>());
    expect(ours).toEqual(await read(new adk.AsyncQueue<number>()));
    expect(ours).toEqual([1, 2, 3]);
  });

  it("makes a for-await reader throw the failure once the kept values are read, as ADK's", async () => {
    const read = async (queue: Queue) => {
      queue.push(1);
      queue.fail(new Error("producer broke"));
      queue.close();
      const values: number[] = [];
      try {
        for await (const value of { [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator]() }) values.push(value);
      } catch (error) {
        return { values, error: (error as Error).message };
      }
      return { values, error: undefined };
    };
    const ours = await read(new toolsmith.AsyncQueue<number>());
    expect(ours).toEqual(await read(new adk.AsyncQueue<number>()));
    expect(ours).toEqual({ values: [1], error: "producer broke" });
  });
});

describe("Task, side by side with @google/adk 2.0", () => {
  type AnyTask = { promise: Promise<unknown>; cancel(): void; done(): boolean; executable: unknown };

  /** A task's life as seen from outside: done() before and after it settles, and how it settled. */
  async function life(task: AnyTask) {
    const before = task.done();
    const settled = await task.promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error: (error as Error).message }),
    );
    await Promise.resolve();
    return { before, settled, after: task.done() };
  }

  it("runs the work at once with a signal, and is done once it settles, fulfilled or rejected, as ADK's", async () => {
    for (const work of [async () => 42, async () => Promise.reject(new Error("no")), (signal: AbortSignal) => Promise.resolve(signal.aborted)]) {
      const ours = new toolsmith.Task(work as (signal: AbortSignal) => Promise<unknown>);
      const theirs = new adk.Task(work as (signal: AbortSignal) => Promise<unknown>);
      expect(ours.executable).toBe(work);
      expect(theirs.executable).toBe(work);
      // Both lives start together, so done() is read at the same moment of each task.
      const [ourLife, theirLife] = await Promise.all([life(ours), life(theirs)]);
      expect(ourLife).toEqual(theirLife);
      expect(ourLife.before).toBe(false);
      expect(ourLife.after).toBe(true);
    }
  });

  it("cancel() aborts the signal the work was given, and the work decides how it ends, as ADK's", async () => {
    const make = (f: typeof adk | typeof toolsmith) => {
      const started: string[] = [];
      const task = new f.Task<string>(
        (signal) =>
          new Promise((resolve, reject) => {
            started.push("started");
            signal.addEventListener("abort", () => reject(new Error(`stopped: ${String(signal.reason?.name)}`)));
            setTimeout(() => resolve("finished"), 1_000);
          }),
      );
      started.push("constructed");
      task.cancel();
      return { task, started };
    };
    const ours = make(toolsmith);
    const theirs = make(adk);
    expect(ours.started).toEqual(theirs.started);
    expect(ours.started).toEqual(["started", "constructed"]);
    const [ourLife, theirLife] = await Promise.all([life(ours.task), life(theirs.task)]);
    expect(ourLife).toEqual(theirLife);
    expect(ourLife).toEqual({ before: false, settled: { error: "stopped: AbortError" }, after: true });
  });

  it("a rejected task's promise still rejects for its reader (nothing is swallowed), as ADK's", async () => {
    const ours = new toolsmith.Task(async () => {
      throw new Error("broke");
    });
    const theirs = new adk.Task(async () => {
      throw new Error("broke");
    });
    await expect(ours.promise).rejects.toThrow("broke");
    await expect(theirs.promise).rejects.toThrow("broke");
  });
});
