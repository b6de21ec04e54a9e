import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isToolsmithError } from "../../src/errors/toolsmith-error.js";
import { getLogger, setLogger, type Logger } from "../../src/logging/logger.js";
import { Gemini, GeminiModel } from "../../src/models/gemini/index.js";
import { LiveConnectionClosedError, type BaseLlmConnection, type LiveConnectConfig } from "../../src/models/live-connection.js";
import { createLlmRequest, type GenerateContentConfig, type LlmRequest } from "../../src/models/llm-request.js";
import type { LlmResponse } from "../../src/models/llm-response.js";
import type { FunctionDeclaration } from "../../src/models/function-declaration.js";
import { freePort } from "../support/free-port.js";
import { startGeminiLiveServer, type GeminiLiveServer, type LiveScriptStep } from "../support/gemini-live-server.js";

const weather: FunctionDeclaration = {
  name: "get_weather",
  description: "The weather in a city.",
  parameters: { type: "object", properties: { city: { type: "string", description: "The city." }, unit: { type: "string", enum: ["C", "F"] } }, required: ["city"], additionalProperties: false },
};

let server: GeminiLiveServer;
const opened: BaseLlmConnection[] = [];
beforeEach(async () => {
  server = await startGeminiLiveServer();
});
afterEach(async () => {
  for (const connection of opened.splice(0)) await connection.close();
  await server.close();
});

function request(fields: { model?: string; contents?: LlmRequest["contents"]; systemInstruction?: string; functionDeclarations?: FunctionDeclaration[]; config?: GenerateContentConfig; liveConnectConfig?: LiveConnectConfig } = {}): LlmRequest {
  const built = createLlmRequest({ model: fields.model, contents: fields.contents ?? [], systemInstruction: fields.systemInstruction, functionDeclarations: fields.functionDeclarations, config: fields.config });
  if (fields.liveConnectConfig) built.liveConnectConfig = fields.liveConnectConfig;
  return built;
}

/** Connects a GeminiModel named `model` to the local server, with the steps as the connection's script. */
async function connect(steps: LiveScriptStep[], options: { model?: string; request?: LlmRequest } = {}): Promise<BaseLlmConnection> {
  server.enqueue(steps);
  const model = new GeminiModel({ model: options.model ?? "gemini-live-2.5-flash", apiKey: "test-key", baseURL: server.baseUrl });
  const connection = await model.connect(options.request ?? request({ liveConnectConfig: { responseModalities: ["TEXT"] } }));
  opened.push(connection);
  return connection;
}

/** Reads responses up to and including the next `turnComplete` one. */
async function turn(responses: AsyncGenerator<LlmResponse, void, void>): Promise<LlmResponse[]> {
  const read: LlmResponse[] = [];
  for (;;) {
    const next = await responses.next();
    if (next.done) return read;
    read.push(next.value);
    if (next.value.turnComplete) return read;
  }
}

/** Everything until receive() ends. */
async function rest(responses: AsyncGenerator<LlmResponse, void, void>): Promise<LlmResponse[]> {
  const read: LlmResponse[] = [];
  for await (const response of { [Symbol.asyncIterator]: () => responses }) read.push(response);
  return read;
}

const user = (text: string) => ({ role: "user", parts: [{ text }] });
const modelTurn = (...parts: object[]) => ({ serverContent: { modelTurn: { role: "model", parts } } });
const turnComplete = { serverContent: { turnComplete: true } };
const version = { modelVersion: "gemini-live-2.5-flash" };

