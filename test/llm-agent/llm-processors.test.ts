/**
 * Request and response processors (ADK's `BaseLlmRequestProcessor`, `BaseLlmResponseProcessor`, pushed onto an
 * LLM agent's `requestProcessors` and `responseProcessors`): where they run among the agent's own steps, the
 * tools and the callbacks, how their events are stored, streaming and live runs, cancellation, failures, and that
 * code changing a request in place never changes the stored history. Side by side with ADK in
 * test/adk-compat/llm-processors-side-by-side.test.ts.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  BaseLlmRequestProcessor,
  BaseLlmResponseProcessor,
  BasePlugin,
  BaseTool,
  GlobalInstructionPlugin,
  GOOGLE_SEARCH,
  LoadMemoryTool,
  LoggingPlugin,
  createEvent,
  createEventActions,
  FunctionTool,
  InMemoryRunner,
  LiveRequestQueue,
  LlmAgent,
  StreamingMode,
  type Content,
  type Event,
  type InvocationContext,
  type LlmRequest,
  type LlmResponse,
  type RunConfig,
  type ToolContext,
} from "../../src/index.js";
import { runProcessors } from "../../src/llm-agent/llm-processors.js";
import { collect, functionCallsResponse, ScriptedLiveModel, ScriptedModel, streamedText, textResponse, userMessage } from "../../src/testing/index.js";
import { invocationFor } from "./fixtures.js";
import { refusal } from "../support/refusal.js";

/** A request processor made from a function: it gets the context and the request, and yields what it returns. */
class RequestStep extends BaseLlmRequestProcessor {
  constructor(private readonly step: (context: InvocationContext, request: LlmRequest) => Event[] | void | Promise<Event[] | void>) {
    super();
  }
  async *runAsync(context: InvocationContext, request: LlmRequest) {
    for (const event of (await this.step(context, request)) ?? []) yield event;
  }
}

/** A response processor made from a function. */
class ResponseStep extends BaseLlmResponseProcessor {
  constructor(private readonly step: (context: InvocationContext, response: LlmResponse) => Event[] | void) {
    super();
  }
  async *runAsync(context: InvocationContext, response: LlmResponse) {
    for (const event of this.step(context, response) ?? []) yield event;
  }
}

const note = (context: InvocationContext, text: string, stateDelta?: Record<string, unknown>) =>
  createEvent({ invocationId: context.invocationId, author: context.agent.name, content: { role: "model", parts: [{ text }] }, actions: stateDelta ? { stateDelta } : undefined });

async function runOnce(agent: LlmAgent, message = "hi", runConfig?: RunConfig) {
  const runner = new InMemoryRunner({ agent, appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage(message), runConfig }));
  const stored = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
  return { events, stored };
}

const contentText = (content: Content | undefined) => content?.parts?.map((part) => part.text ?? "").join("") ?? "";
const textOf = (event: Event | LlmResponse | undefined) => contentText(event?.content);

describe("runProcessors", () => {
  it("runs the processors in order and hands on each event before the processor goes on", async () => {
    const order: string[] = [];
    const context = await invocationFor(new LlmAgent({ name: "a", model: new ScriptedModel([]) }));
    const first = new RequestStep(() => {
      order.push("first runs");
      return [note(context, "one"), note(context, "two")];
    });
    const second = new RequestStep(() => void order.push("second runs"));
    const finished = await runProcessors([first, second], "requestProcessors", context, {}, async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(`took ${textOf(event)}`);
    });
    expect(finished).toBe(true);
    expect(order).toEqual(["first runs", "took one", "took two", "second runs"]);
  });

  it("stops at the first event after the run was cancelled, without handing it on", async () => {
    const controller = new AbortController();
    const runner = new InMemoryRunner({
      agent: new LlmAgent({
        name: "a",
        model: new ScriptedModel([textResponse("never")]),
        requestProcessors: [
          new RequestStep((context) => {
            controller.abort();
            return [note(context, "after the abort")];
          }),
        ],
      }),
      appName: "app",
    });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("hi"), abortSignal: controller.signal }));
    expect(events.map(textOf)).not.toContain("after the abort");
    expect(events.map(textOf)).not.toContain("never");
  });

  it("refuses, saying what to give, a list entry pushed after the agent was made that is no processor", async () => {
    const agent = new LlmAgent({ name: "a", model: new ScriptedModel([textResponse("never")]) });
    agent.requestProcessors.push({} as BaseLlmRequestProcessor);
    const { events, stored } = await runOnce(agent);
    expect(events.at(-1)).toMatchObject({ errorCode: "UNSUPPORTED_OPTION", errorMessage: expect.stringContaining("requestProcessors[0] has no runAsync method") });
    // The user's message is stored as it came; the failure is stored after it.
    expect(stored.events.map((event) => event.author)).toEqual(["user", "a"]);
    expect(textOf(stored.events[0])).toBe("hi");
  });
});

