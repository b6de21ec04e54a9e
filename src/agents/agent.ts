import type { TraceScope } from "../telemetry/spans.js";
import type { ArtifactService } from "../artifacts/artifact-service.js";
import type { Content } from "../content/content.js";
import type { MemoryService } from "../memory/memory-service.js";
import type { CredentialService } from "../auth/credential-service.js";
import type { Session } from "../sessions/session.js";
import type { SessionService } from "../sessions/session-service.js";
import type { AuthConfig, ToolConfirmation } from "../events/event-actions.js";

import type { Event } from "../events/event.js";
import type { LlmRequest } from "../models/llm-request.js";
import type { GenerateContentOptions } from "../models/model.js";
import type { LlmResponse } from "../models/llm-response.js";
import type { RunCancellation } from "./run-cancellation.js";

/**
 * An agent: something that, given an invocation, produces events. `LlmAgent`
 * drives a model; workflow agents run their sub-agents in a fixed order.
 */
export interface Agent {
  readonly name: string;
  /** Tells other agents (and models choosing a transfer target) what this agent does. */
  readonly description: string;
  readonly subAgents: readonly Agent[];
  /** Set when the agent is placed under another; an agent has at most one parent. */
  readonly parentAgent?: Agent;
  runAsync(context: InvocationContext): AsyncGenerator<Event, void, undefined>;
}

/** The agent with this name in the tree under `root` (including `root`), if any. */
export function findAgent(root: Agent, name: string): Agent | undefined {
  return root.name === name ? root : findAgentBelow(root, name);
}

/** The agent with this name under `root` (not `root` itself), if any. */
export function findAgentBelow(root: Agent, name: string): Agent | undefined {
  for (const child of root.subAgents) {
    const found = findAgent(child, name);
    if (found) return found;
  }
  return undefined;
}

/** Every agent in the tree under `root`, root first. */
export function allAgents(root: Agent): Agent[] {
  return [root, ...root.subAgents.flatMap(allAgents)];
}

/** Settings for one run. */
export interface RunConfig {
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
}

/**
 * Everything one agent needs while it runs within an invocation. Created by the
 * runner; agents derive a child context for each sub-agent they run.
 */
export interface InvocationContext {
  readonly invocationId: string;
  /** The agent running now. */
  readonly agent: Agent;
  readonly session: Session;
  readonly sessionService: SessionService;
  readonly artifactService?: ArtifactService;
  readonly memoryService?: MemoryService;
  readonly credentialService?: CredentialService;
  readonly userContent?: Content;
  /** The user's message when it answers paused calls (function responses); inner agents resume from it. */
  readonly resumeMessage?: Content;
  /**
   * What that message answered, by the id of the paused call each answer lets
   * go on; read once, by the runner, before the message was stored.
   */
  readonly resumeAnswers?: ReadonlyMap<string, ClientAnswer>;
  readonly runConfig: Required<RunConfig>;
  /** Aborted when the caller cancels the run. */
  readonly abortSignal: AbortSignal;
  /** Dotted agent path isolating this agent's view of history in parallel branches. */
  readonly branch?: string;
  /** Set for an agent run as a tool: it sees only events of this branch and below. */
  readonly historyRoot?: string;
  /** Shared by all agents of the invocation. */
  readonly counters: { llmCalls: number };
  /**
   * When the invocation answers a paused call (a confirmation, a credential, a
   * long-running result): the agent that owns it, so workflow agents continue
   * with the child that holds it instead of starting over.
   */
  readonly resumeAgent?: Agent;
  /**
   * Set to `true` to end the invocation after the current step, as in ADK. In a context toolsmith made, the flag
   * belongs to the invocation: every agent's context reads and writes the same one, so a sub-agent that sets it also
   * stops the workflow agents around it (ADK copies it per agent). A copy made by spreading a context takes the
   * value it had then.
   */
  endInvocation: boolean;
  /** The runner's plugins, run around every agent, model call and tool call. */
  readonly plugins?: PluginHooks;
  /**
   * Where this agent's spans go (OpenTelemetry, and in-process listeners such
   * as the dev UI's trace view). Contexts made by toolsmith always have one; a
   * context built by hand without one traces from the active span.
   */
  readonly trace?: TraceScope;
  /**
   * Work toolsmith keeps for the length of the invocation so that it is not done again (the model request's
   * contents built so far). Made by `createInvocationContext` and shared by the invocation's agents; a context
   * built by hand may leave it out. Not for agents' own use.
   */
  readonly memo?: {
    contents?: object;
    cancellation?: RunCancellation;
    /** The options of the invocation's model calls, one object each way, whose signal is made when read. */
    modelCallOptions?: GenerateContentOptions;
    streamingCallOptions?: GenerateContentOptions;
    /** The invocation's `endInvocation` flag, which every context of the invocation reads and writes. */
    invocationEnded?: boolean;
  };
}

/**
 * What agents and the LLM loop ask of the runner's plugins (ADK's
 * `PluginManager` implements it). Each hook runs the plugins in order and
 * returns the first value one of them returns; `undefined` lets the agent's
 * own callbacks (and then the agent, model or tool) run. Contexts are the
 * ones the agent's callbacks get, so state changes land on the same event.
 */
export interface PluginHooks {
  runBeforeAgentCallback(params: { agent: Agent; callbackContext: object }): Promise<Content | undefined>;
  runAfterAgentCallback(params: { agent: Agent; callbackContext: object }): Promise<Content | undefined>;
  runBeforeModelCallback(params: { callbackContext: object; llmRequest: LlmRequest }): Promise<LlmResponse | undefined>;
  runAfterModelCallback(params: { callbackContext: object; llmResponse: LlmResponse }): Promise<LlmResponse | undefined>;
  runOnModelErrorCallback(params: { callbackContext: object; llmRequest: LlmRequest; error: Error }): Promise<LlmResponse | undefined>;
  runBeforeToolCallback(params: { tool: { readonly name: string }; toolArgs: Record<string, unknown>; toolContext: object }): Promise<Record<string, unknown> | undefined>;
  runAfterToolCallback(params: { tool: { readonly name: string }; toolArgs: Record<string, unknown>; toolContext: object; result: Record<string, unknown> }): Promise<Record<string, unknown> | undefined>;
  runOnToolErrorCallback(params: { tool: { readonly name: string }; toolArgs: Record<string, unknown>; toolContext: object; error: Error }): Promise<Record<string, unknown> | undefined>;
}

/** What a client's answer unlocks for one paused call. */
export interface ClientAnswer {
  /** The person's decision on a call that asked for confirmation. */
  confirmation?: ToolConfirmation;
  /** The credential the client sent, and the request as stored (with secrets the client never saw). */
  credential?: { answer: AuthConfig; requested?: AuthConfig };
}
