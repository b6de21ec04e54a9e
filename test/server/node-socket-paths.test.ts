/**
 * What the server does over a real socket, where `@hono/node-server` serves it: `/run_sse` writes to Node's
 * response itself and the body limit reads only the headers of a request that declares its length. Each case is
 * compared with what the same app answers in process (`app.request`), which goes through the WHATWG path.
 */
import { request as httpRequest, ServerResponse } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FunctionTool, LlmAgent } from "../../src/index.js";
import { createLogger } from "../../src/server/request-log.js";
import { RunTracker } from "../../src/server/run-tracker.js";
import { startServer, type RunningServer } from "../../src/server/start-server.js";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, streamedText, textResponse } from "../../src/testing/index.js";
import { sseEvents } from "./helpers.js";
import { inlineApi } from "./inline-api.js";

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server over one app that streams `words` words back in chunks of `wordsPerChunk`. */
async function serveStreamer(words: number, options: Parameters<typeof inlineApi>[1] = {}, wordsPerChunk = 3) {
  const text = Array.from({ length: words }, (_, index) => `word${index}`).join(" ");
  const agent = new LlmAgent({ name: "streamer", model: new FunctionModel(() => streamedText(text, { wordsPerChunk })) });
  const api = await inlineApi({ streamer: agent }, options);
  await api.call("/apps/streamer/users/u1/sessions/s1", { json: {} });
  server = await startServer({ app: api.app, port: 0 });
  return { ...api, url: server.url, text };
}