describe("LlmAgent's requestProcessors", () => {
  it("keeps the list it was given as its own, empty when none was, for a program to push onto", () => {
    const given = [new RequestStep(() => undefined)];
    const agent = new LlmAgent({ name: "a", model: new ScriptedModel([]), requestProcessors: given });
    expect(agent.requestProcessors).toBe(given);
    expect(new LlmAgent({ name: "b", model: new ScriptedModel([]) }).requestProcessors).toEqual([]);
    expect(new LlmAgent({ name: "c", model: new ScriptedModel([]) }).responseProcessors).toEqual([]);
  });

  it("refuses a list that is not one, or an entry with no runAsync, when the agent is made", () => {
    expect(refusal(() => new LlmAgent({ name: "a", requestProcessors: new RequestStep(() => undefined) as never }))).toMatchObject({ code: "UNSUPPORTED_OPTION", message: expect.stringContaining("requestProcessors must be a list of processors") });
    expect(refusal(() => new LlmAgent({ name: "a", responseProcessors: [(() => undefined) as never] }))).toMatchObject({ code: "UNSUPPORTED_OPTION", message: expect.stringContaining("responseProcessors[0] has no runAsync method; give a class that extends BaseLlmResponseProcessor") });
  });

  it("runs after the history and instruction are in, before the tools declare themselves and change the request", async () => {
    const seen: string[] = [];
    class Marker extends BaseTool {
      constructor() {
        super({ name: "marker", description: "Marks." });
      }
      override async processLlmRequest({ llmRequest }: { toolContext: ToolContext; llmRequest: LlmRequest }) {
        seen.push(`tool sees: ${llmRequest.contents.map(contentText).join(" | ")}`);
      }
      override async runAsync() {
        return {};
      }
    }
    const model = new ScriptedModel([textResponse("done")]);
    const agent = new LlmAgent({
      name: "a",
      model,
      instruction: "Help {topic?}.",
      disallowTransferToParent: true,
      disallowTransferToPeers: true,
      tools: [new Marker(), new FunctionTool({ name: "look", description: "Looks.", parameters: z.object({}), execute: () => ({}) })],
      requestProcessors: [
        new RequestStep((_context, request) => {
          seen.push(`processor sees: ${request.contents.length} contents, instruction "${request.systemInstruction}", ${request.functionDeclarations.length} declarations`);
          request.contents.push({ role: "user", parts: [{ text: "(be brief)" }] });
        }),
      ],
    });
    await runOnce(agent);
    expect(seen).toEqual(['processor sees: 1 contents, instruction "Help .", 0 declarations', "tool sees: hi | (be brief)"]);
    expect(model.requests[0]!.functionDeclarations.map((declaration) => declaration.name)).toEqual(["look"]);
    expect(model.requests[0]!.contents.at(-1)).toEqual({ role: "user", parts: [{ text: "(be brief)" }] });
  });

  it("stores its events, state included, before the model is called, and runs before the model callbacks", async () => {
    const order: string[] = [];
    const model = new ScriptedModel([functionCallsResponse({ name: "look", args: {} }), textResponse("done")]);
    const look = new FunctionTool({ name: "look", description: "Looks.", parameters: z.object({}), execute: () => ({ seen: true }) });
    const agent = new LlmAgent({
      name: "a",
      model,
      tools: [look],
      requestProcessors: [
        new RequestStep((context) => {
          order.push("processor");
          return [note(context, `call ${context.session.events.length}`, { calls: ((context.session.state.calls as number | undefined) ?? 0) + 1 })];
        }),
      ],
      beforeModelCallback: ({ context }) => {
        order.push(`before model, calls = ${String(context.state.get("calls"))}`);
        return undefined;
      },
    });
    const { events, stored } = await runOnce(agent);
    expect(order).toEqual(["processor", "before model, calls = 1", "processor", "before model, calls = 2"]);
    expect(events.map((event) => textOf(event) || (event.content?.parts?.[0]?.functionCall ? "call" : "response"))).toEqual(["call 1", "call", "response", "call 4", "done"]);
    expect(stored.events.map((event) => event.id)).toEqual([stored.events[0]!.id, ...events.map((event) => event.id)]);
    expect(stored.state.calls).toBe(2);
  });

  it("ends the run with an error event when a processor throws, keeping what was stored", async () => {
    const agent = new LlmAgent({
      name: "a",
      model: new ScriptedModel([textResponse("never")]),
      requestProcessors: [
        new RequestStep((context) => [note(context, "before the failure")]),
        new RequestStep(() => {
          throw new Error("the processor broke");
        }),
      ],
    });
    const { events, stored } = await runOnce(agent);
    expect(events.map((event) => textOf(event) || event.errorCode)).toEqual(["before the failure", "RUN_FAILED"]);
    expect(events.at(-1)!.errorMessage).toContain("the processor broke");
    expect(stored.events.map((event) => textOf(event) || event.errorCode)).toEqual(["hi", "before the failure", "RUN_FAILED"]);
  });
});

