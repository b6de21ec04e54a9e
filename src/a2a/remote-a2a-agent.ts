import type { AgentCard, Message, MessageSendConfiguration, MessageSendParams, Part as A2APart } from "@a2a-js/sdk";
import type { Client, ClientFactory } from "@a2a-js/sdk/client";
import { BaseAgent, type BaseAgentConfig } from "../agents/base-agent.js";
import { BASE_AGENT_OPTIONS } from "../agents/workflow-agent.js";
import { refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import type { InvocationContext } from "../agents/invocation-context.js";
import type { Part } from "../content/content.js";
import { ConfigurationError, isToolsmithError, ToolsmithError, type ToolsmithErrorCode } from "../errors/toolsmith-error.js";
import { createEvent, type Event } from "../events/event.js";
import { findMatchingFunctionCall } from "../events/find-events.js";
import { newId } from "../events/new-id.js";
import type { Session } from "../sessions/session.js";
import { resolveAgentCard } from "./agent-card.js";
import { loadA2AClient } from "./load-sdk.js";
import { EVENT_A2A_KEYS, sessionMetadata, A2A_METADATA_KEYS } from "./metadata.js";
import { toA2AParts } from "./parts.js";
import { RemoteTaskCancellation } from "./remote-task-cancellation.js";
import { isArtifactUpdate, isStatusUpdate, isTask, metadataOf, type A2AStreamEventData } from "./task-events.js";
import { toEvent } from "./to-event.js";

/**
 * Runs before a request goes to the remote agent; it may change `params` (what is sent). A callback that throws
 * ends the run with an error event and nothing is sent.
 */
export type BeforeA2ARequestCallback = (context: InvocationContext, params: MessageSendParams) => Promise<void> | void;

/** Runs on each response (or streamed update) from the remote agent, before it becomes an event. */
export type AfterA2ARequestCallback = (context: InvocationContext, response: A2AStreamEventData) => Promise<void> | void;

/** Options of {@link RemoteA2AAgent}, as ADK's `RemoteA2AAgentConfig`. */
export interface RemoteA2AAgentConfig extends BaseAgentConfig {
  /**
   * The remote agent's card, or where to read it: a URL (the card's own URL, ending in `.json`, or the agent's
   * base URL, under which `.well-known/agent-card.json` is read) or a file path.
   */
  agentCard?: AgentCard | string;
  /** A client made already (for connection reuse or custom transports); the card, when given too, is still read. */
  client?: Client;
  /** Makes the client from the card (default: `@a2a-js/sdk`'s `ClientFactory` with JSON-RPC and REST). */
  clientFactory?: ClientFactory;
  /** Sent with every message (`acceptedOutputModes`, `blocking`, `historyLength`, …). */
  messageSendConfig?: MessageSendConfiguration;
  /** Run in order before each request. */
  beforeRequestCallbacks?: BeforeA2ARequestCallback[];
  /** Run in order on each response or streamed update. */
  afterRequestCallbacks?: AfterA2ARequestCallback[];
}

const REMOTE_AGENT_OPTIONS = [...BASE_AGENT_OPTIONS, "agentCard", "client", "clientFactory", "messageSendConfig", "beforeRequestCallbacks", "afterRequestCallbacks"];

/**
 * An agent that runs on another server and is reached over A2A (the agent-to-agent protocol, version 0.3), as
 * ADK's `RemoteA2AAgent`. Give it to an agent's `subAgents` (a model transfers to it), run it in a workflow agent,
 * or make it a runner's root. Each run sends the remote agent what its session holds since the remote agent last
 * answered (other agents' words as "For context:" lines, as ADK does), in the A2A context the remote agent chose,
 * and turns what it streams back into this session's events. A remote task waiting for input (a long-running call)
 * pauses the run; the function response the client sends next goes back to that task.
 *
 * Nothing the remote agent sends can change this session's state, artifacts or transfers: only its words, its
 * calls and `escalate` are taken. A failed request or a failed remote task ends the run with an error event
 * (`A2A_REQUEST_FAILED`, `A2A_TASK_FAILED`, or `A2A_INVALID_MESSAGE` for a reply that is not A2A); nothing is
 * retried, since the remote agent may have acted.
 *
 * @example
 * ```ts
 * import { RemoteA2AAgent } from "toolsmith/a2a";
 * const prime = new RemoteA2AAgent({ name: "prime_agent", agentCard: "http://localhost:8001/a2a/prime_agent" });
 * const root = new LlmAgent({ name: "root", model: "gemini-2.5-flash", subAgents: [prime], instruction: "…" });
 * ```
 */
export class RemoteA2AAgent extends BaseAgent {
  readonly #options: RemoteA2AAgentConfig;
  #connection: Promise<{ client: Client; card: AgentCard | undefined }> | undefined;

  constructor(config: RemoteA2AAgentConfig) {
    super(config);
    // A subclass may take options of its own; this class refuses what it does not know rather than ignore it.
    if (new.target === RemoteA2AAgent) refuseUnhonouredOptions(`RemoteA2AAgent "${config.name}"`, config, REMOTE_AGENT_OPTIONS);
    if (!config.agentCard && !config.client) {
      throw new ConfigurationError("INVALID_A2A_AGENT", `RemoteA2AAgent "${config.name}" needs an agentCard (a card, its URL or a file path) or a client made with @a2a-js/sdk.`);
    }
    this.#options = config;
  }

  /** The client and card, made once; a failed attempt is forgotten so the next run tries again. */
  #connect(): Promise<{ client: Client; card: AgentCard | undefined }> {
    this.#connection ??= (async () => {
      const card = this.#options.agentCard === undefined ? undefined : await resolveAgentCard(this.#options.agentCard);
      let client = this.#options.client;
      if (!client) {
        const factory = this.#options.clientFactory ?? new (await loadA2AClient()).ClientFactory();
        client = await factory.createFromAgentCard(card!);
      }
      return { client, card };
    })();
    this.#connection.catch(() => (this.#connection = undefined));
    return this.#connection;
  }

  protected async *runAsyncImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    try {
      const { client, card } = await this.#connect();
      const params = this.#request(context);
      for (const callback of this.#options.beforeRequestCallbacks ?? []) await callback(context, params);
      const aggregator = new PartialAggregator(this.name, context.invocationId, context.branch);
      const origin = { invocationId: context.invocationId, author: this.name, branch: context.branch };
      if (card?.capabilities?.streaming !== false) {
        // A cancelled run cancels the remote task it started, once the remote agent has named it.
        const cancellation = new RemoteTaskCancellation(context.abortSignal, client, this.name);
        try {
          for await (const response of client.sendMessageStream(params, { signal: cancellation.signal })) {
            cancellation.seen(response);
            if (context.abortSignal.aborted) continue;
            for (const callback of this.#options.afterRequestCallbacks ?? []) await callback(context, response);
            const event = toEvent(response, origin);
            if (!event) continue;
            addA2AMetadata(event, params, response);
            yield* aggregator.add(response, event);
          }
        } finally {
          await cancellation.settled();
          cancellation.dispose();
        }
      } else {
        // A blocking request names its task only when it ends: a cancelled run stops waiting for it.
        const response = (await client.sendMessage(params, { signal: context.abortSignal })) as A2AStreamEventData;
        for (const callback of this.#options.afterRequestCallbacks ?? []) await callback(context, response);
        const event = toEvent(response, origin);
        if (event) {
          addA2AMetadata(event, params, response);
          yield event;
        }
      }
    } catch (error) {
      // A cancelled run ends without an event, as every cancelled run does.
      if (!context.abortSignal.aborted) yield this.#errorEvent(context, error);
    }
  }

  /** What to send: the answer to the remote task's waiting call, or what the session holds since its last reply. */
  #request(context: InvocationContext): MessageSendParams {
    const session = context.session;
    if (session.events.length === 0) throw new ToolsmithError("A2A_REQUEST_FAILED", `RemoteA2AAgent "${this.name}" has nothing to send: the session has no events. Run it with a message.`);
    const answer = answerToRemoteCall(session);
    const { parts, taskId, contextId } = answer ?? { ...partsSinceLastReply(session, this.name, context.invocationId), taskId: undefined };
    const message: Message = {
      kind: "message",
      messageId: newId(),
      role: "user",
      parts,
      metadata: sessionMetadata({ appName: session.appName, userId: session.userId, sessionId: session.id }),
    };
    if (taskId) message.taskId = taskId;
    if (contextId) message.contextId = contextId;
    return { message, configuration: this.#options.messageSendConfig };
  }

  #errorEvent(context: InvocationContext, error: unknown): Event {
    const code: ToolsmithErrorCode = isToolsmithError(error) ? error.code : "A2A_REQUEST_FAILED";
    const reason = error instanceof Error ? error.message : String(error);
    const errorMessage = isToolsmithError(error)
      ? reason
      : `The request to remote agent "${this.name}" failed: ${reason}. Nothing was retried (the remote agent may have acted); check that its agent card and URL are reachable and run again.`;
    return createEvent({ author: this.name, invocationId: context.invocationId, branch: context.branch, errorCode: code, errorMessage, turnComplete: true });
  }
}

