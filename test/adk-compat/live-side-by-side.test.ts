/**
 * Live runs (`Runner.runLive` with a `LiveRequestQueue`) on `@google/adk` 2.0 and on toolsmith, each with a model
 * whose live connection plays the same script (toolsmith's `ScriptedLiveModel`, behind ADK's `BaseLlm` on ADK's
 * side): the events each runner yields, what each stores, and what each sent the model (the connection's
 * settings, history, contents and function responses) are compared. Where they differ on purpose, the test says so.
 */
import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as toolsmith from "../../src/index.js";
import { ScriptedLiveModel, type ScriptedLiveStep } from "../../src/testing/index.js";
import { withoutIds, type Framework } from "./side-by-side.js";

interface LiveRecord {
  /** The user's messages the runner yielded as events (toolsmith's; ADK yields none). */
  typed: Array<Record<string, unknown>>;
  /** The same, as stored. */
  storedTyped: Array<Record<string, unknown>>;
  /** The events the runner yielded, normalised. */
  events: Array<Record<string, unknown>>;
  /** The events the session stored, normalised. */
  stored: Array<Record<string, unknown>>;
  /** Each connection: its settings, instruction, tools, and what it was sent. */
  connections: Array<{ liveConnectConfig: unknown; systemInstruction: string; tools: string[]; sent: unknown[] }>;
}

let counter = 0;

/**
 * Runs `program` live on the framework: a model named for this run whose connection plays `script`, a runner
 * over the agent `program` makes, a queue the test fills; the queue closes when `closeWhen` is true of an event.
 */
async function runLiveOn(
  framework: "adk" | "toolsmith",
  script: ScriptedLiveStep[] | ((framework: "adk" | "toolsmith") => ScriptedLiveStep[]),
  makeAgent: (f: Framework, model: string) => unknown,
  options: { send: (queue: toolsmith.LiveRequestQueue) => void; closeWhen: (event: Record<string, unknown>, seen: number) => boolean; runConfig?: Record<string, unknown>; handle?: string },
): Promise<LiveRecord> {
  const f: Framework = framework === "adk" ? adk : toolsmith;
  const name = `live-${framework}-${++counter}`;
  const scripted = new ScriptedLiveModel(typeof script === "function" ? script(framework) : structuredClone(script), { name });
  class ScriptedLlm extends f.BaseLlm {
    static readonly supportedModels = [name];
    async *generateContentAsync(): AsyncGenerator<never> {
      throw new Error("live only");
    }
    connect(request: unknown) {
      return scripted.connect(request as never);
    }
  }
  f.LLMRegistry.register(ScriptedLlm);
  const runner = new f.InMemoryRunner({ agent: makeAgent(f, name), appName: "app" });
  const queue = new f.LiveRequestQueue();
  options.send(queue);
  const events: Array<Record<string, unknown>> = [];
  const run = runner.runLive({ userId: "u", sessionId: `s-${counter}`, liveRequestQueue: queue, ...(options.runConfig ? { runConfig: options.runConfig } : {}), ...(options.handle ? { liveSessionResumptionHandle: options.handle } : {}) });
  const deadline = setTimeout(() => queue.close(), 10_000);
  for await (const event of run) {
    events.push(event);
    if (!queue.isClosed && options.closeWhen(event, events.length)) queue.close();
  }
  clearTimeout(deadline);
  const session = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: `s-${counter}` });
  // toolsmith stores each message the program sends as a user event (ADK TypeScript stores none: docs/adk-compat.md);
  // they are compared apart, and the rest must be the same.
  const isTyped = (event: Record<string, unknown>) => event.author === "user" && !event.inputTranscription && (event.content as { role?: string } | undefined)?.role === "user" && !JSON.stringify(event.content).includes("functionResponse");
  return {
    typed: events.filter(isTyped).map(normalise),
    storedTyped: session.events.filter(isTyped).map(normalise),
    events: events.filter((event) => !isTyped(event)).map(normalise),
    stored: session.events.filter((event: Record<string, unknown>) => !isTyped(event)).map(normalise),
    connections: scripted.connections.map((connection) => {
      const request = connection.request as unknown as { systemInstruction?: string; config?: { systemInstruction?: string; tools?: Array<{ functionDeclarations?: Array<{ name: string }> }> }; functionDeclarations?: Array<{ name: string }>; liveConnectConfig?: unknown };
      const declarations = request.functionDeclarations?.length ? request.functionDeclarations : (request.config?.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);
      return { liveConnectConfig: liveSettings(request.liveConnectConfig), systemInstruction: String(request.systemInstruction || request.config?.systemInstruction || ""), tools: declarations.map((declaration) => declaration.name), sent: withoutIds(connection.sent) };
    }),
  };
}

