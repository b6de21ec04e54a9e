/**
 * ToolContext on its own: what a tool reads and records through it (state
 * deltas, actions, artifacts, memory, progress events, confirmation and
 * credential requests), without a runner around it.
 */
import { describe, expect, it } from "vitest";
import { createEvent, createEventActions, InMemoryArtifactService, InMemoryMemoryService, ToolContext, type Event } from "../../src/index.js";
import { acceptCredential } from "../../src/auth/credential-flow.js";
import type { InvocationContextParams } from "../../src/agents/invocation-context.js";
import { createInvocation, createToolContext } from "../support/tool-context.js";

async function contextWith(extra: Partial<InvocationContextParams> = {}, options: { state?: Record<string, unknown>; functionCallId?: string } = {}) {
  const invocation = (await createInvocation({ state: options.state })).clone(extra);
  return { invocation, context: new ToolContext({ invocation, functionCallId: options.functionCallId ?? "call-7" }) };
}

describe("ToolContext state", () => {
  it("records writes as the event's state delta, keys with their app:, user: and temp: prefixes as written", async () => {
    const context = await createToolContext();
    context.state.set("app:theme", "dark");
    context.state.set("user:language", "fr");
    context.state.set("temp:scratch", [1, 2]);
    context.state.set("count", 3);
    expect(context.actions.stateDelta).toEqual({ "app:theme": "dark", "user:language": "fr", "temp:scratch": [1, 2], count: 3 });
  });

  it("reads its own pending writes before the session's values, and leaves the session untouched", async () => {
    const { invocation, context } = await contextWith({}, { state: { count: 1, name: "Ada" } });
    expect(context.state.get("count")).toBe(1);
    context.state.set("count", 2);
    expect(context.state.get("count")).toBe(2);
    expect(context.state.get("name")).toBe("Ada");
    expect(context.state.toRecord()).toEqual({ count: 2, name: "Ada" });
    expect(invocation.session.state).toEqual({ count: 1, name: "Ada" });
  });
  it("writes into the actions it was given, so the caller sees the tool's changes", async () => {
    const invocation = await createInvocation();
    const actions = createEventActions({ stateDelta: { before: true } });
    const context = new ToolContext({ invocation, functionCallId: "c", actions });
    context.state.set("after", true);
    context.actions.escalate = true;
    expect(actions.stateDelta).toEqual({ before: true, after: true });
    expect(actions.escalate).toBe(true);
  });
});

describe("ToolContext identity and signals", () => {
  it("exposes the call id, the agent, app, user, session and invocation it runs in", async () => {
    const { invocation, context } = await contextWith({}, { functionCallId: "call-42" });
    expect(context.functionCallId).toBe("call-42");
    expect(context.agentName).toBe("test_agent");
    expect(context.appName).toBe("test");
    expect(context.userId).toBe("user-1");
    expect(context.sessionId).toBe(invocation.session.id);
    expect(context.invocationId).toBe("e-test");
    expect(context.invocationContext).toBe(invocation);
  });

  it("uses the invocation's abort signal unless the call has its own (a timeout's)", async () => {
    const runAbort = new AbortController();
    const invocation = await createInvocation({ abortSignal: runAbort.signal });
    expect(new ToolContext({ invocation, functionCallId: "a" }).abortSignal).toBe(runAbort.signal);
    const deadline = new AbortController();
    const own = new ToolContext({ invocation, functionCallId: "b", abortSignal: deadline.signal });
    deadline.abort();
    expect(own.abortSignal.aborted).toBe(true);
    expect(runAbort.signal.aborted).toBe(false);
  });

  it("carries the person's decision when the call was confirmed before running", async () => {
    const invocation = await createInvocation();
    const confirmed = new ToolContext({ invocation, functionCallId: "c", toolConfirmation: { confirmed: true, payload: { limit: 5 } } });
    expect(confirmed.toolConfirmation).toEqual({ confirmed: true, payload: { limit: 5 } });
    expect(new ToolContext({ invocation, functionCallId: "d" }).toolConfirmation).toBeUndefined();
  });
});

describe("ToolContext events", () => {
  it("passes emitted events to the emitter, and resolves at once when there is none", async () => {
    const invocation = await createInvocation();
    const emitted: Event[] = [];
    const context = new ToolContext({ invocation, functionCallId: "c", emitEvent: async (event) => void emitted.push(event) });
    const event = createEvent({ invocationId: "e-test", author: "inner", content: { role: "model", parts: [{ text: "hi" }] } });
    await context.emitEvent(event);
    expect(emitted).toEqual([event]);
    await expect(new ToolContext({ invocation, functionCallId: "c" }).emitEvent(event)).resolves.toBeUndefined();
  });

  it("reports progress as a partial event naming the call, in the invocation's branch", async () => {
    const invocation = (await createInvocation()).clone({ branch: "root.worker" });
    const emitted: Event[] = [];
    const context = new ToolContext({ invocation, functionCallId: "call-9", emitEvent: async (event) => void emitted.push(event) });
    await context.reportProgress({ progress: 3, total: 10, message: "copying" });
    expect(emitted).toHaveLength(1);
    expect(emitted[0]).toMatchObject({
      invocationId: "e-test",
      author: "test_agent",
      branch: "root.worker",
      partial: true,
      customMetadata: { toolProgress: { functionCallId: "call-9", progress: 3, total: 10, message: "copying" } },
    });
    expect(emitted[0]!.content).toBeUndefined();
  });
});