/**
 * When the session's last event is the user's function response to a call the remote agent made (its task waits
 * for it), that response, with the task and context the call came from; undefined otherwise.
 */
function answerToRemoteCall(session: Session): { parts: A2APart[]; taskId: string; contextId: string } | undefined {
  const last = session.events[session.events.length - 1]!;
  if (last.author !== "user") return undefined;
  const request = findMatchingFunctionCall(session.events);
  if (!request) return undefined;
  const metadata = request.customMetadata ?? {};
  return {
    parts: toA2AParts(last.content?.parts, last.longRunningToolIds),
    taskId: String(metadata[EVENT_A2A_KEYS.taskId] ?? ""),
    contextId: String(metadata[EVENT_A2A_KEYS.contextId] ?? ""),
  };
}

/**
 * The parts of every event since the remote agent last answered, in the A2A context of that answer: the user's as
 * they are, other agents' retold as "For context:" lines (as ADK's `presentAsUserMessage`), thoughts left out.
 */
function partsSinceLastReply(session: Session, agentName: string, invocationId: string): { parts: A2APart[]; contextId: string | undefined } {
  const events = session.events;
  let start = 0;
  let contextId: string | undefined;
  for (let index = events.length - 1; index >= 0; index--) {
    if (events[index]!.author !== agentName) continue;
    start = index + 1;
    const id = events[index]!.customMetadata?.[EVENT_A2A_KEYS.contextId];
    contextId = typeof id === "string" ? id : undefined;
    break;
  }
  const parts: A2APart[] = [];
  for (const event of events.slice(start)) {
    const shown = event.author === "user" || event.author === agentName ? event : retoldAsUser(event, invocationId);
    if (!shown.content?.parts?.length) continue;
    parts.push(...toA2AParts(shown.content.parts, shown.longRunningToolIds));
  }
  return { parts, contextId };
}

