/**
 * `runConfig` as ADK's `createRunConfig` reads it, checked further: every option is taken or refused by name (a
 * fuzzer tries hostile configs), `maxLlmCalls` of 0 or less sets no bound (as in ADK), and
 * `saveInputBlobsAsArtifacts` keeps the user's files as artifacts on real artifact stores. Side by side with ADK
 * in test/adk-compat/programs/34-run-config-blobs-and-call-limit.
 */
import { readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveRunConfig } from "../../src/agents/run-config.js";
import { FileArtifactService } from "../../src/artifacts/file/index.js";
import { FunctionTool, InMemoryArtifactService, isToolsmithError, LlmAgent, Runner, StreamingMode, type ArtifactService, type Content, type RunConfig } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { tempDir } from "../support/temp-dir.js";
import { refusal } from "../support/refusal.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";


/** A runner whose model answers with `steps`, over `artifactService`, and the model to read requests from. */
function runnerWith(steps: ConstructorParameters<typeof ScriptedModel>[0], artifactService: ArtifactService = new InMemoryArtifactService()) {
  const lookup = new FunctionTool({ name: "lookup", description: "Looks up.", parameters: { type: "object", properties: {} }, execute: () => ({ ok: true }) });
  const model = new ScriptedModel(steps);
  const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "agent", model, tools: [lookup] }), artifactService });
  return { runner, model };
}

async function runTurn(runner: Runner, newMessage: Content, runConfig?: RunConfig) {
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage, runConfig }));
  const stored = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
  return { events, stored, sessionId: session.id };
}

