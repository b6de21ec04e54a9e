import * as adk from "@google/adk";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Gemini } from "../../src/models/gemini/index.js";
import type { BaseLlmConnection, LiveConnectConfig } from "../../src/models/live-connection.js";
import { createLlmRequest } from "../../src/models/llm-request.js";
import type { LlmResponse } from "../../src/models/llm-response.js";
import { FunctionTool } from "../../src/tools/function-tool.js";
import { freePort } from "../support/free-port.js";
import { startGeminiLiveServer, type GeminiLiveServer, type LiveClientMessage, type LiveScriptStep } from "../support/gemini-live-server.js";

/**
 * Gemini's live connection, side by side with `@google/adk` 2.0: ADK's `Gemini.connect` and toolsmith's, each on the
 * same scripted local Live API server (test/support/gemini-live-server.ts), with the same request and the same
 * script. What each sent (the path, the setup, every client message) and what each connection's `receive()` yielded
 * must be the same, but for the differences named in each test.
 *
 * ADK's `Gemini` takes no base URL; both are pointed at the server with `GOOGLE_GEMINI_BASE_URL`, which the SDK
 * reads for ADK's live client and toolsmith's `Gemini` reads for its own.
 */

/** The same tool in each framework, for the declarations the setup carries. */
const weatherParameters = z.object({
  city: z.string().describe("The city."),
  unit: z.enum(["C", "F"]).optional(),
  days: z.number().int().describe("How many days ahead.").optional(),
  tags: z.array(z.string()).optional(),
});
const adkWeather = new adk.FunctionTool({ name: "get_weather", description: "The weather in a city.", parameters: weatherParameters, execute: async () => ({}) });
const ourWeather = new FunctionTool({ name: "get_weather", description: "The weather in a city.", parameters: weatherParameters, execute: async () => ({}) });

interface Spec {
  model?: string;
  systemInstruction?: string;
  withTools?: boolean;
  liveConnectConfig?: LiveConnectConfig;
}

/** The request as ADK's flow builds it: declarations and built-in tools in `config.tools`. */
function adkRequest(spec: Spec) {
  const tools = spec.withTools ? [{ functionDeclarations: [adkWeather._getDeclaration()!] }, { googleSearch: {} }] : undefined;
  return {
    contents: [],
    config: { ...(spec.systemInstruction ? { systemInstruction: spec.systemInstruction } : {}), ...(tools ? { tools } : {}) },
    liveConnectConfig: structuredClone(spec.liveConnectConfig ?? {}),
    toolsDict: {},
  } as unknown as adk.LlmRequest;
}

/** The request as toolsmith's flow builds it: plain JSON Schema declarations, built-in tools in `config.tools`. */
function ourRequest(spec: Spec) {
  const request = createLlmRequest({
    contents: [],
    systemInstruction: spec.systemInstruction,
    functionDeclarations: spec.withTools ? [ourWeather.declaration()] : [],
    config: spec.withTools ? { tools: [{ googleSearch: {} }] } : {},
  });
  request.liveConnectConfig = structuredClone(spec.liveConnectConfig ?? {});
  return request;
}

/** The connection methods both frameworks have (ADK's `BaseLlmConnection` and toolsmith's). */
type Connection = Pick<BaseLlmConnection, "sendHistory" | "sendContent" | "sendRealtime" | "sendActivityStart" | "sendActivityEnd" | "close"> & { receive(): AsyncGenerator<unknown, void, void> };

interface Scenario {
  spec?: Spec;
  script?: LiveScriptStep[];
  /** What the program sends; `messages` is how many client messages that makes after the setup. */
  act?: (connection: Connection) => Promise<void>;
  messages?: number;
}

interface Observed {
  apiVersion: string;
  apiKey: string | null;
  setup: unknown;
  messages: LiveClientMessage[];
  received: unknown[];
}

const servers: GeminiLiveServer[] = [];
const savedBaseUrl = process.env.GOOGLE_GEMINI_BASE_URL;
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  if (savedBaseUrl === undefined) delete process.env.GOOGLE_GEMINI_BASE_URL;
  else process.env.GOOGLE_GEMINI_BASE_URL = savedBaseUrl;
});

