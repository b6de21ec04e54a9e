import { describe, expect, it } from "vitest";
import { serverLoad } from "../../bench/server-load.js";

describe("HTTP API under load", () => {
  it("delivers every event of 200 concurrent /run_sse conversations in order and stores each once", async () => {
    const result = await serverLoad({ concurrency: 200, rounds: 1 });
    expect(result.conversations).toBe(200);
    expect(result.eventsPerRun).toBeGreaterThanOrEqual(4);
    expect(result.problems).toEqual([]);
  });
});