describe("GeminiModel.connect", () => {
  it("sets the session up with the model, the system instruction, the compiled declarations beside built-in tools, and the live settings", async () => {
    await connect([], {
      request: request({
        systemInstruction: "Answer briefly.",
        functionDeclarations: [weather],
        config: { tools: [{ googleSearch: {} }], temperature: 0.2 },
        liveConnectConfig: { responseModalities: ["AUDIO"], outputAudioTranscription: {}, inputAudioTranscription: {}, speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: "Kore" } } } },
      }),
    });
    const connection = await server.connection(0);

    expect(connection.apiVersion).toBe("v1alpha");
    expect(connection.apiKey).toBe("test-key");
    expect(connection.setup).toEqual({
      model: "models/gemini-live-2.5-flash",
      generationConfig: { responseModalities: ["AUDIO"], speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: "Kore" } } } },
      systemInstruction: { role: "system", parts: [{ text: "Answer briefly." }] },
      tools: [
        {
          functionDeclarations: [
            { name: "get_weather", description: "The weather in a city.", parameters: { type: "OBJECT", properties: { city: { type: "STRING", description: "The city." }, unit: { type: "STRING", format: "enum", enum: ["C", "F"] } }, required: ["city"] } },
          ],
        },
        { googleSearch: {} },
      ],
      outputAudioTranscription: {},
      inputAudioTranscription: {},
    });
  });

  it("connects to request.model when the request names one", async () => {
    await connect([], { request: request({ model: "gemini-2.5-flash-native-audio-preview-09-2025" }) });
    expect((await server.connection(0)).setup?.model).toBe("models/gemini-2.5-flash-native-audio-preview-09-2025");
  });

  it("leaves sessionResumption.transparent out on the Gemini API, without changing the request", async () => {
    const liveConnectConfig = { sessionResumption: { handle: "handle-1", transparent: true } };
    const resumed = request({ liveConnectConfig });
    await connect([], { request: resumed });

    expect((await server.connection(0)).setup?.sessionResumption).toEqual({ handle: "handle-1" });
    expect(resumed.liveConnectConfig).toEqual({ sessionResumption: { handle: "handle-1", transparent: true } });
    expect(resumed.config.tools).toBeUndefined();
  });

  it("rejects with LIVE_CONNECTION_FAILED when nothing listens at the base URL", async () => {
    const port = await freePort();
    const model = new GeminiModel({ model: "gemini-live-2.5-flash", apiKey: "test-key", baseURL: `http://127.0.0.1:${port}` });
    const error = await model.connect(request()).catch((caught: unknown) => caught);

    expect(isToolsmithError(error) && error.code).toBe("LIVE_CONNECTION_FAILED");
    expect((error as Error).message).toMatch(/^Could not open a live connection to Gemini model "gemini-live-2\.5-flash": connect ECONNREFUSED 127\.0\.0\.1:\d+\. Check the base URL and the API key/);
  });

  it("rejects with Gemini's reason when it closes the connection instead of answering the setup", async () => {
    server.enqueue({ refuseSetup: { code: 1008, reason: "API key not valid. Please pass a valid API key." } });
    const model = new GeminiModel({ model: "gemini-live-2.5-flash", apiKey: "wrong", baseURL: server.baseUrl });
    const error = await model.connect(request()).catch((caught: unknown) => caught);

    expect(isToolsmithError(error) && error.code).toBe("LIVE_CONNECTION_FAILED");
    expect((error as Error).message).toContain("Gemini closed the connection before the session was set up (code 1008: API key not valid. Please pass a valid API key.)");
  });

  it("gives up on a server that does not answer the setup within liveSetupTimeoutMs, and closes a session that opens late", async () => {
    server.enqueue({ ignoreSetup: true });
    const model = new GeminiModel({ model: "gemini-live-2.5-flash", apiKey: "test-key", baseURL: server.baseUrl, liveSetupTimeoutMs: 200 });
    const started = Date.now();
    const error = await model.connect(request()).catch((caught: unknown) => caught);

    expect(isToolsmithError(error) && error.code).toBe("LIVE_CONNECTION_FAILED");
    expect((error as Error).message).toContain("Gemini did not accept the live session's setup within 200 ms");
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    // The SDK gives no handle on its socket before the setup is answered; should the answer come late, the session
    // is closed at once rather than left open with no one reading it.
    const connection = await server.connection(0);
    connection.send({ setupComplete: {} });
    expect((await connection.closed).code).toBe(1005);
  });
});