/** Runs the scenario with one framework's `Gemini` on a server of its own: what it sent and what it received. */
async function observe(framework: "adk" | "toolsmith", scenario: Scenario): Promise<Observed> {
  const server = await startGeminiLiveServer();
  servers.push(server);
  process.env.GOOGLE_GEMINI_BASE_URL = server.baseUrl;
  server.enqueue(scenario.script ?? []);
  const spec = scenario.spec ?? { liveConnectConfig: { responseModalities: ["TEXT"] } };
  const model = spec.model ?? "gemini-live-2.5-flash";
  const connection = (
    framework === "adk" ? await new adk.Gemini({ model, apiKey: "test-key" }).connect(adkRequest(spec)) : await new Gemini({ model, apiKey: "test-key" }).connect(ourRequest(spec))
  ) as Connection;
  const received: unknown[] = [];
  const reading = (async () => {
    for await (const response of connection.receive()) received.push(response);
  })();
  const recorded = await server.connection(0);
  await scenario.act?.(connection);
  await recorded.waitForMessages(scenario.messages ?? 0);
  // A script that ends by closing the socket ends receive() itself; otherwise the program closes the connection.
  const closesItself = scenario.script?.some((step) => step.then !== undefined) ?? false;
  if (!closesItself) await connection.close();
  await reading;
  return { apiVersion: recorded.apiVersion, apiKey: recorded.apiKey, setup: recorded.setup, messages: recorded.messages, received: JSON.parse(JSON.stringify(received)) as unknown[] };
}

async function sideBySide(scenario: Scenario): Promise<{ adk: Observed; ours: Observed }> {
  return { adk: await observe("adk", scenario), ours: await observe("toolsmith", scenario) };
}

/** A schema without `format: "enum"` anywhere in it. */
function withoutEnumFormat(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEnumFormat);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key, entry]) => !(key === "format" && entry === "enum")).map(([key, entry]) => [key, withoutEnumFormat(entry)]));
}

const user = (text: string) => ({ role: "user", parts: [{ text }] });
const modelTurn = (...parts: object[]) => ({ serverContent: { modelTurn: { role: "model", parts } } });
const turnComplete = { serverContent: { turnComplete: true } };
const closeNormally = { code: 1000, reason: "done" };
const askWeather = async (connection: Connection) => connection.sendContent(user("Weather in Paris?"));