/**
 * A connection's settings as they go on the wire: keys left undefined are not sent, and ADK's
 * `enableAffectiveDialog: false` (its run config's default, copied on every request) asks for what leaving it out
 * does; toolsmith sends only what the run config sets.
 */
function liveSettings(config: unknown): unknown {
  if (config === undefined) return undefined;
  const sent = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
  if (sent.enableAffectiveDialog === false) delete sent.enableAffectiveDialog;
  return sent;
}

/** An event's fields a live run gives it, ids and times left out (both make them up). */
function normalise(event: Record<string, unknown>): Record<string, unknown> {
  const actions = (event.actions ?? {}) as { stateDelta?: Record<string, unknown>; transferToAgent?: string };
  const kept: Record<string, unknown> = { author: event.author };
  for (const key of ["partial", "turnComplete", "interrupted", "inputTranscription", "outputTranscription", "liveSessionResumptionUpdate", "errorCode"]) if (event[key] !== undefined && event[key] !== false) kept[key] = event[key];
  if (event.content) kept.content = withoutIds(event.content);
  if (actions.stateDelta && Object.keys(actions.stateDelta).length > 0) kept.stateDelta = actions.stateDelta;
  if (actions.transferToAgent) kept.transferToAgent = actions.transferToAgent;
  if ((event.longRunningToolIds as unknown[] | undefined)?.length) kept.waiting = (event.longRunningToolIds as unknown[]).length;
  return kept;
}

/** An event with the transfer tool's own argument and answer (which differ on purpose) replaced by a marker. */
function sameTransfer(event: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(event, (key, value) => (value && typeof value === "object" && (value as { name?: string }).name === "transfer_to_agent" && ("args" in value || "response" in value) ? { name: "transfer_to_agent", transfer: true } : value)));
}

/** Runs the program live on both frameworks, each with its own copy of the script. */
async function runLiveOnBoth(script: Parameters<typeof runLiveOn>[1], makeAgent: Parameters<typeof runLiveOn>[2], options: Parameters<typeof runLiveOn>[3]): Promise<{ adk: LiveRecord; toolsmith: LiveRecord }> {
  return { adk: await runLiveOn("adk", script, makeAgent, options), toolsmith: await runLiveOn("toolsmith", script, makeAgent, options) };
}

const user = (text: string) => ({ role: "user", parts: [{ text }] });
const modelText = (text: string, partial?: boolean) => ({ content: { role: "model", parts: [{ text }] }, ...(partial ? { partial: true } : {}) });
const weatherTool = (f: Framework) => new f.FunctionTool({ name: "get_weather", description: "The weather in a city.", parameters: z.object({ city: z.string() }), execute: ({ city }: { city: string }) => ({ city, sky: "sunny" }) });