describe("GeminiLiveConnection, sending", () => {
  it("sends the history's text contents as one clientContent, complete when the last is the user's, without made-up call ids", async () => {
    const connection = await connect([]);
    await connection.sendHistory([
      user("What is the weather in Paris?"),
      { role: "model", parts: [{ functionCall: { id: "adk-1", name: "get_weather", args: { city: "Paris" } } }] },
      { role: "user", parts: [{ functionResponse: { id: "adk-1", name: "get_weather", response: { sky: "sunny" } } }] },
      { role: "model", parts: [{ text: "Sunny." }, { functionCall: { id: "adk-2", name: "get_weather", args: { city: "Rome" } } }] },
      user("And tomorrow?"),
    ]);
    await connection.sendHistory([user("Hi"), { role: "model", parts: [{ text: "Hello." }] }]);
    const recorded = await server.connection(0);
    await recorded.waitForMessages(2);

    expect(recorded.messages).toEqual([
      {
        clientContent: {
          turns: [user("What is the weather in Paris?"), { role: "model", parts: [{ text: "Sunny." }, { functionCall: { name: "get_weather", args: { city: "Rome" } } }] }, user("And tomorrow?")],
          turnComplete: true,
        },
      },
      { clientContent: { turns: [user("Hi"), { role: "model", parts: [{ text: "Hello." }] }], turnComplete: false } },
    ]);
  });

  it("sends nothing for a history without text", async () => {
    const connection = await connect([]);
    await connection.sendHistory([{ role: "user", parts: [{ inlineData: { mimeType: "image/png", data: "AAAA" } }] }]);
    await connection.sendContent(user("Hello"));
    const recorded = await server.connection(0);
    await recorded.waitForMessages(1);
    expect(recorded.messages).toEqual([{ clientContent: { turns: [user("Hello")], turnComplete: true } }]);
  });

  it("sends function responses as a toolResponse with the ids Gemini gave, and other content as a complete turn", async () => {
    const connection = await connect([]);
    await connection.sendContent({
      role: "user",
      parts: [
        { functionResponse: { id: "function-call-1", name: "get_weather", response: { sky: "sunny" } } },
        { functionResponse: { id: "function-call-2", name: "get_weather", response: { sky: "rain" } } },
      ],
    });
    await connection.sendContent({ role: "user", parts: [{ text: "Thanks. " }, { text: "And Rome?" }] });
    const recorded = await server.connection(0);
    await recorded.waitForMessages(2);

    expect(recorded.messages).toEqual([
      {
        toolResponse: {
          functionResponses: [
            { id: "function-call-1", name: "get_weather", response: { sky: "sunny" } },
            { id: "function-call-2", name: "get_weather", response: { sky: "rain" } },
          ],
        },
      },
      { clientContent: { turns: [{ role: "user", parts: [{ text: "Thanks. " }, { text: "And Rome?" }] }], turnComplete: true } },
    ]);
  });

  it("refuses a content without parts, saying what to send", async () => {
    const connection = await connect([]);
    const error = await connection.sendContent({ role: "user", parts: [] }).catch((caught: unknown) => caught);
    expect(isToolsmithError(error) && error.code).toBe("INVALID_ARGUMENTS");
    expect((error as Error).message).toContain("needs a content with at least one part");
  });

  it("sends audio and video as realtime media chunks, and activity start and end", async () => {
    const connection = await connect([]);
    await connection.sendRealtime({ mimeType: "audio/pcm;rate=16000", data: "AAEC" });
    await connection.sendRealtime({ mimeType: "image/jpeg", data: "/9j/" });
    await connection.sendActivityStart!();
    await connection.sendActivityEnd!();
    const recorded = await server.connection(0);
    await recorded.waitForMessages(4);

    expect(recorded.messages).toEqual([
      { realtimeInput: { mediaChunks: [{ mimeType: "audio/pcm;rate=16000", data: "AAEC" }] } },
      { realtimeInput: { mediaChunks: [{ mimeType: "image/jpeg", data: "/9j/" }] } },
      { realtimeInput: { activityStart: {} } },
      { realtimeInput: { activityEnd: {} } },
    ]);
  });

  it("sends audio as audio and images as video to native-audio models, and drops other types with a warning", async () => {
    const warnings: unknown[][] = [];
    const previous = getLogger();
    setLogger({ log: () => {}, debug: () => {}, info: () => {}, warn: (...args: unknown[]) => warnings.push(args), error: () => {}, setLogLevel: () => {} } satisfies Logger);
    try {
      const connection = await connect([], { model: "gemini-2.5-flash-native-audio-preview-09-2025" });
      await connection.sendRealtime({ mimeType: "audio/pcm;rate=16000", data: "AAEC" });
      await connection.sendRealtime({ mimeType: "image/png", data: "iVBO" });
      await connection.sendRealtime({ mimeType: "text/plain", data: "aGk=" });
      const recorded = await server.connection(0);
      await recorded.waitForMessages(2);
      await connection.sendActivityEnd!();
      await recorded.waitForMessages(3);

      expect(recorded.messages).toEqual([
        { realtimeInput: { audio: { mimeType: "audio/pcm;rate=16000", data: "AAEC" } } },
        { realtimeInput: { video: { mimeType: "image/png", data: "iVBO" } } },
        { realtimeInput: { activityEnd: {} } },
      ]);
      expect(String(warnings[0]?.[0])).toContain('takes audio/* and image/* as realtime input, not "text/plain"');
    } finally {
      setLogger(previous);
    }
  });

  it("on Gemini 3.x Flash Live, sends a single text as realtime text and always completes the history's turn", async () => {
    const connection = await connect([], { model: "gemini-3.1-flash-live-preview" });
    await connection.sendHistory([user("Hi"), { role: "model", parts: [{ text: "Hello." }] }]);
    await connection.sendContent(user("What time is it?"));
    await connection.sendContent({ role: "user", parts: [{ text: "Two" }, { text: " parts" }] });
    const recorded = await server.connection(0);
    await recorded.waitForMessages(3);

    expect(recorded.messages).toEqual([
      { clientContent: { turns: [user("Hi"), { role: "model", parts: [{ text: "Hello." }] }], turnComplete: true } },
      { realtimeInput: { text: "What time is it?" } },
      { clientContent: { turns: [{ role: "user", parts: [{ text: "Two" }, { text: " parts" }] }], turnComplete: true } },
    ]);
  });
});