/** A raw HTTP request; `chunks` are sent with chunked transfer encoding (no content-length) when given as an array. */
function send(url: string, path: string, options: { method?: string; body?: string | string[]; headers?: Record<string, string>; pauseMs?: number }) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const chunked = Array.isArray(options.body);
    const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
    if (typeof options.body === "string") headers["content-length"] = String(Buffer.byteLength(options.body));
    const req = httpRequest(`${url}${path}`, { method: options.method ?? "POST", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      if (options.pauseMs) {
        // A slow reader: the server's writes fill the socket and must wait for it to drain.
        res.pause();
        setTimeout(() => res.resume(), options.pauseMs);
      }
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (chunked) for (const chunk of options.body as string[]) req.write(chunk);
    else if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

const runBody = (streaming: boolean) => JSON.stringify({ appName: "streamer", userId: "u1", sessionId: "s1", newMessage: { role: "user", parts: [{ text: "go" }] }, streaming });

describe("POST /run_sse over a real socket", () => {
  it("streams the same events as the in-process path, with the SSE headers and the CORS headers middleware set", async () => {
    const { url, text, call } = await serveStreamer(12, { corsOrigins: ["https://ui.example"] });
    const overSocket = await send(url, "/run_sse", { body: runBody(true), headers: { origin: "https://ui.example" } });
    expect(overSocket.status).toBe(200);
    expect(overSocket.headers["content-type"]).toBe("text/event-stream");
    expect(overSocket.headers["cache-control"]).toBe("no-cache");
    expect(overSocket.headers["access-control-allow-origin"]).toBe("https://ui.example");
    // Set by the CORS middleware after the handler returned.
    expect(overSocket.headers.vary).toBe("Origin");
    expect(overSocket.headers["x-hono-already-sent"]).toBeUndefined();
    const socketEvents = sseEvents(overSocket.body);
    expect(socketEvents.at(-1)!.content.parts[0].text).toBe(text);
    expect(socketEvents.filter((event) => event.partial).map((event) => event.content.parts[0].text).join("")).toBe(text);

    await call("/apps/streamer/users/u1/sessions/s2", { json: {} });
    const inProcessResponse = await call("/run_sse", { json: { ...JSON.parse(runBody(true)), sessionId: "s2" }, headers: { origin: "https://ui.example" } });
    const inProcess = { headers: inProcessResponse.headers, events: sseEvents(await inProcessResponse.text()) };
    expect(inProcess.headers.get("access-control-allow-origin")).toBe("https://ui.example");
    const shape = (events: Record<string, any>[]) => events.map((event) => [Boolean(event.partial), event.content.parts[0].text]);
    expect(shape(socketEvents)).toEqual(shape(inProcess.events));
  });

  it("sends the request id the request log gives, as every other response does", async () => {
    const { url } = await serveStreamer(3, { logger: createLogger({ level: "silent" }) });
    const streamed = await send(url, "/run_sse", { body: runBody(true), headers: { "x-request-id": "lb-77.sse" } });
    expect(streamed.status).toBe(200);
    expect(streamed.headers["x-request-id"]).toBe("lb-77.sse");
    const listed = await send(url, "/apps/streamer/users/u1/sessions", { method: "GET", headers: { "x-request-id": "lb-78.get" } });
    expect(listed.headers["x-request-id"]).toBe("lb-78.get");
  });

  it("delivers every event, in order, to a client that stops reading for a while (the server waits for the socket to drain)", async () => {
    // 3,000 words in chunks of one: about 3,000 events and several hundred kilobytes, more than a socket buffers.
    const { url, text, services } = await serveStreamer(3000, {}, 1);
    const write = vi.spyOn(ServerResponse.prototype, "write");
    const slow = await send(url, "/run_sse", { body: runBody(true), pauseMs: 300 });
    const full = write.mock.results.filter((result) => result.value === false).length;
    write.mockRestore();
    // The socket did fill: some writes were told to wait.
    expect(full).toBeGreaterThan(0);
    const events = sseEvents(slow.body);
    console.log(`slow reader: ${events.length} events, ${(slow.body.length / 1024).toFixed(0)} KiB, ${full} writes found the socket full`);
    expect(slow.body.length).toBeGreaterThan(256 * 1024);
    expect(events.filter((event) => event.partial).map((event) => event.content.parts[0].text).join("")).toBe(text);
    expect(events.at(-1)!.partial).toBeUndefined();
    const stored = await services.sessionService.getSession({ appName: "streamer", userId: "u1", sessionId: "s1" });
    expect(stored!.events.map((event) => event.author)).toEqual(["user", "streamer"]);
  });
});

describe("a client that stops reading and then goes away", () => {
  it("cancels its run while the server waits for the socket to drain, leaving no run under way", async () => {
    const runs = new RunTracker();
    // 20,000 chunks, several megabytes: far more than the socket takes, so the server waits for it to drain.
    const text = Array.from({ length: 20_000 }, (_, index) => `word${index}`).join(" ");
    const agent = new LlmAgent({ name: "streamer", model: new FunctionModel(() => streamedText(text, { wordsPerChunk: 1 })) });
    const write = vi.spyOn(ServerResponse.prototype, "write");
    const api = await inlineApi({ streamer: agent }, { runs });
    await api.call("/apps/streamer/users/u1/sessions/s1", { json: {} });
    server = await startServer({ app: api.app, port: 0 });
    const url = server.url;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${url}/run_sse`, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
        res.pause(); // reads nothing: the server's writes fill the socket
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 300);
      });
      req.on("error", () => undefined);
      req.end(runBody(true));
      setTimeout(() => reject(new Error("no response headers within 5 s")), 5000).unref();
    });
    const full = write.mock.results.filter((result) => result.value === false).length;
    write.mockRestore();
    expect(full).toBeGreaterThan(0);
    expect(runs.active).toBe(1);
    for (let attempt = 0; attempt < 100 && runs.active > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs.active).toBe(0);
    // What was stored is whole: the user's message, then the reply if the run had made it before the client left.
    const stored = await api.services.sessionService.getSession({ appName: "streamer", userId: "u1", sessionId: "s1" });
    expect(stored!.events[0]!.author).toBe("user");
    expect(stored!.events.every((event) => !event.partial)).toBe(true);
    expect(stored!.events.length).toBeLessThanOrEqual(2);
  });
});

describe("a run that finished", () => {
  it("is let go without an abort: the signal its tool kept stays clear, over a socket and in process", async () => {
    const signals: AbortSignal[] = [];
    const keep = new FunctionTool({ name: "keep", description: "Keeps its signal.", parameters: { type: "object", properties: {} }, execute: (_args, context) => (signals.push(context.abortSignal), { kept: true }) });
    const model = new FunctionModel((request) => (lastFunctionResponse(request) ? textResponse("done") : functionCallsResponse({ name: "keep", args: {} })));
    const api = await inlineApi({ keeper: new LlmAgent({ name: "keeper", model, tools: [keep] }) });
    for (const id of ["s1", "s2", "s3"]) await api.call(`/apps/keeper/users/u1/sessions/${id}`, { json: {} });
    server = await startServer({ app: api.app, port: 0 });
    const body = (sessionId: string) => JSON.stringify({ appName: "keeper", userId: "u1", sessionId, newMessage: { role: "user", parts: [{ text: "go" }] } });
    expect(sseEvents((await send(server.url, "/run_sse", { body: body("s1") })).body).at(-1)!.content.parts[0].text).toBe("done");
    expect((await send(server.url, "/run", { body: body("s2") })).status).toBe(200);
    expect(sseEvents(await (await api.call("/run_sse", { json: JSON.parse(body("s3")) })).text()).at(-1)!.content.parts[0].text).toBe("done");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(signals).toHaveLength(3);
    expect(signals.map((signal) => signal.aborted)).toEqual([false, false, false]);
  });
});

describe("request body limit over a real socket", () => {
  const sessionBody = (size: number) => {
    const prefix = '{"state":{"pad":"';
    const suffix = '"}}';
    return prefix + "x".repeat(size - prefix.length - suffix.length) + suffix;
  };

  it("refuses a declared length over the limit from its header, storing nothing", async () => {
    const { url, services } = await serveStreamer(1, { maxBodyBytes: 200 });
    const fits = await send(url, "/apps/streamer/users/u1/sessions/fits", { body: sessionBody(200) });
    expect(fits.status).toBe(200);
    const over = await send(url, "/apps/streamer/users/u1/sessions/over", { body: sessionBody(201) });
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body)).toEqual({ code: "BODY_TOO_LARGE", error: "The request body is larger than 200 bytes." });
    expect(await services.sessionService.getSession({ appName: "streamer", userId: "u1", sessionId: "over" })).toBeUndefined();
  });

  it("counts the bytes of a chunked body, which declares no length: one over the limit is refused, one at it is taken", async () => {
    const { url, services } = await serveStreamer(1, { maxBodyBytes: 200 });
    const pieces = (body: string) => [body.slice(0, 50), body.slice(50, 120), body.slice(120)];
    const fits = await send(url, "/apps/streamer/users/u1/sessions/fits", { body: pieces(sessionBody(200)) });
    expect(fits.status).toBe(200);
    const over = await send(url, "/apps/streamer/users/u1/sessions/over", { body: pieces(sessionBody(201)) });
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body).code).toBe("BODY_TOO_LARGE");
    expect(await services.sessionService.getSession({ appName: "streamer", userId: "u1", sessionId: "over" })).toBeUndefined();
    const fitted = await services.sessionService.getSession({ appName: "streamer", userId: "u1", sessionId: "fits" });
    expect(String(fitted!.state.pad)).toHaveLength(200 - '{"state":{"pad":""}}'.length);
  });

  it("answers a request with no body and neither length header (a GET) without reading any", async () => {
    const { url } = await serveStreamer(1, { maxBodyBytes: 10 });
    const listed = await send(url, "/apps/streamer/users/u1/sessions", { method: "GET" });
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body).map((session: { id: string }) => session.id)).toEqual(["s1"]);
  });
});
