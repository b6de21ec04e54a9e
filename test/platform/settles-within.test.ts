import { describe, expect, it, vi } from "vitest";
import { settlesWithin } from "../../src/platform/settles-within.js";

describe("settlesWithin", () => {
  it("is true for a promise that is fulfilled or rejected in time, without an unhandled rejection", async () => {
    expect(await settlesWithin(Promise.resolve(1), 50)).toBe(true);
    expect(await settlesWithin(Promise.reject(new Error("no")), 50)).toBe(true);
    expect(await settlesWithin(new Promise((resolve) => setTimeout(resolve, 5)), 1_000)).toBe(true);
  });

  it("is false for one that has not settled when the time is up, and leaves no timer behind either way", async () => {
    vi.useFakeTimers();
    try {
      const never = settlesWithin(new Promise(() => undefined), 100);
      await vi.advanceTimersByTimeAsync(100);
      expect(await never).toBe(false);
      expect(vi.getTimerCount()).toBe(0);
      expect(await settlesWithin(Promise.resolve(), 100)).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
