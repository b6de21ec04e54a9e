import { getEventListeners } from "node:events";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { onSignalAbort, RunCancellation } from "../../src/agents/run-cancellation.js";

describe("RunCancellation", () => {
  it("follows a parent RunCancellation of another copy of toolsmith (a CommonJS user module loads a second one)", async () => {
    const other = (await import("../../src/agents/run-cancellation.js?second-copy" as string)) as typeof import("../../src/agents/run-cancellation.js");
    expect(other.RunCancellation).not.toBe(RunCancellation);
    const parent = new other.RunCancellation();
    const child = new RunCancellation(parent as unknown as RunCancellation);
    parent.abort("stop");
    expect([child.aborted, child.signal.reason]).toEqual([true, "stop"]);
  });

  it("aborts its signal with the reason and calls each callback once, however often it is aborted", () => {
    const cancellation = new RunCancellation();
    const heard: unknown[] = [];
    cancellation.onAbort((reason) => heard.push(reason));
    cancellation.onAbort((reason) => heard.push(`second: ${String(reason)}`));
    cancellation.abort("stop");
    cancellation.abort("again");
    expect(cancellation.signal.aborted).toBe(true);
    expect(cancellation.signal.reason).toBe("stop");
    expect(heard).toEqual(["stop", "second: stop"]);
    // A callback registered after the abort is called at once.
    cancellation.onAbort((reason) => heard.push(`late: ${String(reason)}`));
    expect(heard.at(-1)).toBe("late: stop");
  });

  it("follows a caller's AbortSignal and stops following it once released", () => {
    const caller = new AbortController();
    const followed = new RunCancellation(caller.signal);
    caller.abort(new Error("caller gave up"));
    expect(followed.aborted).toBe(true);
    expect((followed.signal.reason as Error).message).toBe("caller gave up");

    const longLived = new AbortController();
    const released = new RunCancellation(longLived.signal);
    released.release();
    longLived.abort("later");
    expect(released.aborted).toBe(false);
  });

  it("starts aborted under a parent that already is", () => {
    const parent = new AbortController();
    parent.abort("already");
    expect(new RunCancellation(parent.signal).signal.reason).toBe("already");
    const parentRun = new RunCancellation();
    parentRun.abort("run over");
    expect(new RunCancellation(parentRun.signal).signal.reason).toBe("run over");
  });

  it("follows a parent run's cancellation, and a child aborted alone leaves the parent running", () => {
    const run = new RunCancellation();
    const toolDeadline = new RunCancellation(run.signal);
    const otherCall = new RunCancellation(run.signal);
    toolDeadline.abort("deadline passed");
    expect(run.aborted).toBe(false);
    expect(otherCall.aborted).toBe(false);
    run.abort("run cancelled");
    expect(otherCall.signal.reason).toBe("run cancelled");
    // The child aborted first keeps its own reason.
    expect(toolDeadline.signal.reason).toBe("deadline passed");
  });

  it("stops following a parent cancellation once released: the parent's later abort calls none of the child's callbacks", () => {
    const parent = new RunCancellation();
    const child = new RunCancellation(parent.signal);
    const heard: unknown[] = [];
    child.onAbort((reason) => heard.push(reason));
    child.release();
    parent.abort("after the run");
    expect(parent.aborted).toBe(true);
    expect(child.aborted).toBe(false);
    expect(heard).toEqual([]);
  });

  it("unregisters a callback with what onAbort returned, leaving the others", () => {
    const cancellation = new RunCancellation();
    const heard: string[] = [];
    const removeFirst = cancellation.onAbort(() => heard.push("first"));
    cancellation.onAbort(() => heard.push("second"));
    removeFirst();
    removeFirst();
    cancellation.abort("stop");
    expect(heard).toEqual(["second"]);
  });

  it("takes any number of listeners without Node's listener-leak warning once allowed (a run's parallel calls share its signal)", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const cancellation = new RunCancellation();
      cancellation.allowManyListeners();
      // Allowed before the signal is made (it is made when first read): the signal made later takes it.
      expect(cancellation.hasSignal).toBe(false);
      const heard: number[] = [];
      for (let call = 0; call < 50; call++) cancellation.signal.addEventListener("abort", () => heard.push(call), { once: true });
      cancellation.abort("stop");
      await new Promise((resolve) => setImmediate(resolve));
      expect(heard).toHaveLength(50);
      expect(warnings.filter((name) => name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("onSignalAbort hears any signal, a RunCancellation's as well as a plain one, once, and can be unregistered", () => {
    const cancellation = new RunCancellation();
    const heard: unknown[] = [];
    onSignalAbort(cancellation.signal, (reason) => heard.push(reason));
    const plain = new AbortController();
    onSignalAbort(plain.signal, (reason) => heard.push(reason));
    const unregister = onSignalAbort(plain.signal, () => heard.push("unregistered"));
    unregister!();
    cancellation.abort("own");
    plain.abort("plain");
    plain.abort("again");
    onSignalAbort(plain.signal, (reason) => heard.push(`already ${String(reason)}`));
    expect(heard).toEqual(["own", "plain", "already plain"]);
  });

  it("onSignalAbort lets any number of followers share one listener on a signal: each called once, in order, the unregistered not at all", () => {
    const caller = new AbortController();
    const heard: string[] = [];
    const unregister = Array.from({ length: 20 }, (_, index) => onSignalAbort(caller.signal, (reason) => heard.push(`${index}:${String(reason)}`))!);
    const twice = () => heard.push("twice");
    onSignalAbort(caller.signal, twice);
    onSignalAbort(caller.signal, twice);
    unregister[3]!();
    unregister[3]!();
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(1);
    caller.abort("stop");
    expect(heard).toEqual([...Array.from({ length: 20 }, (_, index) => `${index}:stop`).filter((entry) => entry !== "3:stop"), "twice", "twice"]);
    caller.abort("again");
    onSignalAbort(caller.signal, (reason) => heard.push(`late:${String(reason)}`));
    expect(heard.at(-1)).toBe("late:stop");
    expect(heard).toHaveLength(22);
  });

  it("onSignalAbort takes its listener off a long-lived signal when the last follower leaves, and puts one back for the next", () => {
    const serverWide = new AbortController();
    const together = Array.from({ length: 15 }, () => new RunCancellation(serverWide.signal));
    expect(getEventListeners(serverWide.signal, "abort")).toHaveLength(1);
    for (const run of together) run.release();
    expect(getEventListeners(serverWide.signal, "abort")).toHaveLength(0);
    for (let run = 0; run < 50; run++) new RunCancellation(serverWide.signal).release();
    expect(getEventListeners(serverWide.signal, "abort")).toHaveLength(0);
    const still = new RunCancellation(serverWide.signal);
    expect(getEventListeners(serverWide.signal, "abort")).toHaveLength(1);
    serverWide.abort("shutting down");
    expect(still.signal.reason).toBe("shutting down");
    expect(together.some((run) => run.aborted)).toBe(false);
  });

  it("follows a parent given as a RunCancellation through a callback, adding no listener to the parent's signal", () => {
    const parent = new RunCancellation();
    const children = Array.from({ length: 20 }, () => new RunCancellation(parent));
    // Twenty listeners on the parent's signal would pass Node's default limit of ten; callbacks do not count.
    expect(getEventListeners(parent.signal, "abort")).toHaveLength(0);
    children[0]!.release();
    parent.abort("parent stopped");
    expect(children[0]!.aborted).toBe(false);
    expect(children.slice(1).every((child) => child.aborted && child.signal.reason === "parent stopped")).toBe(true);
  });

  it("knows it was aborted without reading its signal, and agrees with it", () => {
    const cancellation = new RunCancellation();
    expect([cancellation.aborted, cancellation.signal.aborted]).toEqual([false, false]);
    cancellation.abort(undefined);
    expect([cancellation.aborted, cancellation.signal.aborted]).toEqual([true, true]);
    // Node's default reason when none is given, heard by late callbacks too.
    let late: unknown;
    cancellation.onAbort((reason) => (late = reason));
    expect((late as Error).name).toBe("AbortError");
  });

  it("leaves its signal as Node made it: no key, no JSON, the plain inspect output", () => {
    const { signal } = new RunCancellation();
    expect(Object.keys(signal)).toEqual([]);
    expect(Object.getOwnPropertySymbols(signal)).toEqual(Object.getOwnPropertySymbols(new AbortController().signal));
    expect(JSON.stringify(signal)).toBe("{}");
    expect(inspect(signal)).toBe(inspect(new AbortController().signal));
  });
});
