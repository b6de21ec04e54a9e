import { ConfigurationError } from "../errors/toolsmith-error.js";
import { unhonouredOption } from "../errors/unhonoured-option.js";
import type { LiveSessionSettings } from "../models/live-connection.js";

/**
 * The settings of a live run (`Runner.runLive`), as ADK names them and `@google/genai`'s `LiveConnectConfig` takes
 * them: they set up the model's live connection. `runAsync` makes no live connection, so there they change nothing,
 * as in ADK (one run config may serve both).
 */
export type LiveRunConfig = LiveSessionSettings;

/** The keys of {@link LiveRunConfig}, in the order ADK copies them to the live connection's config (`sessionResumption`, ADK Python's, last). */
export const LIVE_RUN_CONFIG_KEYS = ["responseModalities", "speechConfig", "outputAudioTranscription", "inputAudioTranscription", "realtimeInputConfig", "contextWindowCompression", "proactivity", "enableAffectiveDialog", "sessionResumption"] as const satisfies ReadonlyArray<keyof LiveRunConfig>;

/** A run config with its defaults filled in (the live settings stay as given). */
export type ResolvedRunConfig = Required<Omit<RunConfig, keyof LiveRunConfig>> & LiveRunConfig;

/** Settings for one run. */
export interface RunConfig extends LiveRunConfig {
  /** `"sse"` streams partial text events as the model produces them. Default `"none"`. */
  streamingMode?: "none" | "sse";
  /**
   * Upper bound on model calls in one invocation, against endless tool loops. Default 500. `0` or less sets no
   * bound, as in ADK.
   */
  maxLlmCalls?: number;
  /**
   * Keep each file the user's message carries (an `inlineData` part) as an artifact of the session, named by its
   * `displayName` or `artifact_<invocationId>_<part index>`, and put `[Uploaded Artifact: "<name>"]` in its place
   * in the stored message and what the model sees, as ADK does. A part whose save fails stays as it came.
   * Default `false`.
   */
  saveInputBlobsAsArtifacts?: boolean;
  /**
   * Stop at the model's tool calls instead of running them (ADK's client-side tool execution): the run yields and
   * stores the model's event with its calls and ends, and the client runs the tools itself and sends their results
   * as function responses (matching each call's `id` and `name`) in the next run's `newMessage`, which goes on from
   * them. Calls of a response left unanswered are answered as interrupted by the next run. Default `false`.
   */
  pauseOnToolCalls?: boolean;
  /**
   * Also yield the events of agents run as tools (`AgentTool`) as they happen: the request the inner
   * agent got, its calls and its answers, on their own branch. Default `false`, as in ADK: the caller
   * sees the tool's call and result, and an inner request for confirmation or a credential, while the
   * session stores everything. The dev web UI turns it on to show the inner agents at work.
   */
  streamAgentToolEvents?: boolean;
  /**
   * A live run keeps the audio of the conversation (ADK Python's `save_live_blob`): what the user sends and what the
   * model says are gathered per turn and saved as artifacts of the session (`adk_live_audio_storage_input_audio_<ms>.pcm`,
   * `…_output_audio_<ms>.pcm`), each with a stored event whose `fileData` names it
   * (`artifact://<app>/<user>/<session>/_adk_live/<file>#<version>`): the model's audio when the user interrupts it,
   * both when the turn completes, and what is left when the run ends. Needs an artifact service. Default `false`.
   */
  saveLiveBlob?: boolean;
  /**
   * A typed answer may answer the confirmation waiting (ADK's option, which `adk run` turns on): while a tool call
   * waits for a confirmation asked since the user's last message, a message that is only one of ADK's words for yes
   * (`yes`, `y`, `ok`, `approve`, `confirm`, …) or no (`no`, `n`, `deny`, `reject`, `cancel`, …) confirms or declines
   * it, and is stored as the confirmation's answer. Default `false`: a message is a message, and a confirmation is
   * answered with its function response, as clients of the HTTP API and the web UI send it.
   */
  plainTextToolConfirmation?: boolean;
}

/** ADK's `RunConfig` options toolsmith does not have, with the value it behaves as (ADK's default) and why not. */
const ADK_ONLY_OPTIONS: Readonly<Record<string, { behavesAs: unknown; why: string }>> = {
  supportCfc: { behavesAs: false, why: "compositional function calling is a live-API feature of Gemini toolsmith does not drive" },
  allowRemoteToolConfirmation: { behavesAs: false, why: "it is a setting of the A2A executor, which checks a peer's answers before the run: give it in A2AAgentExecutor's runConfig (toolsmith/a2a)" },
  remoteDelivered: { behavesAs: false, why: "the A2A executor marks what a peer sent itself, and refuses a peer's answer to a confirmation before the run (toolsmith/a2a)" },
};

const OPTIONS = ["streamingMode", "maxLlmCalls", "streamAgentToolEvents", "saveInputBlobsAsArtifacts", "pauseOnToolCalls", "saveLiveBlob", "plainTextToolConfirmation", ...LIVE_RUN_CONFIG_KEYS];

const DEFAULTS: ResolvedRunConfig = { streamingMode: "none", maxLlmCalls: 500, streamAgentToolEvents: false, saveInputBlobsAsArtifacts: false, pauseOnToolCalls: false, saveLiveBlob: false, plainTextToolConfirmation: false };

