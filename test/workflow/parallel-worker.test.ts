import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";

// Both modules export the names this program uses; it is written once against either.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Framework = any;

/**
 * `split -> square (once per item, at most two at a time) -> total`. `failOn` makes one item throw. Returns the
 * events (author, output, path, branch with toolsmith's `#` read as ADK's `@`), the peak of items running at once,
 * and what a run threw.
 */
async function run(framework: Framework, text: string, failOn?: number) {
  let running = 0;
  let peak = 0;
  const split = framework.node((_ctx: unknown, input: string) => (input.includes(",") ? input.split(",").map(Number) : Number(input)), { name: "split" });
  const square = framework.node(
    async function square(_ctx: unknown, n: number) {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5 * (5 - n)));
      running--;
      if (n === failOn) throw new Error(`no square for ${n}`);
      return n * n;
    },
    { parallelWorker: true, maxParallelWorkers: 2 },
  );
  const total = framework.node((_ctx: unknown, squares: number[]) => squares.reduce((sum, value) => sum + value, 0), { name: "total" });
  const workflow = new framework.Workflow({ name: "sums", edges: [["START", split, square, total]] });
  const runner = new framework.InMemoryRunner({ agent: workflow, appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events: Array<Record<string, unknown>> = [];
  let thrown: string | undefined;
  try {
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text }] } })) {
      events.push({ author: event.author, output: event.output, path: event.nodeInfo?.path, branch: event.branch?.replaceAll("#", "@"), error: event.errorCode ? "error" : undefined });
    }
  } catch (error) {
    thrown = (error as Error).message;
  }
  return { events, peak, thrown };
}

describe("a node run once per item (node(x, { parallelWorker: true }), ADK's ParallelWorker), side by side with @google/adk", () => {
  it("runs the node for each item of its input, at most maxParallelWorkers at once, each on a branch of its own, and outputs their outputs in order", async () => {
    const [ours, theirs] = [await run(toolsmith, "1,2,3,4"), await run(adk, "1,2,3,4")];
    console.log(JSON.stringify(ours));
    // Items finish in their own time; the order of their events is compared as a set, the outputs in order.
    const sorted = (events: Array<Record<string, unknown>>) => [...events].sort((a, b) => String(a.path).localeCompare(String(b.path)));
    expect(sorted(ours.events)).toEqual(sorted(theirs.events));
    expect(ours.events.find((event) => event.path === "sums.square")).toMatchObject({ output: [1, 4, 9, 16] });
    expect(ours.events.at(-1)).toMatchObject({ author: "total", output: 30 });
    expect(ours.events.filter((event) => String(event.path).startsWith("sums.square.")).map((event) => event.branch).sort()).toEqual(["square@0", "square@1", "square@2", "square@3"]);
    expect([ours.peak, theirs.peak]).toEqual([2, 2]);
  });

  it("takes a single value as a list of one", async () => {
    const [ours, theirs] = [await run(toolsmith, "3"), await run(adk, "3")];
    expect(ours.events).toEqual(theirs.events);
    expect(ours.events.at(-1)).toMatchObject({ author: "total", output: 9 });
  });

  it("fails at the first item that fails, and starts no item after it; ADK's run throws, toolsmith's ends with the item's error event", async () => {
    const [ours, theirs] = [await run(toolsmith, "1,2,3,4", 2), await run(adk, "1,2,3,4", 2)];
    expect(theirs.thrown).toMatch(/no square for 2/);
    expect(ours.thrown).toBeUndefined();
    const failed = ours.events.at(-1)!;
    expect(failed).toMatchObject({ author: "square", error: "error", path: "sums.square.square@1" });
    expect(ours.events.some((event) => event.author === "total")).toBe(false);
  });

  it("refuses maxParallelWorkers without parallelWorker, or below one", () => {
    expect(() => toolsmith.node(() => 1, { name: "x", maxParallelWorkers: 2 })).toThrow(expect.objectContaining({ code: "INVALID_WORKFLOW", message: expect.stringContaining("maxParallelWorkers goes with parallelWorker: true") }));
    expect(() => toolsmith.node(() => 1, { name: "x", parallelWorker: true, maxParallelWorkers: 0 })).toThrow(expect.objectContaining({ code: "INVALID_WORKFLOW", message: expect.stringContaining("maxParallelWorkers must be 1 or more") }));
    expect(() => new toolsmith.ParallelWorker((() => 1) as never)).toThrow(expect.objectContaining({ code: "INVALID_WORKFLOW" }));
  });
});
