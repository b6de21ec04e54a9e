import type { ArtifactService } from "../artifacts/artifact-service.js";
import type { Content } from "../events/content.js";
import type { MemoryService } from "../memory/memory-service.js";
import type { CredentialService } from "../auth/credential-service.js";
import type { Session } from "../sessions/session.js";
import type { SessionService } from "../sessions/session-service.js";
import type { Agent } from "./agent.js";

/** Settings for one run. */
export interface RunConfig {
  /** `"sse"` streams partial text events as the model produces them. Default `"none"`. */
  streamingMode?: "none" | "sse";
  /** Upper bound on model calls in one invocation, against endless tool loops. Default 500. */
  maxLlmCalls?: number;
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
  /** Set to stop the invocation after the current step. */
  endInvocation: { value: boolean };
}

/** The same invocation, with another agent running (and optionally another branch). */
export function forAgent(context: InvocationContext, agent: Agent, branch?: string): InvocationContext {
  return { ...context, agent, branch: branch ?? context.branch };
}