/** Another agent's event told to the remote agent as the user's: ADK's "For context:" wording. */
function retoldAsUser(event: Event, invocationId: string): Event {
  const parts: Part[] = [{ text: "For context:" }];
  for (const part of event.content?.parts ?? []) {
    if (part.thought) continue;
    if (part.text) parts.push({ text: `[${event.author}] said: ${part.text}` });
    else if (part.functionCall) parts.push({ text: `[${event.author}] called tool ${part.functionCall.name} with parameters: ${JSON.stringify(part.functionCall.args)}` });
    else if (part.functionResponse) parts.push({ text: `[${event.author}] ${part.functionResponse.name} tool returned result: ${JSON.stringify(part.functionResponse.response)}` });
    else parts.push(part);
  }
  return createEvent({ author: "user", invocationId, content: parts.length > 1 ? { role: "user", parts } : undefined });
}

/**
 * Records on the event what it came from, under `customMetadata` as ADK does: `a2a:request` (on the event that
 * completes the turn), `a2a:response`, and the task and context ids a later turn continues in.
 */
function addA2AMetadata(event: Event, request: MessageSendParams, response: A2AStreamEventData): void {
  const added: Record<string, unknown> = {};
  if (event.turnComplete) added["a2a:request"] = request;
  added["a2a:response"] = response;
  const taskId = isTask(response) ? response.id : (response as { taskId?: string }).taskId;
  if (taskId) {
    added[EVENT_A2A_KEYS.taskId] = taskId;
    if (response.contextId) added[EVENT_A2A_KEYS.contextId] = response.contextId;
  }
  event.customMetadata = { ...event.customMetadata, ...added };
}