describe("resolveRunConfig", () => {
  it("fills ADK's defaults and keeps what is given", () => {
    expect(resolveRunConfig(undefined)).toEqual({ streamingMode: "none", maxLlmCalls: 500, streamAgentToolEvents: false, saveInputBlobsAsArtifacts: false, pauseOnToolCalls: false, saveLiveBlob: false, plainTextToolConfirmation: false });
    expect(resolveRunConfig({ streamingMode: StreamingMode.SSE, maxLlmCalls: 0, saveInputBlobsAsArtifacts: true, pauseOnToolCalls: true, saveLiveBlob: true, plainTextToolConfirmation: true })).toEqual({ streamingMode: "sse", maxLlmCalls: 0, streamAgentToolEvents: false, saveInputBlobsAsArtifacts: true, pauseOnToolCalls: true, saveLiveBlob: true, plainTextToolConfirmation: true });
  });

  it("takes ADK's options toolsmith lacks at the value toolsmith behaves as, and refuses any other value by name", () => {
    const adkDefaults = { supportCfc: false, allowRemoteToolConfirmation: false, enableAffectiveDialog: false, speechConfig: undefined } as unknown as RunConfig;
    expect(resolveRunConfig(adkDefaults).maxLlmCalls).toBe(500);
    expect(refusal(() => resolveRunConfig({ plainTextToolConfirmation: "yes" } as unknown as RunConfig))).toEqual({ code: "INVALID_RUN_CONFIG", message: 'runConfig.plainTextToolConfirmation must be true or false, not "yes".' });
    expect(refusal(() => resolveRunConfig({ supportCfc: true } as unknown as RunConfig))).toEqual({
      code: "UNSUPPORTED_OPTION",
      message: "runConfig.supportCfc is not supported by toolsmith: compositional function calling is a live-API feature of Gemini toolsmith does not drive. Leave it out or set it to false.",
    });
  });

  it("keeps the live settings as given, for runLive, and refuses them in the wrong shape", () => {
    const live = { responseModalities: ["TEXT"], speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: "Kore" } } }, outputAudioTranscription: {}, inputAudioTranscription: {}, realtimeInputConfig: { automaticActivityDetection: { disabled: true } }, contextWindowCompression: { slidingWindow: {} }, proactivity: { proactiveAudio: true }, enableAffectiveDialog: true, sessionResumption: {} };
    expect(resolveRunConfig(live)).toEqual({ streamingMode: "none", maxLlmCalls: 500, streamAgentToolEvents: false, saveInputBlobsAsArtifacts: false, pauseOnToolCalls: false, saveLiveBlob: false, plainTextToolConfirmation: false, ...live });
    expect(refusal(() => resolveRunConfig({ responseModalities: "AUDIO" } as unknown as RunConfig))).toEqual({ code: "INVALID_RUN_CONFIG", message: 'runConfig.responseModalities must be a list of modalities (["AUDIO"] or ["TEXT"]), not "AUDIO".' });
    expect(refusal(() => resolveRunConfig({ speechConfig: "Kore" } as unknown as RunConfig))).toEqual({ code: "INVALID_RUN_CONFIG", message: 'runConfig.speechConfig must be an object, not "Kore".' });
    expect(refusal(() => resolveRunConfig({ enableAffectiveDialog: 1 } as unknown as RunConfig))).toEqual({ code: "INVALID_RUN_CONFIG", message: "runConfig.enableAffectiveDialog must be true or false, not 1." });
  });

  it("refuses an option nobody has, a live streaming mode and values of the wrong kind, saying what to do", () => {
    expect(refusal(() => resolveRunConfig({ maxLLMCalls: 5 } as unknown as RunConfig))).toEqual({
      code: "INVALID_RUN_CONFIG",
      message: 'runConfig has no option "maxLLMCalls". Its options: streamingMode, maxLlmCalls, streamAgentToolEvents, saveInputBlobsAsArtifacts, pauseOnToolCalls, saveLiveBlob, plainTextToolConfirmation, responseModalities, speechConfig, outputAudioTranscription, inputAudioTranscription, realtimeInputConfig, contextWindowCompression, proactivity, enableAffectiveDialog, sessionResumption.',
    });
    // Names of Object.prototype's members are options nobody has, not ADK options toolsmith lacks.
    for (const key of ["toString", "constructor", "__proto__"]) {
      expect(refusal(() => resolveRunConfig(JSON.parse(`{"${key}": 1}`) as RunConfig))).toEqual({
        code: "INVALID_RUN_CONFIG",
        message: `runConfig has no option "${key}". Its options: streamingMode, maxLlmCalls, streamAgentToolEvents, saveInputBlobsAsArtifacts, pauseOnToolCalls, saveLiveBlob, plainTextToolConfirmation, responseModalities, speechConfig, outputAudioTranscription, inputAudioTranscription, realtimeInputConfig, contextWindowCompression, proactivity, enableAffectiveDialog, sessionResumption.`,
      });
    }
    expect(refusal(() => resolveRunConfig({ streamingMode: StreamingMode.BIDI } as unknown as RunConfig))).toEqual({
      code: "UNSUPPORTED_OPTION",
      message: 'runConfig.streamingMode "bidi" (StreamingMode.BIDI) does not make a run live: call runner.runLive with a LiveRequestQueue for a live run, or use StreamingMode.SSE ("sse") to stream text.',
    });
    expect(refusal(() => resolveRunConfig({ streamingMode: "SSE" } as unknown as RunConfig)).message).toBe('runConfig.streamingMode must be "none" or "sse" (StreamingMode.NONE, StreamingMode.SSE), not "SSE".');
    expect(refusal(() => resolveRunConfig({ maxLlmCalls: "10" } as unknown as RunConfig)).message).toBe("runConfig.maxLlmCalls must be a number up to 9007199254740991 (0 or less for no bound), not 10.");
    expect(refusal(() => resolveRunConfig({ maxLlmCalls: Number.NaN })).code).toBe("INVALID_RUN_CONFIG");
    expect(refusal(() => resolveRunConfig({ maxLlmCalls: Number.POSITIVE_INFINITY })).code).toBe("INVALID_RUN_CONFIG");
    expect(refusal(() => resolveRunConfig({ saveInputBlobsAsArtifacts: "yes" } as unknown as RunConfig)).message).toBe('runConfig.saveInputBlobsAsArtifacts must be true or false, not "yes".');
    expect(refusal(() => resolveRunConfig(null as unknown as RunConfig)).message).toBe("runConfig must be an object, not null.");
  });

  it("takes a config another copy of toolsmith resolved, with options this copy lacks, and still checks the values it knows", () => {
    // What a newer copy's runner hands an older copy's agent: its resolved config, marked with the registry symbol.
    const fromNewerCopy = Object.defineProperty({ streamingMode: "sse", maxLlmCalls: 7, optionOfANewerCopy: true }, Symbol.for("toolsmith.resolvedRunConfig"), { value: true });
    expect(resolveRunConfig(fromNewerCopy as RunConfig)).toMatchObject({ streamingMode: "sse", maxLlmCalls: 7, saveLiveBlob: false });
    const badValue = Object.defineProperty({ maxLlmCalls: "many" }, Symbol.for("toolsmith.resolvedRunConfig"), { value: true });
    expect(refusal(() => resolveRunConfig(badValue as unknown as RunConfig))).toMatchObject({ code: "INVALID_RUN_CONFIG" });
    // Every config this copy resolves carries the mark, for the other copies.
    expect((resolveRunConfig({ maxLlmCalls: 3 }) as unknown as Record<symbol, unknown>)[Symbol.for("toolsmith.resolvedRunConfig")]).toBe(true);
    expect((resolveRunConfig(undefined) as unknown as Record<symbol, unknown>)[Symbol.for("toolsmith.resolvedRunConfig")]).toBe(true);
    // Without the mark, the same unknown option is refused, as a user's would be.
    expect(refusal(() => resolveRunConfig({ optionOfANewerCopy: true } as RunConfig))).toMatchObject({ code: "INVALID_RUN_CONFIG" });
  });

  it("never ignores an option: any config is either taken whole or refused with a ConfigurationError (fuzzed)", () => {
    const known = ["streamingMode", "maxLlmCalls", "streamAgentToolEvents", "saveInputBlobsAsArtifacts", "pauseOnToolCalls", "supportCfc", "plainTextToolConfirmation", "speechConfig", "__proto__", "constructor", "toString"];
    const outcomes = new Map<string, number>();
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(fc.constantFrom(...known), fc.string()), fc.oneof(fc.constant(undefined), fc.boolean(), fc.integer(), fc.double(), fc.string(), fc.constantFrom("none", "sse", "bidi"), fc.object())), (config) => {
        let outcome: string;
        try {
          const resolved = resolveRunConfig(config as RunConfig);
          // Taken: every key given with a value is an option toolsmith has, or an ADK one at toolsmith's behaviour.
          for (const [key, value] of Object.entries(config)) {
            if (value === undefined) continue;
            if (key in resolved) expect((resolved as unknown as Record<string, unknown>)[key]).toBe(value);
            else expect(value).toBe(false);
          }
          outcome = "taken";
        } catch (error) {
          expect(isToolsmithError(error) && ["INVALID_RUN_CONFIG", "UNSUPPORTED_OPTION"].includes(error.code)).toBe(true);
          outcome = (error as { code: string }).code;
        }
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }),
      { numRuns: 2_000 },
    );
    console.log(`runConfig fuzz: 2,000 configs, ${JSON.stringify(Object.fromEntries(outcomes))}`);
    expect(outcomes.get("taken")).toBeGreaterThan(0);
  });
});