describe("GeminiLiveConnection, receiving", () => {
  it("yields text in partial pieces, then the whole text, then turnComplete", async () => {
    const connection = await connect([{ send: [modelTurn({ text: "Sunny " }), modelTurn({ text: "in Paris." }), turnComplete] }]);
    const responses = connection.receive();
    await connection.sendContent(user("Weather in Paris?"));

    expect(await turn(responses)).toEqual([
      { content: { role: "model", parts: [{ text: "Sunny " }] }, partial: true, ...version },
      { content: { role: "model", parts: [{ text: "in Paris." }] }, partial: true, ...version },
      { content: { role: "model", parts: [{ text: "Sunny in Paris." }] }, partial: false, ...version },
      { turnComplete: true, ...version },
    ]);
  });

  it("keeps thought text apart from the answer", async () => {
    const connection = await connect([{ send: [modelTurn({ text: "Thinking about ", thought: true }), modelTurn({ text: "Paris.", thought: true }), modelTurn({ text: "Sunny." }), turnComplete] }]);
    const responses = connection.receive();
    await connection.sendContent(user("Weather in Paris?"));

    const whole = (await turn(responses)).filter((response) => response.partial === false);
    expect(whole).toEqual([
      { content: { role: "model", parts: [{ text: "Thinking about Paris.", thought: true }] }, partial: false, ...version },
      { content: { role: "model", parts: [{ text: "Sunny." }] }, partial: false, ...version },
    ]);
  });

  it("passes audio through as it comes", async () => {
    const audio = { inlineData: { mimeType: "audio/pcm;rate=24000", data: "AAAA" } };
    const connection = await connect([{ send: [modelTurn(audio), modelTurn(audio), turnComplete] }]);
    const responses = connection.receive();
    await connection.sendContent(user("Say hi"));

    expect(await turn(responses)).toEqual([
      { content: { role: "model", parts: [audio] }, ...version },
      { content: { role: "model", parts: [audio] }, ...version },
      { turnComplete: true, ...version },
    ]);
  });

  it("gathers a toolCall's function calls into one model response at turnComplete, keeping Gemini's ids", async () => {
    const connection = await connect(
      [
        {
          send: [
            { toolCall: { functionCalls: [{ id: "function-call-1", name: "get_weather", args: { city: "Paris" } }] } },
            { toolCall: { functionCalls: [{ id: "function-call-2", name: "get_weather", args: { city: "Rome", unit: null } }] } },
            turnComplete,
          ],
        },
      ],
      { request: request({ functionDeclarations: [weather] }) },
    );
    const responses = connection.receive();
    await connection.sendContent(user("Weather in Paris and Rome?"));

    expect(await turn(responses)).toEqual([
      {
        content: {
          role: "model",
          parts: [{ functionCall: { id: "function-call-1", name: "get_weather", args: { city: "Paris" } } }, { functionCall: { id: "function-call-2", name: "get_weather", args: { city: "Rome" } } }],
        },
        ...version,
      },
      { turnComplete: true, ...version },
    ]);
  });

  it("on Gemini 3.x Flash Live, yields each toolCall at once", async () => {
    const connection = await connect([{ send: [{ toolCall: { functionCalls: [{ id: "function-call-1", name: "get_weather", args: { city: "Paris" } }] } }] }], { model: "gemini-3.1-flash-live-preview" });
    const responses = connection.receive();
    await connection.sendContent(user("Weather in Paris?"));

    expect((await responses.next()).value).toEqual({
      content: { role: "model", parts: [{ functionCall: { id: "function-call-1", name: "get_weather", args: { city: "Paris" } } }] },
      modelVersion: "gemini-3.1-flash-live-preview",
    });
  });

  it("yields transcriptions in pieces, then whole when Gemini finishes them or the turn ends", async () => {
    const connection = await connect([
      {
        after: (message) => Boolean(message.realtimeInput?.activityEnd),
        send: [
          { serverContent: { inputTranscription: { text: "What's the " } } },
          { serverContent: { inputTranscription: { text: "weather?", finished: true } } },
          { serverContent: { outputTranscription: { text: "It is " } } },
          { serverContent: { outputTranscription: { text: "sunny." } } },
          turnComplete,
        ],
      },
    ]);
    const responses = connection.receive();
    await connection.sendRealtime({ mimeType: "audio/pcm;rate=16000", data: "AAEC" });
    await connection.sendActivityEnd!();

    expect(await turn(responses)).toEqual([
      { inputTranscription: { text: "What's the ", finished: false }, partial: true, ...version },
      { inputTranscription: { text: "weather?", finished: false }, partial: true, ...version },
      { inputTranscription: { text: "What's the weather?", finished: true }, partial: false, ...version },
      { outputTranscription: { text: "It is ", finished: false }, partial: true, ...version },
      { outputTranscription: { text: "sunny.", finished: false }, partial: true, ...version },
      { outputTranscription: { text: "It is sunny.", finished: true }, partial: false, ...version },
      { turnComplete: true, ...version },
    ]);
  });

  it("yields interrupted, after the text gathered before it", async () => {
    const connection = await connect([{ send: [modelTurn({ text: "Once upon " }), { serverContent: { interrupted: true } }, { serverContent: { interrupted: true, turnComplete: true } }] }]);
    const responses = connection.receive();
    await connection.sendContent(user("Tell me a story"));

    expect(await turn(responses)).toEqual([
      { content: { role: "model", parts: [{ text: "Once upon " }] }, partial: true, ...version },
      { content: { role: "model", parts: [{ text: "Once upon " }] }, partial: false, ...version },
      { interrupted: true, ...version },
      { turnComplete: true, interrupted: true, ...version },
    ]);
    // A turn that ends interrupted also says so on its own, as ADK does.
    expect((await responses.next()).value).toEqual({ interrupted: true, ...version });
  });

  it("puts grounding on the turn's whole text, and not on the next turn", async () => {
    const grounding = { webSearchQueries: ["weather paris"], groundingChunks: [{ web: { uri: "https://example.com/paris", title: "example.com" } }] };
    const connection = await connect([{ send: [modelTurn({ text: "Sunny." }), { serverContent: { groundingMetadata: grounding } }, turnComplete] }, { send: [modelTurn({ text: "Hello." }), turnComplete] }]);
    const responses = connection.receive();
    await connection.sendContent(user("Weather in Paris?"));
    const first = await turn(responses);
    await connection.sendContent(user("Hi"));
    const second = await turn(responses);

    expect(first.slice(1)).toEqual([
      { groundingMetadata: grounding, ...version },
      { content: { role: "model", parts: [{ text: "Sunny." }] }, partial: false, groundingMetadata: grounding, ...version },
      { turnComplete: true, ...version },
    ]);
    expect(second.slice(1)).toEqual([{ content: { role: "model", parts: [{ text: "Hello." }] }, partial: false, ...version }, { turnComplete: true, ...version }]);
  });

  it("surfaces usage in toolsmith's names, sessionResumptionUpdate and goAway", async () => {
    const usage = { promptTokenCount: 12, responseTokenCount: 5, totalTokenCount: 17, promptTokensDetails: [{ modality: "TEXT", tokenCount: 12 }] };
    const connection = await connect([
      { after: "setup", send: [{ sessionResumptionUpdate: { newHandle: "handle-2", resumable: true } }] },
      { send: [modelTurn({ text: "Hi." }), { ...turnComplete, usageMetadata: usage }, { goAway: { timeLeft: "10s" } }] },
    ]);
    const responses = connection.receive();
    await connection.sendContent(user("Hello"));

    expect((await responses.next()).value).toEqual({ liveSessionResumptionUpdate: { newHandle: "handle-2", resumable: true }, ...version });
    const answer = await turn(responses);
    expect(answer.slice(1)).toEqual([
      { usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 5, totalTokenCount: 17 }, customMetadata: { providerUsage: usage }, ...version },
      { content: { role: "model", parts: [{ text: "Hi." }] }, partial: false, ...version },
      { turnComplete: true, ...version },
    ]);
    expect((await responses.next()).value).toEqual({ goAway: { timeLeft: "10s" }, ...version });
  });
});