describe("LlmAgent's responseProcessors", () => {
  const shout = new ResponseStep((_context, response) => {
    for (const part of response.content?.parts ?? []) if (part.text) part.text = part.text.toUpperCase();
  });

  it("changes each streamed chunk and the whole answer of a streaming run, its events before the response's", async () => {
    const model = new ScriptedModel([streamedText("one two three", { wordsPerChunk: 1 })]);
    const calls: string[] = [];
    const counting = new ResponseStep((context, response) => {
      calls.push(`${response.partial ? "partial" : "whole"}: ${textOf(response)}`);
      return response.partial ? [] : [createEvent({ invocationId: context.invocationId, author: context.agent.name, actions: createEventActions({ stateDelta: { answered: true } }) })];
    });
    const agent = new LlmAgent({ name: "a", model, responseProcessors: [shout, counting] });
    const { events, stored } = await runOnce(agent, "hi", { streamingMode: StreamingMode.SSE });
    const partials = events.filter((event) => event.partial);
    expect(partials.length).toBeGreaterThan(1);
    expect(partials.map(textOf).join("")).toBe("ONE TWO THREE");
    expect(calls.at(-1)).toBe("whole: ONE TWO THREE");
    expect(events.filter((event) => !event.partial).map((event) => textOf(event) || JSON.stringify(event.actions.stateDelta))).toEqual(['{"answered":true}', "ONE TWO THREE"]);
    expect(stored.state.answered).toBe(true);
  });

  it("changes a before-model callback's answer too, and runs after the after-model callback", async () => {
    const order: string[] = [];
    const agent = new LlmAgent({
      name: "a",
      model: new ScriptedModel([textResponse("from the model")]),
      afterModelCallback: ({ response }) => {
        order.push(`after model: ${textOf(response)}`);
        return undefined;
      },
      responseProcessors: [
        shout,
        new ResponseStep((_context, response) => void order.push(`processor: ${textOf(response)}`)),
      ],
    });
    const { events } = await runOnce(agent);
    expect(order).toEqual(["after model: from the model", "processor: FROM THE MODEL"]);
    expect(events.map(textOf)).toEqual(["FROM THE MODEL"]);

    const cached = new LlmAgent({ name: "b", model: new ScriptedModel([]), beforeModelCallback: () => textResponse("from the cache"), responseProcessors: [shout] });
    expect((await runOnce(cached)).events.map(textOf)).toEqual(["FROM THE CACHE"]);
  });
});

