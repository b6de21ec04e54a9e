/**
 * `GET /run_live` on a real server with a real `ws` client, the apps' agents on `ScriptedLiveModel`: a conversation
 * in text and in audio, tools, the query's settings, refusals and their close codes, a malformed message, a client
 * that goes away, and a server that shuts down.
 */
import { onTestFinished, describe, expect, it } from "vitest";
import WebSocket, { type ClientOptions } from "ws";
import { z } from "zod";
import { FunctionTool, LlmAgent } from "../../src/index.js";
import type { Agent } from "../../src/agents/agent.js";
import { LOOPBACK_HOSTS } from "../../src/server/create-api-app.js";
import { RunTracker } from "../../src/server/run-tracker.js";
import { startServer } from "../../src/server/start-server.js";
import { ScriptedLiveModel } from "../../src/testing/index.js";
import { inlineApi } from "./inline-api.js";

const user = (text: string) => ({ role: "user", parts: [{ text }] });
const said = (text: string, partial?: boolean) => ({ content: { role: "model", parts: [{ text }] }, ...(partial ? { partial: true } : {}) });

/** A served API over `agents` (each app's session `s1` of user `u1` made), stopped after the test. */
async function liveServer(agents: Record<string, Agent>, options: Parameters<typeof inlineApi>[1] & { maxMessageBytes?: number } = {}) {
  const runs = new RunTracker();
  const { maxMessageBytes, ...apiOptions } = options;
  const api = await inlineApi(agents, { runs, ...apiOptions });
  const headers: Record<string, string> = options.tokens ? { authorization: `Bearer ${Object.keys(options.tokens)[0]}` } : {};
  for (const appName of Object.keys(agents)) await api.call(`/apps/${appName}/users/u1/sessions/s1`, { json: {}, headers });
  const server = await startServer({ app: api.app, maxMessageBytes });
  onTestFinished(() => server.close());
  const socketUrl = (query: string) => `${server.url.replace(/^http/, "ws")}/run_live?${query}`;
  const stored = async (appName: string) => (await api.services.sessionService.getSession({ appName, userId: "u1", sessionId: "s1" }))!.events;
  return { ...api, runs, server, socketUrl, stored };
}