describe("GeminiLiveConnection, ending", () => {
  it("ends receive() when the connection is closed, and the server sees the close", async () => {
    const connection = await connect([]);
    const responses = connection.receive();
    const pending = rest(responses);
    await connection.close();

    expect(await pending).toEqual([]);
    expect((await (await server.connection(0)).closed).code).toBe(1005);
  });

  it("ends receive() with a LiveConnectionClosedError (1006) when the server drops the socket, after what had arrived; calls still gathered are dropped", async () => {
    const connection = await connect([{ send: [modelTurn({ text: "Half an answer" }), { toolCall: { functionCalls: [{ id: "function-call-1", name: "get_weather", args: { city: "Paris" } }] } }], then: "drop" }]);
    const responses = connection.receive();
    await connection.sendContent(user("Weather?"));

    const read: LlmResponse[] = [];
    const error = await (async () => {
      for await (const response of { [Symbol.asyncIterator]: () => responses }) read.push(response);
    })().catch((caught: unknown) => caught);
    expect(read).toEqual([
      { content: { role: "model", parts: [{ text: "Half an answer" }] }, partial: true, ...version },
      { content: { role: "model", parts: [{ text: "Half an answer" }] }, partial: false, ...version },
    ]);
    expect(error).toBeInstanceOf(LiveConnectionClosedError);
    expect(error).toMatchObject({ code: "LIVE_CONNECTION_FAILED", closeCode: 1006 });
    expect((error as Error).message).toBe('The live connection to Gemini model "gemini-live-2.5-flash" closed (code 1006: the connection was lost). The run takes the session up again when it has a resumption handle; otherwise run again.');
  });

  it("ends receive() with LIVE_CONNECTION_FAILED when the socket fails, after what had arrived", async () => {
    const connection = await connect([{ send: [modelTurn({ text: "Half" })], then: "garble" }]);
    const responses = connection.receive();
    await connection.sendContent(user("Weather?"));

    expect((await responses.next()).value).toEqual({ content: { role: "model", parts: [{ text: "Half" }] }, partial: true, ...version });
    const error = await responses.next().catch((caught: unknown) => caught);
    expect(isToolsmithError(error) && error.code).toBe("LIVE_CONNECTION_FAILED");
    expect((error as Error).message).toMatch(/^The live connection to Gemini model "gemini-live-2\.5-flash" failed: Invalid WebSocket frame: invalid opcode 15\. The run may reconnect/);
  });

  it("ends receive() with a LiveConnectionClosedError carrying Gemini's code and reason when it closes with an error", async () => {
    const connection = await connect([{ then: { code: 1011, reason: "Internal error occurred." } }]);
    const responses = connection.receive();
    await connection.sendContent(user("Hello"));

    const error = await responses.next().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "LIVE_CONNECTION_FAILED", closeCode: 1011 });
    expect((error as Error).message).toContain('closed (code 1011: Internal error occurred.)');
  });

  it("ends receive() quietly when Gemini closes normally", async () => {
    const connection = await connect([{ send: [modelTurn({ text: "Bye." }), turnComplete], then: { code: 1000, reason: "" } }]);
    const responses = connection.receive();
    await connection.sendContent(user("Bye"));
    expect((await rest(responses)).map((response) => response.turnComplete ?? response.content?.parts?.[0]?.text)).toEqual(["Bye.", "Bye.", true]);
  });
});

describe("Gemini (ADK's class).connect", () => {
  const saved = process.env.GOOGLE_GEMINI_BASE_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.GOOGLE_GEMINI_BASE_URL;
    else process.env.GOOGLE_GEMINI_BASE_URL = saved;
  });

  it("opens a live connection at GOOGLE_GEMINI_BASE_URL and answers through it", async () => {
    process.env.GOOGLE_GEMINI_BASE_URL = server.baseUrl;
    server.enqueue([{ send: [modelTurn({ text: "Hello." }), turnComplete] }]);
    const model = new Gemini({ model: "gemini-live-2.5-flash", apiKey: "test-key" });
    const connection = await model.connect(request({ systemInstruction: "Be kind.", liveConnectConfig: { responseModalities: ["TEXT"] } }));
    opened.push(connection);
    const responses = connection.receive();
    await connection.sendContent(user("Hi"));

    expect((await turn(responses)).at(-2)).toEqual({ content: { role: "model", parts: [{ text: "Hello." }] }, partial: false, ...version });
    expect((await server.connection(0)).setup).toMatchObject({ model: "models/gemini-live-2.5-flash", systemInstruction: { parts: [{ text: "Be kind." }] } });
  });
});
