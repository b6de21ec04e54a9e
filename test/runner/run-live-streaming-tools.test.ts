/**
 * Streaming tools in live runs (ADK Python's; ADK TypeScript keeps only the `ActiveStreamingTool` record): a tool
 * whose function is an async generator runs while the conversation goes on, each value it yields sent to the model
 * as a message; `stop_streaming`, the end of the run, a second call, the run's cancellation and `timeoutMs` stop it;
 * its input stream copies what the user streams; outside a live run it is refused.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ActiveStreamingTool, FunctionTool, InMemoryRunner, LiveRequestQueue, LlmAgent, stopStreamingTool, Task, type Event, type ToolContext } from "../../src/index.js";
import type { LlmResponse } from "../../src/models/llm-response.js";
import { ScriptedLiveModel, ScriptedModel, type LiveTurn, type ScriptedLiveStep } from "../../src/testing/index.js";

const user = (text: string) => ({ role: "user", parts: [{ text }] });
const callOf = (name: string, args: Record<string, unknown> = {}): LlmResponse => ({ content: { role: "model", parts: [{ functionCall: { name, args } }] } });
const PENDING = { status: "The function is running asynchronously and the results are pending." };

/** A script that answers the user's first message with `first`, then each later turn with what `next` gives (nothing by default). */
function script(first: LlmResponse[], next: (turn: LiveTurn, index: number) => LlmResponse[] = () => []): ScriptedLiveStep[] {
  return [() => first, ...Array.from({ length: 200 }, (_, index) => (turn: LiveTurn) => next(turn, index))];
}

