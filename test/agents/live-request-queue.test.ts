import { describe, expect, it } from "vitest";
import { LiveRequestQueue, type LiveRequest } from "../../src/index.js";

const text = (value: string) => ({ role: "user", parts: [{ text: value }] });

describe("LiveRequestQueue", () => {
  it("gives requests in the order they were sent, each of its kind", async () => {
    const queue = new LiveRequestQueue();
    queue.sendContent(text("hi"));
    queue.sendRealtime({ mimeType: "audio/pcm", data: "AAAA" });
    queue.sendActivityStart();
    queue.sendActivityEnd();
    expect(await Promise.all([queue.get(), queue.get(), queue.get(), queue.get()])).toEqual([{ content: text("hi") }, { blob: { mimeType: "audio/pcm", data: "AAAA" } }, { activityStart: {} }, { activityEnd: {} }]);
  });

  it("hands a request to a read that was waiting for it, readers served in turn", async () => {
    const queue = new LiveRequestQueue();
    const first = queue.get();
    const second = queue.get();
    queue.sendContent(text("one"));
    queue.sendContent(text("two"));
    expect(await first).toEqual({ content: text("one") });
    expect(await second).toEqual({ content: text("two") });
  });

  it("after close, what was queued is still read, then every read gets { close: true }", async () => {
    const queue = new LiveRequestQueue();
    queue.sendContent(text("last"));
    queue.close();
    expect(queue.isClosed).toBe(true);
    expect(await queue.get()).toEqual({ content: text("last") });
    expect(await queue.get()).toEqual({ close: true });
    expect(await queue.get()).toEqual({ close: true });
  });

  it("releases waiting reads with { close: true } when closed, and closing twice does nothing", async () => {
    const queue = new LiveRequestQueue();
    const waiting = [queue.get(), queue.get()];
    queue.close();
    queue.close();
    expect(await Promise.all(waiting)).toEqual([{ close: true }, { close: true }]);
  });

  it("refuses to send after close, saying what to do", () => {
    const queue = new LiveRequestQueue();
    queue.close();
    expect(() => queue.sendContent(text("late"))).toThrow(expect.objectContaining({ code: "LIVE_QUEUE_CLOSED", message: "This LiveRequestQueue is closed, so nothing more can be sent to the live run. Make a new queue for a new run." }));
  });

  it("a read released by its signal gives up its place: the next request goes to the next reader", async () => {
    const queue = new LiveRequestQueue();
    const stop = new AbortController();
    const released = queue.get(stop.signal);
    stop.abort();
    await expect(released).rejects.toMatchObject({ code: "LIVE_QUEUE_READ_ABORTED" });
    const next = queue.get();
    queue.sendContent(text("for the next connection"));
    expect(await next).toEqual({ content: text("for the next connection") });
  });

  it("a read with a signal already aborted is refused at once, unless a request is queued", async () => {
    const queue = new LiveRequestQueue();
    const aborted = AbortSignal.abort();
    await expect(queue.get(aborted)).rejects.toMatchObject({ code: "LIVE_QUEUE_READ_ABORTED" });
    queue.sendContent(text("queued"));
    expect(await queue.get(aborted)).toEqual({ content: text("queued") });
  });

  it("iterates until the close request, which it gives last", async () => {
    const queue = new LiveRequestQueue();
    queue.sendContent(text("a"));
    setTimeout(() => {
      queue.sendContent(text("b"));
      queue.close();
    }, 5);
    const seen: LiveRequest[] = [];
    for await (const request of queue) seen.push(request);
    expect(seen).toEqual([{ content: text("a") }, { content: text("b") }, { close: true }]);
  });
});