interface Aggregation {
  text: string;
  thoughts: string;
  parts: Part[];
  citations?: { citations: unknown[] };
  customMetadata?: Record<string, unknown>;
  grounding?: unknown;
  usage?: unknown;
}

/**
 * Streamed artifact chunks as ADK gathers them: each chunk is yielded as a partial event, and when an artifact's
 * last chunk (or the task's final status) arrives, the whole artifact follows as one complete event, its text
 * joined, so the session keeps one event per artifact rather than every chunk.
 */
class PartialAggregator {
  readonly #aggregations = new Map<string, Aggregation>();

  constructor(
    readonly author: string,
    readonly invocationId: string,
    readonly branch: string | undefined,
  ) {}

  add(response: A2AStreamEventData, event: Event): Event[] {
    if (metadataOf(response)[A2A_METADATA_KEYS.partial]) return [event];
    if (isStatusUpdate(response) && response.final) {
      const complete = [...this.#aggregations.values()].map((aggregation) => this.#complete(aggregation));
      this.#aggregations.clear();
      return [...complete, event];
    }
    if (isTask(response)) {
      this.#aggregations.clear();
      return [event];
    }
    if (!isArtifactUpdate(response)) return [event];
    const artifactId = response.artifact.artifactId;
    if (!response.append) {
      this.#aggregations.delete(artifactId);
      if (response.lastChunk) {
        event.partial = false;
        return [event];
      }
    }
    // Most recently updated last: the final status completes artifacts in that order, as ADK does.
    let aggregation = this.#aggregations.get(artifactId);
    this.#aggregations.delete(artifactId);
    aggregation ??= { text: "", thoughts: "", parts: [] };
    this.#aggregations.set(artifactId, aggregation);
    gather(aggregation, event);
    if (!response.lastChunk) return [event];
    this.#aggregations.delete(artifactId);
    return [event, this.#complete(aggregation)];
  }

  #complete(aggregation: Aggregation): Event {
    promoteText(aggregation);
    return createEvent({
      author: this.author,
      invocationId: this.invocationId,
      branch: this.branch,
      content: aggregation.parts.length > 0 ? { role: "model", parts: [...aggregation.parts] } : undefined,
      customMetadata: aggregation.customMetadata,
      groundingMetadata: aggregation.grounding as Event["groundingMetadata"],
      citationMetadata: aggregation.citations as Event["citationMetadata"],
      usageMetadata: aggregation.usage as Event["usageMetadata"],
      turnComplete: false,
      partial: false,
    });
  }
}

function gather(aggregation: Aggregation, event: Event): void {
  for (const part of event.content?.parts ?? []) {
    if (part.text) {
      if (part.thought) aggregation.thoughts += part.text;
      else aggregation.text += part.text;
    } else {
      promoteText(aggregation);
      aggregation.parts.push(part);
    }
  }
  if (event.citationMetadata) (aggregation.citations ??= { citations: [] }).citations.push(...((event.citationMetadata as { citations?: unknown[] }).citations ?? []));
  if (event.customMetadata) aggregation.customMetadata = { ...aggregation.customMetadata, ...event.customMetadata };
  if (event.groundingMetadata) aggregation.grounding = event.groundingMetadata;
  if (event.usageMetadata) aggregation.usage = event.usageMetadata;
}

/** The text gathered so far as parts: the thoughts first, then the words, as ADK orders them. */
function promoteText(aggregation: Aggregation): void {
  if (aggregation.thoughts !== "") aggregation.parts.push({ thought: true, text: aggregation.thoughts });
  if (aggregation.text !== "") aggregation.parts.push({ text: aggregation.text });
  aggregation.thoughts = "";
  aggregation.text = "";
}