describe("ToolContext artifacts and memory", () => {
  it("saves artifact versions counting from 0, records the latest in artifactDelta, and loads any version back", async () => {
    const { context } = await contextWith({ artifactService: new InMemoryArtifactService() });
    expect(await context.saveArtifact("report.txt", { text: "v0" })).toBe(0);
    expect(await context.saveArtifact("report.txt", { text: "v1" })).toBe(1);
    expect(await context.saveArtifact("chart.png", { inlineData: { mimeType: "image/png", data: "AAAA" } })).toBe(0);
    expect(context.actions.artifactDelta).toEqual({ "report.txt": 1, "chart.png": 0 });
    expect(await context.loadArtifact("report.txt")).toEqual({ text: "v1" });
    expect(await context.loadArtifact("report.txt", 0)).toEqual({ text: "v0" });
    expect(await context.loadArtifact("missing.txt")).toBeUndefined();
    expect(await context.listArtifacts()).toEqual(["chart.png", "report.txt"]);
  });
  it("says to configure an artifact service when none is", async () => {
    const context = await createToolContext();
    await expect(context.saveArtifact("a.txt", { text: "x" })).rejects.toMatchObject({ code: "NO_ARTIFACT_SERVICE", message: expect.stringContaining("Pass artifactService to the Runner") });
    await expect(context.listArtifacts()).rejects.toMatchObject({ code: "NO_ARTIFACT_SERVICE" });
    expect(context.actions.artifactDelta).toEqual({});
  });

  it("searches only the current user's memory of this app", async () => {
    const memoryService = new InMemoryMemoryService();
    const { invocation, context } = await contextWith({ memoryService });
    const mine = await invocation.sessionService.createSession({ appName: "test", userId: "user-1" });
    mine.events.push(createEvent({ invocationId: "x", author: "user", content: { role: "user", parts: [{ text: "My cat is called Pixel." }] } }));
    const theirs = await invocation.sessionService.createSession({ appName: "test", userId: "user-2" });
    theirs.events.push(createEvent({ invocationId: "y", author: "user", content: { role: "user", parts: [{ text: "My cat is called Shadow." }] } }));
    await memoryService.addSessionToMemory(mine);
    await memoryService.addSessionToMemory(theirs);

    const found = await context.searchMemory("cat");
    expect(found.memories.map((memory) => memory.content.parts![0]!.text)).toEqual(["My cat is called Pixel."]);
    expect((await context.searchMemory("dog")).memories).toEqual([]);
  });

  it("says to configure a memory service when none is", async () => {
    const context = await createToolContext();
    await expect(context.searchMemory("cat")).rejects.toMatchObject({ name: "ConfigurationError", code: "NO_MEMORY_SERVICE" });
  });
});

describe("ToolContext requests to the client", () => {
  it("records a confirmation request under its call id, unconfirmed, with hint and payload", async () => {
    const { context } = await contextWith({}, { functionCallId: "call-3" });
    context.requestConfirmation({ hint: "Delete 3 files?", payload: { files: ["a", "b", "c"] } });
    expect(context.actions.requestedToolConfirmations).toEqual({ "call-3": { hint: "Delete 3 files?", payload: { files: ["a", "b", "c"] }, confirmed: false } });
  });

  it("records a bare confirmation request when given nothing", async () => {
    const { context } = await contextWith({}, { functionCallId: "call-4" });
    context.requestConfirmation();
    expect(context.actions.requestedToolConfirmations["call-4"]).toEqual({ hint: undefined, payload: undefined, confirmed: false });
  });

  it("records a credential request under its call id, keyed so a later run finds the credential", async () => {
    const { context } = await contextWith({}, { functionCallId: "call-5" });
    context.requestCredential({ authScheme: { type: "apiKey", in: "header", name: "X-Key" } });
    const request = context.actions.requestedAuthConfigs["call-5"]!;
    expect(request.authScheme).toEqual({ type: "apiKey", in: "header", name: "X-Key" });
    expect(request.credentialKey).toMatch(/^adk_apiKey_[0-9a-z]+$/);
    expect(request.exchangedAuthCredential).toBeUndefined();
  });

  it("makes the OAuth 2 sign-in URL when it asks for an authorization-code credential", async () => {
    const { context } = await contextWith({}, { functionCallId: "call-6" });
    context.requestCredential({
      authScheme: { type: "oauth2", flows: { authorizationCode: { authorizationUrl: "https://auth.example/authorize", tokenUrl: "https://auth.example/token", scopes: { read: "Read" } } } },
      rawAuthCredential: { authType: "oauth2", oauth2: { clientId: "app-1", redirectUri: "https://app.example/cb" } },
    });
    const oauth2 = context.actions.requestedAuthConfigs["call-6"]!.exchangedAuthCredential!.oauth2!;
    const url = new URL(oauth2.authUri!);
    expect(url.origin + url.pathname).toBe("https://auth.example/authorize");
    expect(url.searchParams.get("client_id")).toBe("app-1");
    expect(url.searchParams.get("state")).toBe(oauth2.state);
    expect(oauth2.codeVerifier).toBeTruthy();
  });

  it("reads back the credential the client supplied for this config, and nothing for another config", async () => {
    const config = { authScheme: { type: "apiKey", in: "query", name: "key" } };
    const { context } = await contextWith();
    expect(context.getAuthResponse(config)).toBeUndefined();
    await acceptCredential({ answer: { ...config, exchangedAuthCredential: { authType: "apiKey", apiKey: "k-1" } } }, { scope: context });
    expect(context.getAuthResponse(config)).toEqual({ authType: "apiKey", apiKey: "k-1" });
    expect(await context.loadCredential(config)).toEqual({ authType: "apiKey", apiKey: "k-1" });
    expect(context.getAuthResponse({ authScheme: { type: "apiKey", in: "query", name: "other" } })).toBeUndefined();
  });
});