const textOf = (turn: LiveTurn) => ("content" in turn ? (turn.content.parts?.[0]?.text ?? turn.content.parts?.[0]?.functionResponse?.name) : undefined);

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting until ${what}.`);
}

/** Starts a live run of `agent` after `send`; the events so far, the queue, the run's end and the stored events. */
function startLive(agent: LlmAgent, send: (queue: LiveRequestQueue) => void, abortSignal?: AbortSignal) {
  const runner = new InMemoryRunner({ agent, appName: "app" });
  const queue = new LiveRequestQueue();
  send(queue);
  const events: Event[] = [];
  const done = (async () => {
    for await (const event of runner.runLive({ userId: "u", sessionId: "s", liveRequestQueue: queue, runConfig: { responseModalities: ["TEXT"] }, ...(abortSignal ? { abortSignal } : {}) })) events.push(event);
  })();
  const stored = async () => (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: "s" }))!.events;
  return { events, queue, done, stored };
}

/** What the model was sent as messages (not the history, audio or function responses), in order. */
function messagesTo(model: ScriptedLiveModel): string[] {
  return model.connections.flatMap((connection) => connection.sent.flatMap((sent) => ("content" in sent && sent.content.parts?.[0]?.text !== undefined ? [sent.content.parts[0].text] : [])));
}

/** A streaming tool that yields `price <n>` every `everyMs`, forever, and records how it ended. */
function priceMonitor(everyMs = 5) {
  const seen = { started: 0, finished: 0, aborted: false };
  const tool = new FunctionTool({
    name: "monitor_stock_price",
    description: "Watches a stock's price and reports each change.",
    parameters: z.object({ symbol: z.string() }),
    execute: async function* ({ symbol }, context: ToolContext) {
      seen.started++;
      try {
        for (let price = 100; ; price++) {
          await new Promise((resolve) => setTimeout(resolve, everyMs));
          yield `${symbol} at ${price}`;
        }
      } finally {
        seen.finished++;
        seen.aborted = context.abortSignal.aborted;
      }
    },
  });
  return { tool, seen };
}

describe("streaming tools in live runs", () => {
  it("answers the call at once as pending, then sends each value the tool yields to the model as a message, stored as the user's", async () => {
    const report = new FunctionTool({
      name: "count_visitors",
      description: "Counts visitors as they come.",
      execute: async function* () {
        yield "3 visitors";
        yield { visitors: 5, door: "north" };
      },
    });
    const model = new ScriptedLiveModel(script([callOf("count_visitors")]));
    const { events, queue, done, stored } = startLive(new LlmAgent({ name: "guard", model, tools: [report] }), (queue) => queue.sendContent(user("Count the visitors")));
    await until(() => messagesTo(model).length === 3, "both results reached the model");
    queue.close();
    await done;
    expect(events.find((event) => event.content?.parts?.[0]?.functionResponse)!.content!.parts![0]!.functionResponse!.response).toEqual(PENDING);
    expect(messagesTo(model)).toEqual(["Count the visitors", "Function count_visitors returned: 3 visitors", 'Function count_visitors returned: {"visitors":5,"door":"north"}']);
    const kept = (await stored()).map((event) => [event.author, event.content?.parts?.[0]?.text ?? event.content?.parts?.[0]?.functionCall?.name ?? event.content?.parts?.[0]?.functionResponse?.name]);
    expect(kept).toEqual([
      ["user", "Count the visitors"],
      ["guard", "count_visitors"],
      ["guard", "count_visitors"],
      ["user", "Function count_visitors returned: 3 visitors"],
      ["user", 'Function count_visitors returned: {"visitors":5,"door":"north"}'],
    ]);
  });

  it("stops a stream when the model calls stop_streaming: the tool's signal aborts, its finally runs, nothing more is sent, in ADK's words", async () => {
    const { tool, seen } = priceMonitor();
    let stops = 0;
    const model = new ScriptedLiveModel(
      script([callOf("monitor_stock_price", { symbol: "XYZ" })], (turn) => {
        const text = textOf(turn);
        // Stopped at the second price, then asked again once the first stop was answered.
        const stopNow = (text === "Function monitor_stock_price returned: XYZ at 101" && stops === 0) || (text === "stop_streaming" && stops === 1);
        return stopNow ? (stops++, [callOf("stop_streaming", { function_name: "monitor_stock_price" })]) : [];
      }),
    );
    const { events, queue, done } = startLive(new LlmAgent({ name: "trader", model, tools: [tool, stopStreamingTool] }), (queue) => queue.sendContent(user("Watch XYZ")));
    const responses = () => events.flatMap((event) => event.content?.parts?.flatMap((part) => (part.functionResponse?.name === "stop_streaming" ? [part.functionResponse.response] : [])) ?? []);
    await until(() => responses().length === 2, "stop_streaming was answered twice");
    const sentAtStop = messagesTo(model).length;
    await new Promise((resolve) => setTimeout(resolve, 40));
    queue.close();
    await done;
    expect(responses()).toEqual([{ status: "Successfully stopped streaming function monitor_stock_price" }, { status: "No active streaming function named monitor_stock_price found" }]);
    expect(seen).toEqual({ started: 1, finished: 1, aborted: true });
    expect(messagesTo(model).length).toBe(sentAtStop);
    expect(messagesTo(model).slice(0, 3)).toEqual(["Watch XYZ", "Function monitor_stock_price returned: XYZ at 100", "Function monitor_stock_price returned: XYZ at 101"]);
  });

  it("stops for a stop_streaming tool of the program's own, without running its function, as ADK does", async () => {
    const { tool, seen } = priceMonitor();
    let ownRan = false;
    const ownStop = new FunctionTool({ name: "stop_streaming", description: "Stop the streaming", parameters: z.object({ function_name: z.string() }), execute: () => ((ownRan = true), "own") });
    let stopped = false;
    const model = new ScriptedLiveModel(script([callOf("monitor_stock_price", { symbol: "ABC" })], (turn) => (!stopped && textOf(turn)?.startsWith("Function") ? ((stopped = true), [callOf("stop_streaming", { function_name: "monitor_stock_price" })]) : [])));
    const { events, queue, done } = startLive(new LlmAgent({ name: "trader", model, tools: [tool, ownStop] }), (queue) => queue.sendContent(user("Watch ABC")));
    await until(() => events.some((event) => event.content?.parts?.[0]?.functionResponse?.name === "stop_streaming"), "the stop was answered");
    queue.close();
    await done;
    expect(events.find((event) => event.content?.parts?.[0]?.functionResponse?.name === "stop_streaming")!.content!.parts![0]!.functionResponse!.response).toEqual({ status: "Successfully stopped streaming function monitor_stock_price" });
    expect(ownRan).toBe(false);
    expect(seen.finished).toBe(1);
  });

  it("stops every stream when the run ends, so no tool outlives it", async () => {
    const { tool, seen } = priceMonitor();
    const model = new ScriptedLiveModel(script([callOf("monitor_stock_price", { symbol: "XYZ" })]));
    const { queue, done } = startLive(new LlmAgent({ name: "trader", model, tools: [tool] }), (queue) => queue.sendContent(user("Watch XYZ")));
    await until(() => messagesTo(model).length >= 2, "a result reached the model");
    queue.close();
    await done;
    expect(seen).toEqual({ started: 1, finished: 1, aborted: true });
    const sent = messagesTo(model).length;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(messagesTo(model).length).toBe(sent);
  });

  it("stops every stream when the run is cancelled", async () => {
    const { tool, seen } = priceMonitor();
    const stop = new AbortController();
    const model = new ScriptedLiveModel(script([callOf("monitor_stock_price", { symbol: "XYZ" })]));
    const { done } = startLive(new LlmAgent({ name: "trader", model, tools: [tool] }), (queue) => queue.sendContent(user("Watch XYZ")), stop.signal);
    await until(() => messagesTo(model).length >= 2, "a result reached the model");
    stop.abort();
    await done;
    await until(() => seen.finished === 1, "the tool finished");
    expect(seen.aborted).toBe(true);
  });

  it("a second call of a streaming tool stops its first stream (ADK's kept both, one forgotten)", async () => {
    const { tool, seen } = priceMonitor();
    const model = new ScriptedLiveModel(script([callOf("monitor_stock_price", { symbol: "OLD" })], (turn, index) => (index === 0 ? [callOf("monitor_stock_price", { symbol: "NEW" })] : [])));
    const { queue, done } = startLive(new LlmAgent({ name: "trader", model, tools: [tool] }), (queue) => queue.sendContent(user("Watch")));
    await until(() => messagesTo(model).some((text) => text.includes("NEW at 101")), "the new stream runs");
    expect(seen).toEqual({ started: 2, finished: 1, aborted: true });
    const oldCount = messagesTo(model).filter((text) => text.includes("OLD")).length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(messagesTo(model).filter((text) => text.includes("OLD")).length).toBe(oldCount);
    queue.close();
    await done;
    expect(seen.finished).toBe(2);
  });

  it("stops the agent's streams when it transfers: their results were for it, not for the agent taking over", async () => {
    const { tool, seen } = priceMonitor();
    let transferred = false;
    const model = new ScriptedLiveModel(
      script([callOf("monitor_stock_price", { symbol: "XYZ" })], (turn) => {
        if (!transferred && textOf(turn)?.startsWith("Function monitor_stock_price returned")) return (transferred = true), [callOf("transfer_to_agent", { agent_name: "billing" })];
        return [];
      }),
    );
    const billing = new LlmAgent({ name: "billing", model, description: "Answers billing questions." });
    const { events, queue, done } = startLive(new LlmAgent({ name: "desk", model, tools: [tool], subAgents: [billing] }), (queue) => queue.sendContent(user("Watch XYZ")));
    await until(() => model.connections.length === 2, "billing connected");
    await new Promise((resolve) => setTimeout(resolve, 40));
    queue.close();
    await done;
    expect(seen).toEqual({ started: 1, finished: 1, aborted: true });
    const toBilling = model.connections[1]!.sent.filter((sent) => "content" in sent && JSON.stringify(sent).includes("monitor_stock_price returned"));
    expect(toBilling).toEqual([]);
    expect(events.some((event) => event.actions.transferToAgent === "billing")).toBe(true);
  });

  it("a second call's input stream is its own: the first stream, as it stops, closes only its own", async () => {
    const streams: LiveRequestQueue[] = [];
    const tool = new FunctionTool({
      name: "watch_video",
      description: "Watches the video.",
      execute: async function* (_args: Record<string, unknown>, context: ToolContext) {
        const stream = context.inputStream!;
        streams.push(stream);
        for await (const request of stream) {
          if (request.close) return;
          yield `call ${streams.indexOf(stream) + 1} saw ${request.blob?.data}`;
        }
      },
    });
    const model = new ScriptedLiveModel(script([callOf("watch_video")], (turn, index) => (index === 0 ? [callOf("watch_video")] : [])));
    const { queue, done } = startLive(new LlmAgent({ name: "camera", model, tools: [tool] }), (queue) => queue.sendContent(user("Watch")));
    await until(() => streams.length === 2, "both calls read their input streams");
    await until(() => streams[0]!.isClosed, "the first stream was stopped");
    queue.sendRealtime({ mimeType: "image/jpeg", data: "FRAME" });
    await until(() => messagesTo(model).includes("Function watch_video returned: call 2 saw FRAME"), "the second call saw the frame");
    expect(streams[1]!.isClosed).toBe(false);
    queue.close();
    await done;
    expect(streams[1]!.isClosed).toBe(true);
  });

  it("ends a stream at the tool's timeoutMs", async () => {
    const seen = { aborted: false };
    const tool = new FunctionTool({
      name: "ticker",
      description: "Ticks.",
      timeoutMs: 60,
      execute: async function* (_args: Record<string, unknown>, context: ToolContext) {
        try {
          for (let tick = 1; ; tick++) {
            await new Promise((resolve) => setTimeout(resolve, 5));
            yield tick;
          }
        } finally {
          seen.aborted = context.abortSignal.aborted;
        }
      },
    });
    const model = new ScriptedLiveModel(script([callOf("ticker")]));
    const { queue, done } = startLive(new LlmAgent({ name: "clock", model, tools: [tool] }), (queue) => queue.sendContent(user("Tick")));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const ticks = messagesTo(model).length - 1;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(messagesTo(model).length - 1).toBe(ticks);
    console.log(`a stream with timeoutMs 60 (a value every 5 ms) sent ${ticks} values`);
    expect(ticks).toBeGreaterThan(0);
    expect(ticks).toBeLessThan(40);
    expect(seen.aborted).toBe(true);
    queue.close();
    await done;
  });

  it("tells the model when a stream fails, and the conversation goes on", async () => {
    const tool = new FunctionTool({
      name: "feed",
      description: "A feed that breaks.",
      execute: async function* () {
        yield "first";
        throw new Error("the feed went away");
      },
    });
    const model = new ScriptedLiveModel(script([callOf("feed")], (turn) => (textOf(turn)?.startsWith("Function feed failed") ? [{ content: { role: "model", parts: [{ text: "The feed broke." }] } }, { turnComplete: true }] : [])));
    const { events, queue, done } = startLive(new LlmAgent({ name: "reader", model, tools: [tool] }), (queue) => queue.sendContent(user("Read the feed")));
    await until(() => events.some((event) => event.turnComplete), "the model answered the failure");
    queue.close();
    await done;
    expect(messagesTo(model)).toEqual(["Read the feed", "Function feed returned: first", "Function feed failed: the feed went away."]);
    expect(events.some((event) => event.errorCode)).toBe(false);
  });

  it("copies what the user streams into a tool's input stream from its first read, and closes it when the tool stops", async () => {
    let stream: LiveRequestQueue | undefined;
    const tool = new FunctionTool({
      name: "watch_video",
      description: "Watches the video and reports frames.",
      execute: async function* (_args: Record<string, unknown>, context: ToolContext) {
        stream = context.inputStream!;
        for await (const request of stream) {
          if (request.close) return;
          yield `frame of ${request.blob?.mimeType} (${request.blob?.data})`;
        }
      },
    });
    const model = new ScriptedLiveModel(script([callOf("watch_video")]));
    const agent = new LlmAgent({ name: "camera", model, tools: [tool, stopStreamingTool] });
    const { queue, done } = startLive(agent, (queue) => {
      queue.sendRealtime({ mimeType: "image/jpeg", data: "before" }); // sent before the tool ran: not copied
      queue.sendContent(user("Watch"));
    });
    await until(() => stream !== undefined, "the tool read its input stream");
    queue.sendRealtime({ mimeType: "image/jpeg", data: "AAAA" });
    queue.sendRealtime({ mimeType: "audio/pcm;rate=16000", data: "BBBB" });
    await until(() => messagesTo(model).length === 3, "both pieces were reported");
    queue.close();
    await done;
    expect(messagesTo(model)).toEqual(["Watch", "Function watch_video returned: frame of image/jpeg (AAAA)", "Function watch_video returned: frame of audio/pcm;rate=16000 (BBBB)"]);
    // The model got every piece too, the one sent before the tool ran included.
    expect(model.connections[0]!.sent.flatMap((sent) => ("blob" in sent ? [sent.blob.data] : []))).toEqual(["before", "AAAA", "BBBB"]);
    expect(stream!.isClosed).toBe(true);
  });

  it("keeps ADK's record of each stream in the context: an ActiveStreamingTool with a Task, cleared by stop_streaming", async () => {
    const { tool } = priceMonitor();
    let during: ActiveStreamingTool | undefined;
    let afterStop: ActiveStreamingTool | undefined;
    const model = new ScriptedLiveModel(script([callOf("monitor_stock_price", { symbol: "XYZ" })], (turn, index) => (index === 0 ? [callOf("stop_streaming", { function_name: "monitor_stock_price" })] : [])));
    const agent = new LlmAgent({
      name: "trader",
      model,
      tools: [tool, stopStreamingTool],
      beforeToolCallback: ({ tool: called, context }) => {
        if (called.name === "stop_streaming") during = { ...context.invocationContext.activeStreamingTools!.monitor_stock_price! };
        return undefined;
      },
      afterToolCallback: ({ tool: called, context }) => {
        if (called.name === "stop_streaming") afterStop = context.invocationContext.activeStreamingTools!.monitor_stock_price;
        return undefined;
      },
    });
    const { events, queue, done } = startLive(agent, (queue) => queue.sendContent(user("Watch XYZ")));
    await until(() => events.some((event) => event.content?.parts?.[0]?.functionResponse?.name === "stop_streaming"), "the stop was answered");
    queue.close();
    await done;
    expect(during!.task).toBeInstanceOf(Task);
    expect(afterStop).toBeInstanceOf(ActiveStreamingTool);
    expect(afterStop!.task).toBeUndefined();
  });

  it("outside a live run a call of a streaming tool ends the run with STREAMING_TOOL_NOT_LIVE, and the tool never runs", async () => {
    let ran = false;
    const tool = new FunctionTool({
      name: "monitor",
      description: "Watches.",
      execute: async function* () {
        ran = true;
        yield 1;
      },
    });
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "a", model: new ScriptedModel([callOf("monitor")]), tools: [tool] }), appName: "app" });
    const events: Event[] = [];
    for await (const event of runner.runEphemeral({ userId: "u", newMessage: user("Watch") })) events.push(event);
    const failure = events.at(-1)!;
    expect(failure.errorCode).toBe("STREAMING_TOOL_NOT_LIVE");
    expect(failure.errorMessage).toBe('Tool "monitor" streams its results (its function is an async generator), which only a live run can take: run the agent with runner.runLive, or give the tool a function that returns its result.');
    expect(ran).toBe(false);
  });

  it("a tool that hands back an async iterator without being a generator is found at its result: streamed live, refused outside", async () => {
    let closed = 0;
    const iteratorTool = new FunctionTool({
      name: "events_feed",
      description: "A feed.",
      execute: () => {
        const values = ["a", "b"];
        return {
          [Symbol.asyncIterator]() {
            return this;
          },
          async next() {
            const value = values.shift();
            return value === undefined ? { done: true as const, value: undefined } : { done: false as const, value };
          },
          async return() {
            closed++;
            return { done: true as const, value: undefined };
          },
        };
      },
    });
    expect(iteratorTool.isStreaming).toBe(false);
    const model = new ScriptedLiveModel(script([callOf("events_feed")]));
    const { queue, done } = startLive(new LlmAgent({ name: "reader", model, tools: [iteratorTool] }), (queue) => queue.sendContent(user("Read")));
    await until(() => messagesTo(model).length === 3, "both values reached the model");
    queue.close();
    await done;
    expect(messagesTo(model).slice(1)).toEqual(["Function events_feed returned: a", "Function events_feed returned: b"]);

    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "a", model: new ScriptedModel([callOf("events_feed")]), tools: [iteratorTool] }), appName: "app" });
    const events: Event[] = [];
    for await (const event of runner.runEphemeral({ userId: "u", newMessage: user("Read") })) events.push(event);
    expect(events.at(-1)!.errorCode).toBe("STREAMING_TOOL_NOT_LIVE");
    await until(() => closed === 2, "the unread feed was closed");
  });

  it("stop_streaming outside a live run finds no stream, in ADK's words", async () => {
    const model = new ScriptedModel([callOf("stop_streaming", { function_name: "monitor" }), { content: { role: "model", parts: [{ text: "ok" }] } }]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "a", model, tools: [stopStreamingTool] }), appName: "app" });
    const events: Event[] = [];
    for await (const event of runner.runEphemeral({ userId: "u", newMessage: user("Stop") })) events.push(event);
    expect(events[1]!.content!.parts![0]!.functionResponse!.response).toEqual({ status: "No active streaming function named monitor found" });
  });
});
