/** The live flow's own pieces, tested directly: how a live response becomes an event, what counts as a recoverable drop, the connection's settings. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { resolveRunConfig } from "../../src/agents/run-config.js";
import { isRecoverable, liveConnectConfigOf, liveEvent, runLlmAgentLive } from "../../src/llm-agent/live-flow.js";
import { LlmAgent } from "../../src/llm-agent/llm-agent.js";
import { carriesRawMedia, liveRunDefaults } from "../../src/runner/runner.js";
import { createEvent } from "../../src/events/event.js";
import { FunctionTool } from "../../src/tools/function-tool.js";
import type { Tool } from "../../src/tools/tool.js";
import { ScriptedLiveModel } from "../../src/testing/index.js";
import { LiveConnectionClosedError } from "../../src/models/live-connection.js";
import { invocationFor } from "./fixtures.js";

const longRunning = new FunctionTool({ name: "book", description: "Books.", parameters: z.object({}), isLongRunning: true, execute: () => ({ status: "pending" }) });
const tools: ReadonlyMap<string, Tool> = new Map([["book", longRunning]]);

describe("liveEvent", () => {
  it("leaves out a response with nothing to show", async () => {
    const agent = new LlmAgent({ name: "voice", model: new ScriptedLiveModel([]) });
    const context = await invocationFor(agent);
    expect(liveEvent(agent, context, { modelVersion: "gemini-live-2.5-flash" }, tools)).toBeUndefined();
    expect(liveEvent(agent, context, { partial: true }, tools)).toBeUndefined();
  });

  it("makes a transcription of the user an event authored user, and a transcription or resumption handle an event of its own", async () => {
    const agent = new LlmAgent({ name: "voice", model: new ScriptedLiveModel([]) });
    const context = await invocationFor(agent, { branch: "root.voice" });
    const heard = liveEvent(agent, context, { inputTranscription: { text: "hi", finished: false }, partial: true, usageMetadata: { totalTokenCount: 3 } }, tools)!;
    expect([heard.author, heard.inputTranscription, heard.partial, heard.usageMetadata, heard.branch, heard.invocationId]).toEqual(["user", { text: "hi", finished: false }, true, undefined, "root.voice", context.invocationId]);
    const spoken = liveEvent(agent, context, { outputTranscription: { text: "hello", finished: true }, partial: false }, tools)!;
    expect([spoken.author, spoken.outputTranscription, spoken.partial]).toEqual(["voice", { text: "hello", finished: true }, false]);
    const handle = liveEvent(agent, context, { liveSessionResumptionUpdate: { newHandle: "h", resumable: true }, content: { role: "model", parts: [{ text: "ignored" }] } }, tools)!;
    expect([handle.liveSessionResumptionUpdate, handle.content]).toEqual([{ newHandle: "h", resumable: true }, undefined]);
  });

  it("gives calls without ids an id, keeps Gemini's, and marks long-running calls", async () => {
    const agent = new LlmAgent({ name: "voice", model: new ScriptedLiveModel([]), tools: [longRunning] });
    const context = await invocationFor(agent);
    const event = liveEvent(agent, context, { content: { role: "model", parts: [{ functionCall: { name: "book", args: {} } }, { functionCall: { id: "g-1", name: "other", args: {} } }] } }, tools)!;
    const [first, second] = event.content!.parts!.map((part) => part.functionCall!.id);
    expect(first).toMatch(/^adk-/);
    expect(second).toBe("g-1");
    expect(event.longRunningToolIds).toEqual([first]);
  });

  it("writes the final text of the agent's answer to outputKey, not a partial piece nor an answer without text", async () => {
    const agent = new LlmAgent({ name: "voice", model: new ScriptedLiveModel([]), outputKey: "answer" });
    const context = await invocationFor(agent);
    expect(liveEvent(agent, context, { content: { role: "model", parts: [{ text: "Par" }] }, partial: true }, tools)!.actions.stateDelta).toEqual({});
    expect(liveEvent(agent, context, { content: { role: "model", parts: [{ inlineData: { mimeType: "audio/pcm", data: "AA" } }] } }, tools)!.actions.stateDelta).toEqual({});
    expect(liveEvent(agent, context, { content: { role: "model", parts: [{ text: "Paris" }] } }, tools)!.actions.stateDelta).toEqual({ answer: "Paris" });
  });
});

describe("isRecoverable", () => {
  it("takes an abnormal close, a server failure or restart, and a reset connection; not a refusal or a plain value", () => {
    for (const code of [1006, 1011, 1012]) expect(isRecoverable(Object.assign(new Error("closed"), { code }))).toBe(true);
    expect(isRecoverable(new Error("read ECONNRESET"))).toBe(true);
    expect(isRecoverable(new Error("socket hang up"))).toBe(true);
    expect(isRecoverable(Object.assign(new Error("policy violation"), { code: 1008 }))).toBe(false);
    expect(isRecoverable(new Error("invalid argument"))).toBe(false);
    expect(isRecoverable("connection closed")).toBe(false);
    expect(isRecoverable(new LiveConnectionClosedError(1006, "lost"))).toBe(true);
    expect(isRecoverable(new LiveConnectionClosedError(1011, "server failed"))).toBe(true);
    expect(isRecoverable(new LiveConnectionClosedError(1008, "policy violation"))).toBe(false);
  });
});

describe("liveConnectConfigOf and liveRunDefaults", () => {
  it("copies the live settings the run config sets, in ADK's order, and nothing else", () => {
    const config = resolveRunConfig({ maxLlmCalls: 3, speechConfig: { languageCode: "fr-FR" }, responseModalities: ["TEXT"], enableAffectiveDialog: false });
    expect(liveConnectConfigOf(config)).toEqual({ responseModalities: ["TEXT"], speechConfig: { languageCode: "fr-FR" }, enableAffectiveDialog: false });
    expect(Object.keys(liveConnectConfigOf(config))).toEqual(["responseModalities", "speechConfig", "enableAffectiveDialog"]);
    expect(liveConnectConfigOf(resolveRunConfig(undefined))).toEqual({});
  });

  it("answers in audio by default, and turns transcriptions on for an agent with sub-agents, as ADK does", () => {
    const single = new LlmAgent({ name: "single", model: new ScriptedLiveModel([]) });
    const parent = new LlmAgent({ name: "parent", model: new ScriptedLiveModel([]), subAgents: [new LlmAgent({ name: "child", model: new ScriptedLiveModel([]) })] });
    expect(liveRunDefaults(undefined, single)).toEqual({ responseModalities: ["AUDIO"] });
    expect(liveRunDefaults(undefined, parent)).toEqual({ responseModalities: ["AUDIO"], outputAudioTranscription: {}, inputAudioTranscription: {} });
    expect(liveRunDefaults({ responseModalities: ["TEXT"] }, parent)).toEqual({ responseModalities: ["TEXT"], inputAudioTranscription: {} });
    expect(liveRunDefaults({ inputAudioTranscription: { languageCodes: ["fr"] } }, parent).inputAudioTranscription).toEqual({ languageCodes: ["fr"] });
  });
});

describe("carriesRawMedia", () => {
  it("is true for inline audio, video and images, whatever the case of the type, and false for text and file references", () => {
    const withPart = (part: object) => createEvent({ author: "voice", content: { role: "model", parts: [part] } });
    expect(carriesRawMedia(withPart({ inlineData: { mimeType: "audio/pcm", data: "AA" } }))).toBe(true);
    expect(carriesRawMedia(withPart({ inlineData: { mimeType: "Video/MP4", data: "AA" } }))).toBe(true);
    expect(carriesRawMedia(withPart({ inlineData: { mimeType: "image/png", data: "AA" } }))).toBe(true);
    expect(carriesRawMedia(withPart({ inlineData: { mimeType: "application/pdf", data: "AA" } }))).toBe(false);
    expect(carriesRawMedia(withPart({ fileData: { mimeType: "audio/wav", fileUri: "gs://b/a.wav" } }))).toBe(false);
    expect(carriesRawMedia(createEvent({ author: "voice" }))).toBe(false);
  });
});

describe("runLlmAgentLive", () => {
  it("refuses a context without a queue, saying how to run live", async () => {
    const agent = new LlmAgent({ name: "voice", model: new ScriptedLiveModel([]) });
    const context = await invocationFor(agent);
    await expect(runLlmAgentLive(agent, context).next()).rejects.toThrow('Agent "voice" was run live without a LiveRequestQueue: run it through runner.runLive({ userId, sessionId, liveRequestQueue }).');
  });

  it("stores what tools wrote while the request was prepared, before connecting", async () => {
    const { LiveRequestQueue } = await import("../../src/agents/live-request-queue.js");
    const { BaseTool } = await import("../../src/tools/base-tool.js");
    class Noting extends BaseTool {
      constructor() {
        super({ name: "noting", description: "Notes." });
      }
      async runAsync() {
        return {};
      }
      override processLlmRequest({ toolContext }: { toolContext: { state: { set(key: string, value: unknown): void } } }) {
        toolContext.state.set("prepared", true);
      }
    }
    const queue = new LiveRequestQueue();
    queue.close();
    const agent = new LlmAgent({ name: "voice", model: new ScriptedLiveModel([]), tools: [new Noting()] });
    const context = await invocationFor(agent, { liveRequestQueue: queue });
    const first = await runLlmAgentLive(agent, context).next();
    expect(first.value).toMatchObject({ author: "voice", actions: { stateDelta: { prepared: true } } });
  });
});