describe("live runs, side by side with @google/adk 2.0", () => {
  it("a text turn with a tool call: the same events, the same stored history, the same things sent to the model", async () => {
    const script: ScriptedLiveStep[] = [
      [{ content: { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }] } }],
      [modelText("It is ", true), modelText("sunny.", true), modelText("It is sunny."), { turnComplete: true }],
    ];
    const { adk: onAdk, toolsmith: onToolsmith } = await runLiveOnBoth(script, (f, model) => new f.LlmAgent({ name: "weather", model, instruction: "Answer about the weather.", tools: [weatherTool(f)] }), {
      send: (queue) => queue.sendContent(user("Weather in Paris?")),
      closeWhen: (event) => event.turnComplete === true,
      runConfig: { responseModalities: ["TEXT"] },
    });
    expect(onToolsmith.events).toEqual(onAdk.events);
    expect(onToolsmith.stored).toEqual(onAdk.stored);
    expect(onToolsmith.connections).toEqual(onAdk.connections);
    // What both did, spelled out: partial text is shown but not stored; the call is answered on the connection.
    expect(onToolsmith.events.map((event) => [event.partial ?? false, event.turnComplete ?? false])).toEqual([[false, false], [false, false], [true, false], [true, false], [false, false], [false, true]]);
    expect(onToolsmith.stored).toHaveLength(4);
    expect(onToolsmith.connections[0]!.sent).toEqual([{ content: user("Weather in Paris?") }, { content: { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { city: "Paris", sky: "sunny" } } }] } }]);
    expect(onToolsmith.connections[0]!.liveConnectConfig).toEqual({ responseModalities: ["TEXT"] });
    // The user's message: stored by toolsmith, before the model hears it; not by ADK.
    expect(onAdk.storedTyped).toEqual([]);
    expect(onToolsmith.typed).toEqual([{ author: "user", content: user("Weather in Paris?") }]);
    expect(onToolsmith.storedTyped).toEqual(onToolsmith.typed);
  });

  it("speech: transcriptions (the user's authored user), audio shown but not stored, interruptions and resumption handles", async () => {
    const audio = { inlineData: { mimeType: "audio/pcm;rate=24000", data: "AAAA" } };
    const script: ScriptedLiveStep[] = [
      [
        { inputTranscription: { text: "Hello", finished: false }, partial: true },
        { inputTranscription: { text: "Hello", finished: true }, partial: false },
        { content: { role: "model", parts: [audio] } },
        { outputTranscription: { text: "Hi there", finished: true }, partial: false },
        { interrupted: true },
        { liveSessionResumptionUpdate: { newHandle: "handle-1", resumable: true } },
        { turnComplete: true },
      ],
    ];
    const { adk: onAdk, toolsmith: onToolsmith } = await runLiveOnBoth(script, (f, model) => new f.LlmAgent({ name: "voice", model }), {
      send: (queue) => {
        queue.sendRealtime({ mimeType: "audio/pcm;rate=16000", data: "AQID" });
        queue.sendActivityStart();
        queue.sendActivityEnd();
      },
      closeWhen: (event) => event.turnComplete === true,
      runConfig: { inputAudioTranscription: {}, outputAudioTranscription: {} },
    });
    expect(onToolsmith.events).toEqual(onAdk.events);
    expect(onToolsmith.stored).toEqual(onAdk.stored);
    expect(onToolsmith.connections).toEqual(onAdk.connections);
    expect(onToolsmith.events.map((event) => event.author)).toEqual(["user", "user", "voice", "voice", "voice", "voice", "voice"]);
    // The audio event is yielded but not stored; so is the partial transcription.
    expect(onToolsmith.stored.some((event) => JSON.stringify(event).includes("audio/pcm"))).toBe(false);
    expect(onToolsmith.connections[0]!.liveConnectConfig).toEqual({ responseModalities: ["AUDIO"], inputAudioTranscription: {}, outputAudioTranscription: {} });
  });

  it("an agent with sub-agents gets transcriptions by default, and a transfer runs the target live on a connection of its own", async () => {
    // ADK TypeScript's transfer tool takes `agentName`, toolsmith's `agent_name` (docs/adk-compat.md): each model calls its own.
    const script = (framework: "adk" | "toolsmith"): ScriptedLiveStep[] => [
      [{ content: { role: "model", parts: [{ functionCall: { name: "transfer_to_agent", args: framework === "adk" ? { agentName: "billing" } : { agent_name: "billing" } } }] } }],
      // The transfer's response is sent on the desk's connection, which the model may answer before it closes.
      [],
      [modelText("Billing here."), { turnComplete: true }],
    ];
    const { adk: onAdk, toolsmith: onToolsmith } = await runLiveOnBoth(
      script,
      (f, model) => new f.LlmAgent({ name: "desk", model, instruction: "Route the user.", subAgents: [new f.LlmAgent({ name: "billing", model, description: "Answers billing questions." })] }),
      { send: (queue) => queue.sendContent(user("I have a billing question.")), closeWhen: (event) => event.turnComplete === true },
    );
    // The transfer tool's own argument and answer differ on purpose (docs/adk-compat.md); everything else is the same.
    expect(onToolsmith.events.map(sameTransfer)).toEqual(onAdk.events.map(sameTransfer));
    expect(onToolsmith.stored.map(sameTransfer)).toEqual(onAdk.stored.map(sameTransfer));
    expect(onToolsmith.connections.map((connection) => connection.liveConnectConfig)).toEqual(onAdk.connections.map((connection) => connection.liveConnectConfig));
    expect(onToolsmith.connections[0]!.liveConnectConfig).toEqual({ responseModalities: ["AUDIO"], outputAudioTranscription: {}, inputAudioTranscription: {} });
    expect(onToolsmith.connections.map((connection) => connection.sent.length)).toEqual(onAdk.connections.map((connection) => connection.sent.length));
    expect(onToolsmith.events.map((event) => event.author)).toEqual(["desk", "desk", "billing", "billing"]);
    // The agent the conversation is handed to hears what the user asked on toolsmith; ADK's stored no message to send.
    const billingHistory = (record: LiveRecord) => JSON.stringify(record.connections[1]!.sent[0]);
    expect(billingHistory(onToolsmith)).toContain("I have a billing question.");
    expect(billingHistory(onAdk)).not.toContain("I have a billing question.");
  });

  it("in a SequentialAgent each LLM agent gets task_completed and the next one takes over when it is called", async () => {
    // The task_completed response is sent on the first agent's connection (the model answers it with nothing here).
    const script: ScriptedLiveStep[] = [[{ content: { role: "model", parts: [{ functionCall: { name: "task_completed", args: {} } }] } }], [], [modelText("Second here."), { turnComplete: true }]];
    const { adk: onAdk, toolsmith: onToolsmith } = await runLiveOnBoth(
      script,
      (f, model) => new f.SequentialAgent({ name: "steps", subAgents: [new f.LlmAgent({ name: "first", model, instruction: "Greet." }), new f.LlmAgent({ name: "second", model, instruction: "Help." })] }),
      { send: (queue) => queue.sendContent(user("Hello")), closeWhen: (event) => event.turnComplete === true },
    );
    expect(onToolsmith.events).toEqual(onAdk.events);
    expect(onToolsmith.stored).toEqual(onAdk.stored);
    expect(onToolsmith.connections.map((connection) => connection.tools)).toEqual(onAdk.connections.map((connection) => connection.tools));
    // Both add ADK's sentence to each agent's instruction; ADK glues it to the instruction's last sentence
    // ("Greet.If you finished…"), toolsmith puts it in a paragraph of its own, as it joins every instruction.
    const sentence = "If you finished the user's request according to its description, call the task_completed function to exit so the next agents can take over. When calling this function, do not generate any text other than the function call.";
    const withoutSentence = (instruction: string) => instruction.replace(sentence, "").replace(/\s+/g, " ").trim();
    for (const record of [onAdk, onToolsmith]) expect(record.connections.every((connection) => connection.systemInstruction.includes(sentence))).toBe(true);
    expect(onToolsmith.connections.map((connection) => withoutSentence(connection.systemInstruction))).toEqual(onAdk.connections.map((connection) => withoutSentence(connection.systemInstruction)));
    expect(onToolsmith.connections[0]!.systemInstruction).toContain("Greet.\n\nIf you finished");
    expect(onToolsmith.connections[0]!.tools).toEqual(["task_completed"]);
  });

  it("a goAway reconnects with the latest resumption handle, without sending the history again", async () => {
    const script: ScriptedLiveStep[] = [[{ liveSessionResumptionUpdate: { newHandle: "h-2", resumable: true } }, { goAway: { timeLeft: "1s" } }], [modelText("Still here."), { turnComplete: true }]];
    const { adk: onAdk, toolsmith: onToolsmith } = await runLiveOnBoth(script, (f, model) => new f.LlmAgent({ name: "voice", model }), {
      send: (queue) => {
        queue.sendContent(user("First"));
        // Sent after the reconnection: the second connection's sender reads it.
        setTimeout(() => queue.sendContent(user("Second")), 50);
      },
      closeWhen: (event) => event.turnComplete === true,
    });
    expect(onToolsmith.events).toEqual(onAdk.events);
    expect(onToolsmith.stored).toEqual(onAdk.stored);
    expect(onToolsmith.connections).toEqual(onAdk.connections);
    expect(onToolsmith.connections.map((connection) => connection.liveConnectConfig)).toEqual([{ responseModalities: ["AUDIO"] }, { responseModalities: ["AUDIO"], sessionResumption: { handle: "h-2", transparent: true } }]);
  });

  it("outputKey takes the final text of a live answer on both", async () => {
    const script: ScriptedLiveStep[] = [[modelText("Par", true), modelText("Paris"), { turnComplete: true }]];
    const { adk: onAdk, toolsmith: onToolsmith } = await runLiveOnBoth(script, (f, model) => new f.LlmAgent({ name: "capital", model, outputKey: "capital" }), {
      send: (queue) => queue.sendContent(user("Capital of France?")),
      closeWhen: (event) => event.turnComplete === true,
      runConfig: { responseModalities: ["TEXT"] },
    });
    expect(onToolsmith.events).toEqual(onAdk.events);
    expect(onToolsmith.stored).toEqual(onAdk.stored);
    expect(onToolsmith.stored.find((event) => event.stateDelta)).toMatchObject({ stateDelta: { capital: "Paris" } });
  });

  it("differs on purpose for a streaming tool (an async generator): ADK TypeScript answers {} and never runs it, toolsmith streams its values as ADK Python does", async () => {
    const started = { adk: 0, toolsmith: 0 };
    const script = (): ScriptedLiveStep[] => [[{ content: { role: "model", parts: [{ functionCall: { name: "count_visitors", args: {} } }] } }], ...Array.from({ length: 4 }, (): ScriptedLiveStep => () => [])];
    const makeAgent = (f: Framework, model: string) => {
      const framework = f === (adk as unknown as Framework) ? "adk" : "toolsmith";
      const counter = new f.FunctionTool({
        name: "count_visitors",
        description: "Counts visitors as they come.",
        execute: async function* () {
          started[framework]++;
          yield "3 visitors";
          yield "5 visitors";
        } as never,
      });
      return new f.LlmAgent({ name: "guard", model, tools: [counter] });
    };
    const { adk: onAdk, toolsmith: onToolsmith } = await runLiveOnBoth(script, makeAgent, {
      send: (queue) => queue.sendContent(user("Count the visitors")),
      // ADK's run has nothing more to say after the call's answer ({}); toolsmith's, after the second value.
      closeWhen: (event) => {
        const text = JSON.stringify(event);
        return text.includes("5 visitors") || (text.includes("functionResponse") && !text.includes("pending"));
      },
      runConfig: { responseModalities: ["TEXT"] },
    });
    const answer = (record: LiveRecord) => (record.connections[0]!.sent[1] as { content: { parts: Array<{ functionResponse: { response: unknown } }> } }).content.parts[0]!.functionResponse.response;
    console.log(`a streaming tool's answer: ADK TypeScript ${JSON.stringify(answer(onAdk))}, toolsmith ${JSON.stringify(answer(onToolsmith))}`);
    expect(answer(onAdk)).toEqual({});
    expect(started.adk).toBe(0);
    expect(answer(onToolsmith)).toEqual({ status: "The function is running asynchronously and the results are pending." });
    expect(started.toolsmith).toBe(1);
    expect(onToolsmith.connections[0]!.sent.slice(2)).toEqual([{ content: user("Function count_visitors returned: 3 visitors") }, { content: user("Function count_visitors returned: 5 visitors") }]);
    expect(onToolsmith.storedTyped.map((event) => (event.content as { parts: Array<{ text: string }> }).parts[0]!.text)).toEqual(["Count the visitors", "Function count_visitors returned: 3 visitors", "Function count_visitors returned: 5 visitors"]);
  });
});