describe("runAsync's runConfig", () => {
  it("refuses a bad config before anything is stored", async () => {
    const { runner } = runnerWith([textResponse("unused")]);
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const error = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("hi"), runConfig: { streamingMode: "bidi" } as unknown as RunConfig })).catch((caught: unknown) => caught);
    expect(isToolsmithError(error) && error.code).toBe("UNSUPPORTED_OPTION");
    expect((await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!.events).toEqual([]);
  });

  it("sets no bound on model calls with maxLlmCalls of 0 or less, as in ADK, and keeps a positive bound", async () => {
    const steps = () => [functionCallsResponse({ name: "lookup", args: {} }), functionCallsResponse({ name: "lookup", args: {} }), functionCallsResponse({ name: "lookup", args: {} }), textResponse("Done.")];
    for (const maxLlmCalls of [0, -1]) {
      const { runner, model } = runnerWith(steps());
      const { events } = await runTurn(runner, userMessage("Look it up."), { maxLlmCalls });
      expect(events.some((event) => event.errorCode)).toBe(false);
      expect([maxLlmCalls, model.requests.length, events.at(-1)?.content?.parts?.[0]?.text]).toEqual([maxLlmCalls, 4, "Done."]);
    }
    const { runner } = runnerWith(steps());
    const { events } = await runTurn(runner, userMessage("Look it up."), { maxLlmCalls: 2 });
    expect(events.at(-1)?.errorCode).toBe("LLM_CALLS_LIMIT_EXCEEDED");
  });
});