/** A `ws` client that keeps every frame (parsed) and says how the socket closed. */
function connect(url: string, options?: ClientOptions, protocols?: string[]) {
  const socket = protocols ? new WebSocket(url, protocols, options) : new WebSocket(url, options);
  const frames: any[] = [];
  const waiting: Array<{ match: (frame: any) => boolean; resolve: (frame: any) => void }> = [];
  socket.on("message", (data) => {
    const frame = JSON.parse(data.toString());
    frames.push(frame);
    for (const waiter of [...waiting]) if (waiter.match(frame)) waiting.splice(waiting.indexOf(waiter), 1), waiter.resolve(frame);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  const opened = new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  opened.catch(() => undefined); // awaited by the tests that expect a refusal
  return {
    socket,
    frames,
    closed,
    opened,
    /** Sends once the socket is open (in the order sent). */
    send: (message: unknown) => void opened.then(() => socket.send(typeof message === "string" || Buffer.isBuffer(message) ? message : JSON.stringify(message))),
    /** The first frame (already received or still to come) that `match` accepts. */
    frame: (match: (frame: any) => boolean) => {
      const seen = frames.find(match);
      return seen ? Promise.resolve(seen) : new Promise<any>((resolve) => waiting.push({ match, resolve }));
    },
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting until ${what}.`);
}

const weather = new FunctionTool({ name: "get_weather", description: "The weather.", parameters: z.object({ city: z.string() }), execute: ({ city }, context) => {
  context.state.set("last_city", city);
  return { city, sky: "sunny" };
} });

describe("GET /run_live", () => {
  it("runs a text conversation: the message in, each event out as JSON, every complete event stored, 1000 after {close: true}", async () => {
    const model = new ScriptedLiveModel([[said("Hel", true), said("Hello"), { turnComplete: true }]]);
    const { socketUrl, stored } = await liveServer({ greeter: new LlmAgent({ name: "greeter", model }) });
    const client = connect(socketUrl("app_name=greeter&user_id=u1&session_id=s1&modalities=TEXT"));
    // As a pydantic model_dump_json() of ADK Python's LiveRequest writes it: snake_case, every field, nulls.
    client.send({ content: { role: "user", parts: [{ text: "Hi", inline_data: null, function_call: null }] }, blob: null, activity_start: null, activity_end: null, close: false });
    await client.frame((frame) => frame.turnComplete === true);
    client.send({ close: true });
    expect(await client.closed).toEqual({ code: 1000, reason: "The live run ended." });

    expect(client.frames.map((frame) => [frame.author, frame.partial ?? false, frame.content?.parts?.[0]?.text ?? null, frame.turnComplete ?? false])).toEqual([
      ["user", false, "Hi", false],
      ["greeter", true, "Hel", false],
      ["greeter", false, "Hello", false],
      ["greeter", false, null, true],
    ]);
    expect((await stored("greeter")).map((event) => event.id)).toEqual(client.frames.filter((frame) => !frame.partial).map((frame) => frame.id));
    expect(model.connections[0]!.request.liveConnectConfig).toEqual({ responseModalities: ["TEXT"] });
    expect(model.connections[0]!.sent).toEqual([{ content: user("Hi") }]);
    expect(model.connections[0]!.closed).toBe(true);
    model.assertComplete();
  });

  it("sends the events as /run_sse serialises them (the Event as JSON)", async () => {
    const model = new ScriptedLiveModel([[said("Hello"), { turnComplete: true }]]);
    const { socketUrl, stored } = await liveServer({ greeter: new LlmAgent({ name: "greeter", model }) });
    const client = connect(socketUrl("app_name=greeter&user_id=u1&session_id=s1&modalities=TEXT"));
    client.send({ content: user("Hi") });
    await client.frame((frame) => frame.turnComplete === true);
    client.send({ close: true });
    await client.closed;
    expect(client.frames).toEqual(JSON.parse(JSON.stringify(await stored("greeter"))));
  });

  it("forwards audio, video and activity marks to the model (ADK's snake_case and camelCase alike), AUDIO by default, and stores no raw audio", async () => {
    const audio = { inlineData: { mimeType: "audio/pcm;rate=24000", data: "AAAA" } };
    const model = new ScriptedLiveModel([[{ inputTranscription: { text: "hello", finished: true } }, { content: { role: "model", parts: [audio] } }, { turnComplete: true }]]);
    const { socketUrl, stored } = await liveServer({ voice: new LlmAgent({ name: "voice", model }) });
    const client = connect(socketUrl("app_name=voice&user_id=u1&session_id=s1"));
    client.send({ activity_start: {} });
    client.send({ blob: { mime_type: "audio/pcm;rate=16000", data: "AQID" } });
    client.send({ blob: { mimeType: "image/jpeg", data: "/9j/4A==" } });
    client.send({ activityEnd: {} });
    await client.frame((frame) => frame.turnComplete === true);
    client.send({ close: true });
    expect((await client.closed).code).toBe(1000);

    expect(model.connections[0]!.request.liveConnectConfig).toEqual({ responseModalities: ["AUDIO"] });
    expect(model.connections[0]!.sent).toEqual([{ activityStart: true }, { blob: { mimeType: "audio/pcm;rate=16000", data: "AQID" } }, { blob: { mimeType: "image/jpeg", data: "/9j/4A==" } }, { activityEnd: true }]);
    expect(client.frames.some((frame) => frame.content?.parts?.[0]?.inlineData?.data === "AAAA")).toBe(true);
    expect((await stored("voice")).map((event) => [event.author, event.inputTranscription?.text ?? (event.turnComplete ? "turnComplete" : "?")])).toEqual([["user", "hello"], ["voice", "turnComplete"]]);
  });

  it("runs the model's tool calls and sends their results back, what the tool wrote stored", async () => {
    const model = new ScriptedLiveModel([[{ content: { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }] } }], [said("Sunny in Paris."), { turnComplete: true }]]);
    const { socketUrl, services } = await liveServer({ weather: new LlmAgent({ name: "weather", model, tools: [weather] }) });
    const client = connect(socketUrl("app_name=weather&user_id=u1&session_id=s1&modalities=TEXT"));
    client.send({ content: user("Weather in Paris?") });
    await client.frame((frame) => frame.turnComplete === true);
    client.send({ close: true });
    await client.closed;

    const parts = client.frames.map((frame) => Object.keys(frame.content?.parts?.[0] ?? { turnComplete: true })[0]);
    expect(parts).toEqual(["text", "functionCall", "functionResponse", "text", "turnComplete"]);
    expect(client.frames[2].content.parts[0].functionResponse).toMatchObject({ name: "get_weather", response: { city: "Paris", sky: "sunny" } });
    expect(model.connections[0]!.sent[1]).toEqual({ content: { role: "user", parts: [{ functionResponse: client.frames[2].content.parts[0].functionResponse }] } });
    const session = await services.sessionService.getSession({ appName: "weather", userId: "u1", sessionId: "s1" });
    expect(session!.state.last_city).toBe("Paris");
  });

  it("maps modalities and ADK's dev UI flags to the live settings", async () => {
    const model = new ScriptedLiveModel([]);
    const { socketUrl } = await liveServer({ voice: new LlmAgent({ name: "voice", model }) });
    const client = connect(socketUrl("app_name=voice&user_id=u1&session_id=s1&modalities=text&proactive_audio=true&enable_affective_dialog=false&enable_session_resumption=false&save_live_blob=0"));
    await until(() => model.connections.length === 1, "the model is connected");
    client.send({ close: true });
    expect((await client.closed).code).toBe(1000);
    expect(model.connections[0]!.request.liveConnectConfig).toEqual({ responseModalities: ["TEXT"], proactivity: { proactiveAudio: true }, enableAffectiveDialog: false });
  });

  it("asks the model's server for resumption handles with enable_session_resumption=true", async () => {
    const model = new ScriptedLiveModel([]);
    const { socketUrl } = await liveServer({ voice: new LlmAgent({ name: "voice", model }) });
    const client = connect(socketUrl("app_name=voice&user_id=u1&session_id=s1&enable_session_resumption=true"));
    await until(() => model.connections.length === 1, "the model is connected");
    client.send({ close: true });
    expect((await client.closed).code).toBe(1000);
    expect(model.connections[0]!.request.liveConnectConfig).toEqual({ responseModalities: ["AUDIO"], sessionResumption: { transparent: true } });
  });

  it("keeps the conversation's audio as artifacts with save_live_blob=true, as ADK Python's server does", async () => {
    const speech = Buffer.alloc(3200, 1).toString("base64");
    const answer = Buffer.alloc(4800, 2).toString("base64");
    const model = new ScriptedLiveModel([() => [{ content: { role: "model", parts: [{ inlineData: { mimeType: "audio/pcm;rate=24000", data: answer } }] } }, { turnComplete: true }]], { speechTurnBytes: 3200 });
    const { socketUrl, services } = await liveServer({ voice: new LlmAgent({ name: "voice", model }) });
    const client = connect(socketUrl("app_name=voice&user_id=u1&session_id=s1&save_live_blob=true"));
    client.send({ blob: { mime_type: "audio/pcm;rate=16000", data: speech } });
    await client.frame((frame) => frame.turnComplete === true);
    client.send({ close: true });
    expect((await client.closed).code).toBe(1000);
    const saved = client.frames.filter((frame) => frame.content?.parts?.[0]?.fileData).map((frame) => frame.content.parts[0].fileData.fileUri as string);
    expect(saved.map((uri) => uri.replace(/_\d+\./, "_<ms>."))).toEqual(["artifact://voice/u1/s1/_adk_live/adk_live_audio_storage_input_audio_<ms>.pcm#0", "artifact://voice/u1/s1/_adk_live/adk_live_audio_storage_output_audio_<ms>.pcm#0"]);
    const artifacts = await services.artifactService!.listArtifactKeys({ appName: "voice", userId: "u1", sessionId: "s1" });
    expect(artifacts).toHaveLength(2);
  });

  it.each([
    ["an unknown parameter", "app_name=voice&user_id=u1&session_id=s1&explicit_vad_signal=true", 1008, "INVALID_QUERY", '/run_live has no query parameter "explicit_vad_signal"'],
    ["a missing session_id", "app_name=voice&user_id=u1", 1008, "INVALID_QUERY", "The query parameter session_id is required"],
    ["a repeated app_name", "app_name=voice&app_name=other&user_id=u1&session_id=s1", 1008, "INVALID_QUERY", "The query parameter app_name is given 2 times"],
    ["an unknown modality", "app_name=voice&user_id=u1&session_id=s1&modalities=VIDEO", 1008, "INVALID_QUERY", 'modalities takes TEXT or AUDIO (repeat it for both), not "VIDEO"'],
    ["a flag that is not a boolean", "app_name=voice&user_id=u1&session_id=s1&proactive_audio=maybe", 1008, "INVALID_QUERY", "proactive_audio must be true or false"],
    ["an unknown app", "app_name=nope&user_id=u1&session_id=s1", 4404, "APP_NOT_FOUND", 'No app "nope"'],
    ["an unknown session", "app_name=voice&user_id=u1&session_id=missing", 1002, "SESSION_NOT_FOUND", 'Session not found: app "voice" has no session "missing" of user "u1"'],
  ])("refuses %s after the handshake: an {error, code} frame, then its close code", async (_case, query, closeCode, code, message) => {
    const model = new ScriptedLiveModel([]);
    const { socketUrl, runs } = await liveServer({ voice: new LlmAgent({ name: "voice", model }) });
    const client = connect(socketUrl(query));
    const closed = await client.closed;
    expect(closed.code).toBe(closeCode);
    expect(client.frames).toHaveLength(1);
    expect(client.frames[0]).toMatchObject({ code });
    expect(client.frames[0].error).toContain(message);
    // The reason is the message, cut to what a close frame holds; ADK's exact words for a missing session.
    expect(Buffer.byteLength(closed.reason)).toBeLessThanOrEqual(123);
    if (code === "SESSION_NOT_FOUND") expect(closed.reason).toBe("Session not found");
    else expect(client.frames[0].error.startsWith(closed.reason.replace(/…$/, ""))).toBe(true);
    expect(model.connections).toHaveLength(0);
    expect(runs.active).toBe(0);
  });

  it("in bearer-token mode needs the token on the upgrade (401 before the handshake), and another user's session is not found", async () => {
    const model = new ScriptedLiveModel([]);
    const { socketUrl } = await liveServer({ voice: new LlmAgent({ name: "voice", model }) }, { tokens: { "secret-token": "u1" } });
    await expect(connect(socketUrl("app_name=voice&user_id=u1&session_id=s1")).opened).rejects.toThrow("Unexpected server response: 401");
    const other = connect(socketUrl("app_name=voice&user_id=u2&session_id=s1"), { headers: { authorization: "Bearer secret-token" } });
    expect(await other.closed).toEqual({ code: 1002, reason: "Session not found" });
    const mine = connect(socketUrl("app_name=voice&user_id=u1&session_id=s1"), { headers: { authorization: "Bearer secret-token" } });
    await until(() => model.connections.length === 1, "the model is connected");
    mine.send({ close: true });
    expect((await mine.closed).code).toBe(1000);
  });

  it("in bearer-token mode takes a browser's token as a subprotocol, answers with toolsmith's, and never names the token back", async () => {
    const model = new ScriptedLiveModel([[said("Hi u1"), { turnComplete: true }]]);
    const { socketUrl, app } = await liveServer({ voice: new LlmAgent({ name: "voice", model }) }, { tokens: { "secret token/ü": "u1" } });
    const query = "app_name=voice&user_id=u1&session_id=s1";
    const bearer = (token: string) => `bearer.${Buffer.from(token).toString("base64url")}`;
    const client = connect(socketUrl(query), {}, ["toolsmith", bearer("secret token/ü")]);
    await client.opened;
    expect(client.socket.protocol).toBe("toolsmith");
    client.send({ content: user("Hello") });
    expect((await client.frame((frame) => frame.content?.parts?.[0]?.text === "Hi u1")).author).toBe("voice");
    client.send({ close: true });
    expect((await client.closed).code).toBe(1000);

    // A wrong token, a token that is not base64url, toolsmith's protocol alone: 401 before the handshake, as a header's would.
    for (const protocols of [["toolsmith", bearer("guess")], ["toolsmith", "bearer.not.base64url"], ["toolsmith"]]) {
      await expect(connect(socketUrl(query), {}, protocols).opened).rejects.toThrow("Unexpected server response: 401");
    }
    // What the refusal says (a socket client gets the status and headers only), asked of the app in process.
    const refused = await app.request(`/run_live?${query}`, { headers: { upgrade: "websocket", connection: "Upgrade", "sec-websocket-protocol": "toolsmith" } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ code: "UNAUTHORIZED", error: 'This server needs a bearer token: send Authorization: Bearer <token>, or from a browser offer the subprotocols "toolsmith" and "bearer.<the token in base64url>".' });
    // The token is for /run_live only: other routes still need the header.
    const listed = await app.request("/apps/voice/users/u1/sessions", { headers: { "sec-websocket-protocol": bearer("secret token/ü") } });
    expect(listed.status).toBe(401);
    expect(model.connections).toHaveLength(1);
  });

  it("refuses a client that offers only subprotocols it does not speak (400, saying which to offer) rather than failing its handshake in silence", async () => {
    const model = new ScriptedLiveModel([]);
    const { socketUrl, app } = await liveServer({ voice: new LlmAgent({ name: "voice", model }) }, { tokens: { "secret-token": "u1" } });
    const query = "app_name=voice&user_id=u1&session_id=s1";
    const token = `bearer.${Buffer.from("secret-token").toString("base64url")}`;
    await expect(connect(socketUrl(query), {}, [token]).opened).rejects.toThrow("Unexpected server response: 400");
    const refused = await app.request(`/run_live?${query}`, { headers: { upgrade: "websocket", connection: "Upgrade", "sec-websocket-protocol": `graphql-ws, ${token}` } });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { code: string; error: string };
    expect(body).toEqual({ code: "UNSUPPORTED_SUBPROTOCOL", error: '/run_live speaks the subprotocol "toolsmith", which the client did not offer (it offered graphql-ws, bearer.…). Offer "toolsmith", with "bearer.<token in base64url>" for a bearer token, or no subprotocol.' });
    expect(body.error).not.toContain(Buffer.from("secret-token").toString("base64url"));
    expect(model.connections).toHaveLength(0);
  });

  it("answers toolsmith's subprotocol without token mode too, and none to a client that offers none (ADK's dev UI)", async () => {
    const model = new ScriptedLiveModel([]);
    const { socketUrl } = await liveServer({ voice: new LlmAgent({ name: "voice", model }) });
    const query = "app_name=voice&user_id=u1&session_id=s1";
    for (const [protocols, answered] of [[["toolsmith"], "toolsmith"], [undefined, ""]] as const) {
      const client = connect(socketUrl(query), {}, protocols ? [...protocols] : undefined);
      await client.opened;
      expect(client.socket.protocol).toBe(answered);
      client.send({ close: true });
      expect((await client.closed).code).toBe(1000);
    }
  });

  it("refuses a page of another origin before the handshake (403), and takes its own origin and the allowed ones", async () => {
    const model = new ScriptedLiveModel([]);
    const { socketUrl, server } = await liveServer({ voice: new LlmAgent({ name: "voice", model }) }, { corsOrigins: ["https://app.example"] });
    const query = "app_name=voice&user_id=u1&session_id=s1";
    await expect(connect(socketUrl(query), { origin: "https://evil.example" }).opened).rejects.toThrow("Unexpected server response: 403");
    await expect(connect(socketUrl(query), { origin: "null" }).opened).rejects.toThrow("Unexpected server response: 403");
    for (const origin of [server.url, "https://app.example"]) {
      const client = connect(socketUrl(query), { origin });
      await client.opened;
      client.send({ close: true });
      expect((await client.closed).code).toBe(1000);
    }
  });

  it("passes the host check before the handshake (403 for a host a loopback server does not answer to)", async () => {
    const { socketUrl } = await liveServer({ voice: new LlmAgent({ name: "voice", model: new ScriptedLiveModel([]) }) }, { allowedHosts: LOOPBACK_HOSTS });
    await expect(connect(socketUrl("app_name=voice&user_id=u1&session_id=s1"), { headers: { host: "rebound.example" } }).opened).rejects.toThrow("Unexpected server response: 403");
  });

  it("closes with 1009 on a message over the server's limit, and stops the run", async () => {
    const model = new ScriptedLiveModel([]);
    const { socketUrl, runs } = await liveServer({ voice: new LlmAgent({ name: "voice", model }) }, { maxMessageBytes: 1024 });
    const client = connect(socketUrl("app_name=voice&user_id=u1&session_id=s1"));
    await until(() => model.connections.length === 1, "the model is connected");
    client.send({ blob: { mime_type: "audio/pcm;rate=16000", data: "A".repeat(2048) } });
    expect((await client.closed).code).toBe(1009);
    await until(() => model.connections[0]!.closed && runs.active === 0, "the run stopped");
    expect(model.connections[0]!.sent).toEqual([]);
  });

  it("answers a plain GET with 426: it is a WebSocket endpoint", async () => {
    const { json } = await inlineApi({ voice: new LlmAgent({ name: "voice", model: new ScriptedLiveModel([]) }) });
    const response = await json("/run_live?app_name=voice&user_id=u1&session_id=s1");
    expect(response).toMatchObject({ status: 426, body: { code: "UPGRADE_REQUIRED" } });
    expect(response.body.error).toContain("/run_live is a WebSocket endpoint");
  });

  it.each([
    ["a message that is not JSON", "Hi there", 1007, "A message is not JSON"],
    ["a message with an unknown field", { text: "Hi" }, 1007, 'A message has no field "text"'],
    ["a message setting two fields", { content: user("Hi"), close: true }, 1007, "A message sets content and close; set one per message."],
    ["a binary message", Buffer.from("{}"), 1003, "A binary message was sent"],
  ])("ends the run on %s: the events stored so far kept, the model's connection closed, an {error, code} frame and the close code", async (_case, message, closeCode, error) => {
    const model = new ScriptedLiveModel([[said("Hello"), { turnComplete: true }]]);
    const { socketUrl, stored, runs } = await liveServer({ greeter: new LlmAgent({ name: "greeter", model }) });
    const client = connect(socketUrl("app_name=greeter&user_id=u1&session_id=s1&modalities=TEXT"));
    client.send({ content: user("Hi") });
    await client.frame((frame) => frame.turnComplete === true);
    client.send(message);
    const closed = await client.closed;
    expect(closed.code).toBe(closeCode);
    expect(client.frames.at(-1)).toMatchObject({ code: "INVALID_LIVE_REQUEST" });
    expect(client.frames.at(-1).error).toContain(error);
    expect((await stored("greeter")).map((event) => event.content?.parts?.[0]?.text ?? "turnComplete")).toEqual(["Hi", "Hello", "turnComplete"]);
    expect(model.connections[0]!.closed).toBe(true);
    expect(runs.active).toBe(0);
  });

  it("stops the run when the client goes away mid-answer: the model's connection closed, nothing more stored", async () => {
    let answer!: (responses: ReturnType<typeof said>[]) => void;
    const model = new ScriptedLiveModel([() => new Promise((resolve) => (answer = resolve))]);
    const { socketUrl, stored, runs } = await liveServer({ greeter: new LlmAgent({ name: "greeter", model }) });
    const client = connect(socketUrl("app_name=greeter&user_id=u1&session_id=s1&modalities=TEXT"));
    client.send({ content: user("Tell me a long story") });
    await client.frame((frame) => frame.author === "user");
    await until(() => answer !== undefined, "the model took its turn");
    client.socket.terminate();
    await until(() => model.connections[0]!.closed && runs.active === 0, "the run stopped");
    answer([said("Once upon a time."), { turnComplete: true } as never]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await stored("greeter")).map((event) => event.author)).toEqual(["user"]);
  });

  it("on a drain, refuses new live runs (1013) and stops those under way past the grace period (1001, SERVER_SHUTTING_DOWN)", async () => {
    const model = new ScriptedLiveModel([[said("Hello"), { turnComplete: true }]]);
    const { socketUrl, stored, runs } = await liveServer({ greeter: new LlmAgent({ name: "greeter", model }) });
    const client = connect(socketUrl("app_name=greeter&user_id=u1&session_id=s1&modalities=TEXT"));
    client.send({ content: user("Hi") });
    await client.frame((frame) => frame.turnComplete === true);
    const draining = runs.drain({ graceMs: 50 });
    const late = connect(socketUrl("app_name=greeter&user_id=u1&session_id=s1"));
    const refused = await late.closed;
    expect(refused.code).toBe(1013);
    expect(late.frames[0]).toMatchObject({ code: "SERVER_DRAINING" });
    expect(await draining).toEqual({ finished: 0, interrupted: 1 });
    const closed = await client.closed;
    expect(closed.code).toBe(1001);
    expect(client.frames.at(-1)).toMatchObject({ code: "SERVER_SHUTTING_DOWN" });
    expect((await stored("greeter")).map((event) => event.content?.parts?.[0]?.text ?? "turnComplete")).toEqual(["Hi", "Hello", "turnComplete"]);
    expect(model.connections[0]!.closed).toBe(true);
  });

  it("closes live sockets when the server closes (1001), and the close does not wait for them", async () => {
    const model = new ScriptedLiveModel([]);
    const { socketUrl, server, runs } = await liveServer({ voice: new LlmAgent({ name: "voice", model }) });
    const client = connect(socketUrl("app_name=voice&user_id=u1&session_id=s1"));
    await until(() => model.connections.length === 1, "the model is connected");
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await client.closed).toEqual({ code: 1001, reason: "The server is shutting down." });
    await until(() => model.connections[0]!.closed && runs.active === 0, "the run stopped");
  });
});