describe("live runs", () => {
  it("run the request processors once before connecting and the response processors on each response", async () => {
    const model = new ScriptedLiveModel([[{ content: { role: "model", parts: [{ text: "hello there" }] } }, { turnComplete: true }]]);
    const agent = new LlmAgent({
      name: "voice",
      model,
      instruction: "Talk.",
      disallowTransferToParent: true,
      disallowTransferToPeers: true,
      requestProcessors: [
        new RequestStep((context, request) => {
          request.systemInstruction = `${request.systemInstruction}\n\nSpeak slowly.`;
          return [note(context, "connecting")];
        }),
      ],
      responseProcessors: [
        new ResponseStep((_context, response) => {
          for (const part of response.content?.parts ?? []) if (part.text) part.text = part.text.toUpperCase();
        }),
      ],
    });
    const runner = new InMemoryRunner({ agent, appName: "app" });
    const queue = new LiveRequestQueue();
    queue.sendContent({ role: "user", parts: [{ text: "hi" }] });
    const events: Event[] = [];
    for await (const event of runner.runLive({ userId: "u", sessionId: "s", liveRequestQueue: queue, runConfig: { responseModalities: ["TEXT"] } })) {
      events.push(event);
      if (event.turnComplete) queue.close();
    }
    expect(model.connections).toHaveLength(1);
    expect(model.connections[0]!.request.systemInstruction).toBe("Talk.\n\nSpeak slowly.");
    expect(events.map((event) => textOf(event) || (event.turnComplete ? "turnComplete" : "?"))).toEqual(["connecting", "hi", "HELLO THERE", "turnComplete"]);
    const stored = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: "s" }))!;
    expect(stored.events.map(textOf)).toContain("connecting");
  });
});

describe("a request changed in place", () => {
  it("by a before-model callback, a request processor or a tool does not change the stored history", async () => {
    const rewrite = (request: LlmRequest) => {
      const part = request.contents[0]?.parts?.[0];
      if (part?.text !== undefined) part.text = `${part.text} (rewritten)`;
    };
    class Rewriter extends BaseTool {
      constructor() {
        super({ name: "rewriter", description: "Rewrites." });
      }
      override async processLlmRequest({ llmRequest }: { toolContext: ToolContext; llmRequest: LlmRequest }) {
        rewrite(llmRequest);
      }
      override async runAsync() {
        return {};
      }
    }
    const model = new ScriptedModel([textResponse("one"), textResponse("two")]);
    const agent = new LlmAgent({ name: "a", model, tools: [new Rewriter()], requestProcessors: [new RequestStep((_context, request) => rewrite(request))], beforeModelCallback: ({ request }) => void rewrite(request) });
    const runner = new InMemoryRunner({ agent, appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("first") }));
    await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("second") }));
    // Each call's model saw the three rewrites of that call alone.
    expect(model.requests.map((request) => contentText(request.contents[0]))).toEqual(["first (rewritten) (rewritten) (rewritten)", "first (rewritten) (rewritten) (rewritten)"]);
    const stored = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
    expect(stored.events.map(textOf)).toEqual(["first", "one", "second", "two"]);
  });

  it("by a plugin does not change the stored history either, while toolsmith's own hooks, which change nothing in place, cost no copy", async () => {
    const { getLogger, setLogger } = await import("../../src/index.js");
    const logger = getLogger();
    setLogger(null);
    try {
      class Rewriting extends BasePlugin {
        constructor() {
          super("rewriting");
        }
        override async beforeModelCallback({ llmRequest }: { llmRequest: LlmRequest }) {
          const part = llmRequest.contents[0]?.parts?.[0];
          if (part?.text !== undefined) part.text = "rewritten by a plugin";
          return undefined;
        }
      }
      const run = async (plugins: BasePlugin[], tools: LlmAgent["tools"] = []) => {
        const model = new ScriptedModel([textResponse("one")]);
        const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "a", model, tools }), appName: "app", plugins });
        const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
        await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("first") }));
        const stored = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
        return { sent: model.requests[0]!.contents[0], stored: stored.events[0]!.content };
      };
      const rewritten = await run([new LoggingPlugin(), new Rewriting()]);
      expect(contentText(rewritten.sent)).toBe("rewritten by a plugin");
      expect(contentText(rewritten.stored)).toBe("first");
      // Only toolsmith's own hooks: the model got the stored content itself (the scripted model keeps what it was sent).
      const shared = await run([new LoggingPlugin(), new GlobalInstructionPlugin("Be kind.")], [GOOGLE_SEARCH, new LoadMemoryTool()]);
      expect(contentText(shared.sent)).toBe("first");
      expect(shared.sent).toBe(shared.stored);
    } finally {
      setLogger(logger);
    }
  });
});