describe("runConfig.saveInputBlobsAsArtifacts", () => {
  const message: Content = {
    role: "user",
    parts: [{ text: "My receipts." }, { inlineData: { mimeType: "image/png", data: PNG, displayName: "receipt.png" } }, { inlineData: { mimeType: "text/plain", data: Buffer.from("order 5678").toString("base64") } }],
  };

  it("saves each file of the message as an artifact in a folder store, and stores and sends a note in its place", async () => {
    const root = tempDir();
    const { runner, model } = runnerWith([textResponse("Got them.")], new FileArtifactService({ root }));
    const { events, stored, sessionId } = await runTurn(runner, message, { saveInputBlobsAsArtifacts: true });
    const invocationId = events[0]!.invocationId;
    const notes = ["My receipts.", '[Uploaded Artifact: "receipt.png"]', `[Uploaded Artifact: "artifact_${invocationId}_2"]`];
    expect(stored.events[0]!.content!.parts!.map((part) => part.text)).toEqual(notes);
    expect(model.requests[0]!.contents[0]!.parts!.map((part) => part.text)).toEqual(notes);
    const key = { appName: "app", userId: "u", sessionId };
    expect(await runner.artifactService.listArtifactKeys(key)).toEqual([`artifact_${invocationId}_2`, "receipt.png"].sort());
    expect((await runner.artifactService.loadArtifact({ ...key, filename: "receipt.png" }))!.inlineData).toMatchObject({ mimeType: "image/png", data: PNG });
    expect(Buffer.from((await runner.artifactService.loadArtifact({ ...key, filename: `artifact_${invocationId}_2` }))!.inlineData!.data!, "base64").toString()).toBe("order 5678");
    expect(readdirSync(root).length).toBeGreaterThan(0);
  });

  it("adds the artifact's address as fileData when the store gives an http(s) or gs one", async () => {
    class AddressedArtifacts extends InMemoryArtifactService {
      override async getArtifactVersion(request: Parameters<InMemoryArtifactService["getArtifactVersion"]>[0]) {
        const version = await super.getArtifactVersion(request);
        return version && { ...version, canonicalUri: `https://files.example/${request.filename}` };
      }
    }
    const { runner } = runnerWith([textResponse("Got it.")], new AddressedArtifacts());
    const { stored } = await runTurn(runner, { role: "user", parts: [message.parts![1]!] }, { saveInputBlobsAsArtifacts: true });
    expect(stored.events[0]!.content!.parts).toEqual([{ text: '[Uploaded Artifact: "receipt.png"]' }, { fileData: { fileUri: "https://files.example/receipt.png", mimeType: "image/png", displayName: "receipt.png" } }]);
  });

  it("keeps a file whose save fails in the message as it came, so the model still sees it and nothing is lost", async () => {
    class FullDisk extends InMemoryArtifactService {
      override async saveArtifact(request: Parameters<InMemoryArtifactService["saveArtifact"]>[0]) {
        if (request.filename === "receipt.png") throw new Error("disk full");
        return super.saveArtifact(request);
      }
    }
    const { runner, model } = runnerWith([textResponse("Got them.")], new FullDisk());
    const { events, stored } = await runTurn(runner, message, { saveInputBlobsAsArtifacts: true });
    const parts = stored.events[0]!.content!.parts!;
    expect(parts[1]).toEqual(message.parts![1]);
    expect(parts[2]).toEqual({ text: `[Uploaded Artifact: "artifact_${events[0]!.invocationId}_2"]` });
    expect(model.requests[0]!.contents[0]!.parts![1]).toEqual(message.parts![1]);
    expect(events.at(-1)?.errorCode).toBeUndefined();
  });

  it("leaves files in the message and saves nothing unless asked", async () => {
    const { runner } = runnerWith([textResponse("Got them.")]);
    const { stored, sessionId } = await runTurn(runner, message);
    expect(stored.events[0]!.content!.parts).toEqual(message.parts);
    expect(await runner.artifactService.listArtifactKeys({ appName: "app", userId: "u", sessionId })).toEqual([]);
  });
});
