import { allAgents, findAgent, type Agent } from "../agents/agent.js";
import { newId } from "../events/new-id.js";
import type { InvocationContext, RunConfig } from "../agents/invocation-context.js";
import { LlmAgent } from "../agents/llm-agent.js";
import type { ArtifactService } from "../artifacts/artifact-service.js";
import { InMemoryArtifactService } from "../artifacts/in-memory-artifact-service.js";
import { SessionNotFoundError } from "../errors/toolsmith-error.js";
import type { Content } from "../events/content.js";
import { createEvent, type Event } from "../events/event.js";
import { InMemoryMemoryService } from "../memory/in-memory-memory-service.js";
import type { MemoryService } from "../memory/memory-service.js";
import { InMemorySessionService } from "../sessions/in-memory-session-service.js";
import { assertJsonValue } from "../sessions/json-value.js";
import type { Session } from "../sessions/session.js";
import type { SessionService } from "../sessions/session-service.js";
import { isToolset, type Toolset } from "../tools/tool.js";

/** Options of {@link Runner}. */
export interface RunnerOptions {
  appName: string;
  /** The root agent. */
  agent: Agent;
  /** Defaults to an {@link InMemorySessionService}. */
  sessionService?: SessionService;
  /** Defaults to an {@link InMemoryArtifactService}. */
  artifactService?: ArtifactService;
  /** Defaults to an {@link InMemoryMemoryService}. */
  memoryService?: MemoryService;
}

/** Options of {@link Runner.runAsync}. */
export interface RunAsyncRequest {
  userId: string;
  sessionId: string;
  /** The user's message; absent to let the agent continue (after a long-running result, say). */
  newMessage?: Content;
  /** State changes applied with the user's message. */
  stateDelta?: Record<string, unknown>;
  runConfig?: RunConfig;
  /** Cancels the run: the model call and running tools are aborted, and no further events come. */
  abortSignal?: AbortSignal;
}

/**
 * Runs agents over sessions: stores the user's message, lets the agent produce
 * events, stores each complete event (applying its state changes) and yields
 * every event, partial ones included, to the caller.
 *
 * @example
 * ```ts
 * const runner = new Runner({ appName: "weather", agent });
 * const session = await runner.sessionService.createSession({ appName: "weather", userId: "u1" });
 * for await (const event of runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Weather in Paris?" }] } })) {
 *   if (isFinalResponse(event)) console.log(event.content?.parts?.[0]?.text);
 * }
 * ```
 */
export class Runner {
  readonly appName: string;
  readonly agent: Agent;
  readonly sessionService: SessionService;
  readonly artifactService: ArtifactService;
  readonly memoryService: MemoryService;

  constructor(options: RunnerOptions) {
    this.appName = options.appName;
    this.agent = options.agent;
    this.sessionService = options.sessionService ?? new InMemorySessionService();
    this.artifactService = options.artifactService ?? new InMemoryArtifactService();
    this.memoryService = options.memoryService ?? new InMemoryMemoryService();
  }

  /** Runs one turn and yields its events as they happen. */
  async *runAsync(request: RunAsyncRequest): AsyncGenerator<Event, void, undefined> {
    const session = await this.sessionService.getSession({ appName: this.appName, userId: request.userId, sessionId: request.sessionId });
    if (!session) throw new SessionNotFoundError({ appName: this.appName, userId: request.userId, sessionId: request.sessionId });
    for (const [key, value] of Object.entries(request.stateDelta ?? {})) assertJsonValue(key, value);

    const cancel = new AbortController();
    const abortSignal = request.abortSignal ? AbortSignal.any([request.abortSignal, cancel.signal]) : cancel.signal;
    const invocationId = newId("e-");
    if (request.newMessage || request.stateDelta) {
      const userEvent = createEvent({ invocationId, author: "user", content: request.newMessage, actions: { stateDelta: { ...request.stateDelta } } });
      await this.sessionService.appendEvent({ session, event: userEvent });
    }
    const agent = this.#agentToRun(session);
    const context: InvocationContext = {
      invocationId,
      agent,
      session,
      sessionService: this.sessionService,
      artifactService: this.artifactService,
      memoryService: this.memoryService,
      userContent: request.newMessage,
      runConfig: { streamingMode: request.runConfig?.streamingMode ?? "none", maxLlmCalls: request.runConfig?.maxLlmCalls ?? 500 },
      abortSignal,
      counters: { llmCalls: 0 },
      endInvocation: { value: false },
    };
    let finished = false;
    try {
      for await (const event of agent.runAsync(context)) {
        if (!event.partial) await this.sessionService.appendEvent({ session, event });
        yield event;
      }
      finished = true;
    } finally {
      // Reached unfinished when the caller stops iterating or something threw: stop the tools still running.
      if (!finished) cancel.abort(new Error("The run was stopped by its caller."));
    }
  }

  /** Closes every toolset of every agent in the tree (MCP connections, processes). */
  async close(): Promise<void> {
    const toolsets = new Set<Toolset>();
    for (const agent of allAgents(this.agent)) {
      if (agent instanceof LlmAgent) for (const entry of agent.tools) if (isToolset(entry)) toolsets.add(entry);
    }
    await Promise.all([...toolsets].map((toolset) => toolset.close()));
  }

  /** The agent that answered last in this session, so a follow-up goes to it; the root otherwise. */
  #agentToRun(session: Session): Agent {
    for (let index = session.events.length - 1; index >= 0; index--) {
      const author = session.events[index]!.author;
      if (author === "user") continue;
      return findAgent(this.agent, author) ?? this.agent;
    }
    return this.agent;
  }
}

/** A {@link Runner} over in-memory services, for tests and scripts. */
export class InMemoryRunner extends Runner {
  constructor(options: { agent: Agent; appName?: string }) {
    super({ appName: options.appName ?? "InMemoryRunner", agent: options.agent });
  }
}
