import { describe, expect, it } from "vitest";
import { OpenedOnFirstUse } from "../../src/services/opened-on-first-use.js";

/** A store whose openings are counted, failing the first `failures` of them. */
function countedStore(failures = 0) {
  const counts = { opened: 0, closed: 0 };
  const opener = new OpenedOnFirstUse(async () => {
    counts.opened++;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (counts.opened <= failures) throw new Error(`opening ${counts.opened} failed`);
    return { id: counts.opened, close: async () => void counts.closed++ };
  });
  return { opener, counts };
}

describe("OpenedOnFirstUse", () => {
  it("opens nothing until asked, then once for every call that starts together", async () => {
    const { opener, counts } = countedStore();
    expect(counts.opened).toBe(0);
    const stores = await Promise.all(Array.from({ length: 50 }, () => opener.get()));
    expect(new Set(stores).size).toBe(1);
    expect(await opener.get()).toBe(stores[0]);
    expect(counts.opened).toBe(1);
  });

  it("lets every call waiting on a failed opening fail with its error, and opens again on the next call", async () => {
    const { opener, counts } = countedStore(1);
    const waiting = await Promise.allSettled(Array.from({ length: 5 }, () => opener.get()));
    expect(waiting.map((outcome) => (outcome.status === "rejected" ? (outcome.reason as Error).message : "opened"))).toEqual(Array(5).fill("opening 1 failed"));
    expect((await opener.get()).id).toBe(2);
    expect(counts.opened).toBe(2);
  });

  it("closes what it opened, waits for an opening under way, and has nothing to close when never opened or when opening failed", async () => {
    const never = countedStore();
    await never.opener.close();
    expect(never.counts).toEqual({ opened: 0, closed: 0 });

    const racing = countedStore();
    const opening = racing.opener.get();
    await racing.opener.close();
    await opening;
    expect(racing.counts).toEqual({ opened: 1, closed: 1 });

    const failing = countedStore(1);
    await failing.opener.get().catch(() => undefined);
    await failing.opener.close();
    expect(failing.counts).toEqual({ opened: 1, closed: 0 });
  });
});