/** The configs this module made: each is checked once, however many contexts are made from it. */
const resolved = new WeakSet<object>([DEFAULTS]);

/**
 * Marks a config some copy of toolsmith resolved (a registry symbol: the same in every copy). A program can load
 * two copies, one serving agents of the other (platform/kind.ts): the server's runner resolves the config and the
 * agent's copy makes its contexts from it. A newer server's config holds options an older agent does not know, and
 * they are its defaults, not the user's words: so a marked config is not refused for options this copy lacks,
 * while the values of those it has are still checked.
 */
const RESOLVED_BY_TOOLSMITH = Symbol.for("toolsmith.resolvedRunConfig");
Object.freeze(Object.defineProperty(DEFAULTS, RESOLVED_BY_TOOLSMITH, { value: true }));

/**
 * A run's settings with their defaults, checked as ADK's `createRunConfig` checks them and further: an option
 * toolsmith does not know, an ADK option it does not have set to anything but what toolsmith does, and a value of
 * the wrong kind are refused with what to do, never ignored. `maxLlmCalls` of `0` or less means no bound, as in ADK.
 */
export function resolveRunConfig(config: RunConfig | undefined): ResolvedRunConfig {
  if (config === undefined) return DEFAULTS;
  if (resolved.has(config)) return config as ResolvedRunConfig;
  if (typeof config !== "object" || config === null) throw invalid(`runConfig must be an object, not ${JSON.stringify(config)}.`);
  const unhonoured = (config as Record<symbol, unknown>)[RESOLVED_BY_TOOLSMITH] === true ? undefined : unhonouredOption(config, OPTIONS, ADK_ONLY_OPTIONS);
  if (unhonoured) {
    const { key, adkOnly } = unhonoured;
    if (!adkOnly) throw invalid(`runConfig has no option "${key}". Its options: ${OPTIONS.join(", ")}.`);
    throw new ConfigurationError("UNSUPPORTED_OPTION", `runConfig.${key} is not supported by toolsmith: ${adkOnly.why}. Leave it out${adkOnly.behavesAs === false ? " or set it to false" : ""}.`);
  }
  const { streamingMode = DEFAULTS.streamingMode, maxLlmCalls = DEFAULTS.maxLlmCalls, streamAgentToolEvents = false, saveInputBlobsAsArtifacts = false, pauseOnToolCalls = false, saveLiveBlob = false, plainTextToolConfirmation = false } = config;
  if ((streamingMode as string) === "bidi") throw new ConfigurationError("UNSUPPORTED_OPTION", 'runConfig.streamingMode "bidi" (StreamingMode.BIDI) does not make a run live: call runner.runLive with a LiveRequestQueue for a live run, or use StreamingMode.SSE ("sse") to stream text.');
  if (streamingMode !== "none" && streamingMode !== "sse") throw invalid(`runConfig.streamingMode must be "none" or "sse" (StreamingMode.NONE, StreamingMode.SSE), not ${JSON.stringify(streamingMode)}.`);
  if (typeof maxLlmCalls !== "number" || Number.isNaN(maxLlmCalls) || maxLlmCalls > Number.MAX_SAFE_INTEGER) {
    throw invalid(`runConfig.maxLlmCalls must be a number up to ${Number.MAX_SAFE_INTEGER} (0 or less for no bound), not ${String(maxLlmCalls)}.`);
  }
  for (const [key, value] of [["streamAgentToolEvents", streamAgentToolEvents], ["saveInputBlobsAsArtifacts", saveInputBlobsAsArtifacts], ["pauseOnToolCalls", pauseOnToolCalls], ["saveLiveBlob", saveLiveBlob], ["plainTextToolConfirmation", plainTextToolConfirmation]] as const) {
    if (typeof value !== "boolean") throw invalid(`runConfig.${key} must be true or false, not ${JSON.stringify(value)}.`);
  }
  const result: ResolvedRunConfig = { streamingMode, maxLlmCalls, streamAgentToolEvents, saveInputBlobsAsArtifacts, pauseOnToolCalls, saveLiveBlob, plainTextToolConfirmation };
  for (const key of LIVE_RUN_CONFIG_KEYS) {
    const value = config[key];
    if (value === undefined) continue;
    const fits = key === "enableAffectiveDialog" ? typeof value === "boolean" : key === "responseModalities" ? Array.isArray(value) && value.every((entry) => typeof entry === "string") : typeof value === "object" && value !== null && !Array.isArray(value);
    if (!fits) throw invalid(`runConfig.${key} must be ${key === "enableAffectiveDialog" ? "true or false" : key === "responseModalities" ? 'a list of modalities (["AUDIO"] or ["TEXT"])' : "an object"}, not ${JSON.stringify(value)}.`);
    (result as unknown as Record<string, unknown>)[key] = value;
  }
  Object.defineProperty(result, RESOLVED_BY_TOOLSMITH, { value: true });
  resolved.add(result);
  return result;
}

/** Whether the invocation may make another model call after `made` of them. */
export function withinModelCallLimit(made: number, runConfig: ResolvedRunConfig): boolean {
  return runConfig.maxLlmCalls <= 0 || made <= runConfig.maxLlmCalls;
}

function invalid(message: string): ConfigurationError {
  return new ConfigurationError("INVALID_RUN_CONFIG", message);
}