describe("Gemini.connect, side by side with @google/adk 2.0", () => {
  it("sends the same setup at the same path: model, system instruction, declarations beside built-in tools, live settings, resumption without transparent", async () => {
    const { adk: theirs, ours } = await sideBySide({
      spec: {
        systemInstruction: "Answer briefly.",
        withTools: true,
        liveConnectConfig: {
          responseModalities: ["AUDIO"],
          speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: "Kore" } } },
          outputAudioTranscription: {},
          inputAudioTranscription: {},
          realtimeInputConfig: { automaticActivityDetection: { disabled: true } },
          sessionResumption: { handle: "handle-1", transparent: true },
        },
      },
    });

    // toolsmith compiles declarations as it does for generateContent, which marks a string enum with the
    // `format: "enum"` Gemini's Schema documents for one; ADK's zod conversion leaves it out. Both mean the same.
    expect(ours.apiVersion).toBe("v1alpha");
    expect(JSON.stringify(ours.setup)).toContain('"format":"enum"');
    expect({ apiVersion: ours.apiVersion, apiKey: ours.apiKey, setup: withoutEnumFormat(ours.setup) }).toEqual({ apiVersion: theirs.apiVersion, apiKey: theirs.apiKey, setup: theirs.setup });
    expect(ours.setup).toMatchObject({ sessionResumption: { handle: "handle-1" }, tools: [{ functionDeclarations: [{ name: "get_weather" }] }, { googleSearch: {} }] });
  });

  it("sends the same setup for request.model on a native-audio model without tools or instruction", async () => {
    const { adk: theirs, ours } = await sideBySide({ spec: { model: "gemini-2.5-flash-native-audio-preview-09-2025", liveConnectConfig: { responseModalities: ["AUDIO"] } } });
    expect(ours.setup).toEqual(theirs.setup);
  });

  it.each([
    ["gemini-live-2.5-flash", "a model taking media chunks"],
    ["gemini-2.5-flash-native-audio-preview-09-2025", "a native-audio model"],
    ["gemini-3.1-flash-live-preview", "Gemini 3.x Flash Live"],
  ])("sends history, text, function responses, audio, video and activity marks alike to %s (%s)", async (model) => {
    const { adk: theirs, ours } = await sideBySide({
      spec: { model, liveConnectConfig: { responseModalities: ["TEXT"] } },
      act: async (connection) => {
        await connection.sendHistory([
          user("Hi"),
          { role: "model", parts: [{ functionCall: { id: "function-call-0", name: "get_weather", args: { city: "Oslo" } } }] },
          { role: "model", parts: [{ text: "Hello." }] },
        ]);
        await connection.sendContent(user("Weather in Paris?"));
        await connection.sendContent({ role: "user", parts: [{ text: "And " }, { text: "Rome?" }] });
        await connection.sendContent({ role: "user", parts: [{ functionResponse: { id: "function-call-1", name: "get_weather", response: { sky: "sunny" } } }] });
        await connection.sendRealtime({ mimeType: "audio/pcm;rate=16000", data: "AAEC" });
        await connection.sendRealtime({ mimeType: "image/jpeg", data: "/9j/" });
        await connection.sendActivityStart!();
        await connection.sendActivityEnd!();
      },
      messages: 8,
    });

    expect(ours.messages).toEqual(theirs.messages);
    expect(ours.messages).toHaveLength(8);
  });

  it("sends the same history for a conversation ending with the model's turn (not complete)", async () => {
    const { adk: theirs, ours } = await sideBySide({ act: (connection) => connection.sendHistory([user("Hi"), { role: "model", parts: [{ text: "Hello." }] }]), messages: 1 });
    expect(ours.messages).toEqual(theirs.messages);
    expect(ours.messages[0]).toMatchObject({ clientContent: { turnComplete: false } });
  });

  it.each<[string, LiveScriptStep[], string?]>([
    ["text in pieces, then whole, then turnComplete", [{ send: [modelTurn({ text: "Sunny " }), modelTurn({ text: "in Paris." }), turnComplete], then: closeNormally }]],
    ["thought text apart from the answer", [{ send: [modelTurn({ text: "Thinking ", thought: true }), modelTurn({ text: "hard.", thought: true }), modelTurn({ text: "Sunny." }), turnComplete], then: closeNormally }]],
    ["audio passed through, text gathered across it", [{ send: [modelTurn({ text: "Sunny" }), modelTurn({ inlineData: { mimeType: "audio/pcm;rate=24000", data: "AAAA" } }), modelTurn({ text: "." }), turnComplete], then: closeNormally }]],
    [
      "function calls gathered until turnComplete, after the text before them",
      [
        {
          send: [
            modelTurn({ text: "Let me look." }),
            { toolCall: { functionCalls: [{ id: "function-call-1", name: "get_weather", args: { city: "Paris" } }] } },
            { toolCall: { functionCalls: [{ id: "function-call-2", name: "get_weather", args: { city: "Rome", days: 2 } }] } },
            turnComplete,
          ],
          then: closeNormally,
        },
      ],
    ],
    ["function calls yielded at once", [{ send: [{ toolCall: { functionCalls: [{ id: "function-call-1", name: "get_weather", args: { city: "Paris" } }] } }], then: closeNormally }], "gemini-3.1-flash-live-preview"],
    [
      "transcriptions in pieces, then whole",
      [
        {
          send: [
            { serverContent: { inputTranscription: { text: "What's the " } } },
            { serverContent: { inputTranscription: { text: "weather?", finished: true } } },
            { serverContent: { outputTranscription: { text: "It is " } } },
            { serverContent: { outputTranscription: { text: "sunny." } } },
            { serverContent: { inputTranscription: { text: "Thanks" } } },
            { serverContent: { generationComplete: true } },
            turnComplete,
          ],
          then: closeNormally,
        },
      ],
    ],
    ["an interruption without gathered text", [{ send: [modelTurn({ inlineData: { mimeType: "audio/pcm;rate=24000", data: "AAAA" } }), { serverContent: { interrupted: true } }, { serverContent: { interrupted: true, turnComplete: true } }], then: closeNormally }]],
    [
      "grounding in its own message, on the whole text and turnComplete",
      [
        {
          send: [
            modelTurn({ text: "Sunny." }),
            { serverContent: { groundingMetadata: { webSearchQueries: ["weather paris"] } } },
            { serverContent: { modelTurn: { role: "model", parts: [{ text: " Warm." }] }, groundingMetadata: { webSearchQueries: ["paris temperature"] } } },
            { serverContent: { turnComplete: true, groundingMetadata: { webSearchQueries: ["final"] } } },
          ],
          then: closeNormally,
        },
      ],
    ],
    ["sessionResumptionUpdate and goAway", [{ after: "setup", send: [{ sessionResumptionUpdate: { newHandle: "handle-2", resumable: true } }] }, { send: [modelTurn({ text: "Hi." }), turnComplete, { goAway: { timeLeft: "10s" } }], then: closeNormally }]],
  ])("receives the same responses for %s", async (_name, script, model) => {
    const { adk: theirs, ours } = await sideBySide({ spec: { model, liveConnectConfig: { responseModalities: ["TEXT"] } }, script, act: askWeather, messages: 1 });
    expect(ours.received).toEqual(theirs.received);
    expect(ours.received.length).toBeGreaterThan(0);
  });

  it("receives the same usage, which toolsmith also gives in its own names (a difference on purpose)", async () => {
    const usage = { promptTokenCount: 12, responseTokenCount: 5, totalTokenCount: 17, promptTokensDetails: [{ modality: "TEXT", tokenCount: 12 }] };
    const { adk: theirs, ours } = await sideBySide({ script: [{ send: [modelTurn({ text: "Hi." }), { ...turnComplete, usageMetadata: usage }], then: closeNormally }], act: askWeather, messages: 1 });

    // ADK passes Live's usage object as it came, under generateContent's type, whose answer count is named
    // candidatesTokenCount; toolsmith's UsageMetadata keeps one meaning for every provider (run accounting and
    // telemetry read it), so the Live figures are converted and Gemini's own kept in customMetadata.providerUsage.
    const asAdk = (ours.received as LlmResponse[]).map(({ usageMetadata, customMetadata, ...rest }) => (usageMetadata ? { ...rest, usageMetadata: customMetadata?.providerUsage } : rest));
    expect(asAdk).toEqual(theirs.received);
    expect((ours.received as LlmResponse[]).find((response) => response.usageMetadata)?.usageMetadata).toEqual({ promptTokenCount: 12, candidatesTokenCount: 5, totalTokenCount: 17 });
  });

  it("differs on purpose after an interruption of gathered text: toolsmith still says interrupted", async () => {
    const script: LiveScriptStep[] = [{ send: [modelTurn({ text: "Once upon " }), { serverContent: { interrupted: true } }], then: closeNormally }];
    const { adk: theirs, ours } = await sideBySide({ script, act: askWeather, messages: 1 });

    // ADK yields the gathered text and drops the interruption, so a program playing the answer out never hears it
    // was cut off; toolsmith yields the same text, then the interruption.
    const version = { modelVersion: "gemini-live-2.5-flash" };
    expect(theirs.received).toEqual([
      { content: { role: "model", parts: [{ text: "Once upon " }] }, partial: true, ...version },
      { content: { role: "model", parts: [{ text: "Once upon " }] }, partial: false, ...version },
    ]);
    expect(ours.received).toEqual([...theirs.received, { interrupted: true, ...version }]);
  });

  it("differs on purpose when a grounded turn is followed by another: toolsmith does not carry the grounding over", async () => {
    const grounding = { webSearchQueries: ["weather paris"] };
    const script: LiveScriptStep[] = [
      { send: [modelTurn({ text: "Sunny." }), { serverContent: { groundingMetadata: grounding } }, turnComplete] },
      { send: [modelTurn({ text: "Hello." }), turnComplete], then: closeNormally },
    ];
    const { adk: theirs, ours } = await sideBySide({
      script,
      act: async (connection) => {
        await connection.sendContent(user("Weather in Paris?"));
        await connection.sendContent(user("Hi"));
      },
      messages: 2,
    });

    // ADK keeps the last grounding for good, so every later turn's whole text claims the first turn's sources;
    // toolsmith forgets it when its turn completes. The first turn is the same.
    const firstTurnLength = 4;
    expect(ours.received.slice(0, firstTurnLength)).toEqual(theirs.received.slice(0, firstTurnLength));
    expect(theirs.received.at(-2)).toMatchObject({ content: { parts: [{ text: "Hello." }] }, groundingMetadata: grounding });
    expect(ours.received.at(-2)).not.toHaveProperty("groundingMetadata");
    expect(ours.received.length).toBe(theirs.received.length);
  });

  /** ADK's connection and then toolsmith's, each against a server playing `steps`: what receive() gave, and how it ended. */
  async function receiveUntilTheEnd(steps: LiveScriptStep[]): Promise<Array<{ received: unknown[]; error: unknown }>> {
    const outcomes = [];
    for (const framework of ["adk", "toolsmith"] as const) {
      const server = await startGeminiLiveServer();
      servers.push(server);
      process.env.GOOGLE_GEMINI_BASE_URL = server.baseUrl;
      server.enqueue(structuredClone(steps));
      const connection = (
        framework === "adk" ? await new adk.Gemini({ model: "gemini-live-2.5-flash", apiKey: "test-key" }).connect(adkRequest({})) : await new Gemini({ model: "gemini-live-2.5-flash", apiKey: "test-key" }).connect(ourRequest({}))
      ) as Connection;
      const received: unknown[] = [];
      const reading = (async () => {
        for await (const response of connection.receive()) received.push(response);
      })();
      await askWeather(connection);
      outcomes.push({ received, error: await reading.then(() => undefined, (error: unknown) => error) });
    }
    return outcomes;
  }

  it("ends receive() with an error when the socket fails, after the same responses; toolsmith's error is a ToolsmithError", async () => {
    const [theirs, ours] = await receiveUntilTheEnd([{ send: [modelTurn({ text: "Half" })], then: "garble" }]);

    // ADK's receive() throws the socket's ErrorEvent as it came; toolsmith's throws LIVE_CONNECTION_FAILED, its
    // message saying what failed, the event kept as its cause.
    expect(ours!.received).toEqual(theirs!.received);
    expect((theirs!.error as { message?: string }).message).toBe("Invalid WebSocket frame: invalid opcode 15");
    expect(ours!.error).toMatchObject({ code: "LIVE_CONNECTION_FAILED", cause: { message: "Invalid WebSocket frame: invalid opcode 15" } });
    expect((ours!.error as Error).message).toContain("failed: Invalid WebSocket frame: invalid opcode 15.");
  });

  it("differs on purpose when the socket drops: ADK ends receive() as if the conversation were over, toolsmith with a LiveConnectionClosedError (1006)", async () => {
    const [theirs, ours] = await receiveUntilTheEnd([{ send: [modelTurn({ text: "Let me look." }), { toolCall: { functionCalls: [{ id: "function-call-1", name: "get_weather", args: { city: "Paris" } }] } }], then: "drop" }]);

    // The same text; then ADK yields the calls it had gathered (whose answers can no longer be sent) and ends as
    // a finished conversation would, so ADK's run neither reconnects nor says why it stopped. toolsmith drops the
    // calls and fails with the close code, which the live run takes up again with its resumption handle.
    expect(ours!.received).toEqual(theirs!.received.slice(0, 2));
    expect(theirs!.received.at(-1)).toMatchObject({ content: { parts: [{ functionCall: { name: "get_weather" } }] } });
    expect(theirs!.error).toBeUndefined();
    expect(ours!.error).toMatchObject({ code: "LIVE_CONNECTION_FAILED", closeCode: 1006 });
  });

  it("differs on purpose when nothing listens: ADK's connect waits for ever, toolsmith's rejects with LIVE_CONNECTION_FAILED", async () => {
    process.env.GOOGLE_GEMINI_BASE_URL = `http://127.0.0.1:${await freePort()}`;
    const pending = Symbol("pending");
    const theirs = await Promise.race([
      new adk.Gemini({ model: "gemini-live-2.5-flash", apiKey: "test-key" }).connect(adkRequest({})).then(
        () => "connected",
        () => "rejected",
      ),
      new Promise((resolve) => setTimeout(() => resolve(pending), 500)),
    ]);
    const ours = await new Gemini({ model: "gemini-live-2.5-flash", apiKey: "test-key" }).connect(ourRequest({})).catch((error: { code?: string }) => error.code);

    expect(theirs).toBe(pending);
    expect(ours).toBe("LIVE_CONNECTION_FAILED");
  });
});
