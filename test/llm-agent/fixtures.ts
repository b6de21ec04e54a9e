/** Shared pieces for the LLM loop's direct tests: a real invocation over an in-memory session, events and tools. */
import type { CallsResult } from "../../src/llm-agent/execute-function-calls.js";
import { createInvocationContext, type InvocationContext, type InvocationContextParams } from "../../src/agents/invocation-context.js";
import type { Agent } from "../../src/agents/agent.js";
import { InMemoryArtifactService } from "../../src/artifacts/in-memory-artifact-service.js";
import type { FunctionCall } from "../../src/content/content.js";
import { createEvent, type Event, type EventInit } from "../../src/events/event.js";
import { InMemorySessionService } from "../../src/sessions/in-memory-session-service.js";
import { FunctionTool } from "../../src/tools/function-tool.js";
import type { ToolContext } from "../../src/tools/tool-context.js";

/** An invocation of `agent` over a fresh in-memory session holding `events` and `state`. */
export async function invocationFor(
  agent: Agent,
  options: { events?: Event[]; state?: Record<string, unknown> } & Partial<Omit<InvocationContextParams, "agent" | "session" | "sessionService">> = {},
): Promise<InvocationContext> {
  const { events = [], state, ...rest } = options;
  const sessionService = new InMemorySessionService();
  const session = await sessionService.createSession({ appName: "app", userId: "u", state });
  for (const event of events) await sessionService.appendEvent({ session, event });
  return createInvocationContext({ agent, session, sessionService, artifactService: new InMemoryArtifactService(), ...rest });
}

/** Runs an agent's loop as the runner does: every complete event is stored before the loop goes on. */
export async function drive(events: AsyncIterable<Event>, context: InvocationContext): Promise<Event[]> {
  const seen: Event[] = [];
  for await (const event of events) {
    if (!event.partial) await context.sessionService.appendEvent({ session: context.session, event });
    seen.push(event);
  }
  return seen;
}

export const event = (init: Omit<EventInit, "invocationId">): Event => createEvent({ invocationId: "earlier", ...init });
export const say = (author: string, text: string, extra: Partial<EventInit> = {}): Event =>
  event({ author, content: { role: author === "user" ? "user" : "model", parts: [{ text }] }, ...extra });
export const callEvent = (author: string, calls: FunctionCall[], extra: Partial<EventInit> = {}): Event =>
  event({ author, content: { role: "model", parts: calls.map((functionCall) => ({ functionCall })) }, ...extra });
export const responseEvent = (author: string, id: string, name: string, response: Record<string, unknown>, extra: Partial<EventInit> = {}): Event =>
  event({ author, content: { role: "user", parts: [{ functionResponse: { id, name, response } }] }, ...extra });

/** A tool with no parameters that runs `execute`. */
export function tool(name: string, execute: (args: Record<string, unknown>, context: ToolContext) => unknown, extra: { timeoutMs?: number; isLongRunning?: boolean; requireConfirmation?: boolean } = {}) {
  return new FunctionTool({ name, description: `The ${name} tool.`, parameters: { type: "object", properties: {}, additionalProperties: true }, execute, ...extra });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The text parts of an event, joined. */
export const textOf = (event: Pick<Event, "content"> | undefined): string => (event?.content?.parts ?? []).map((part) => part.text ?? "").join("");

/** What one model call produced, in order: the partial events it yielded, then the complete event it returned (when not cancelled). */
export async function modelCallEvents(call: Promise<Event | undefined> | AsyncGenerator<Event, Event | undefined, undefined>): Promise<Event[]> {
  if (call instanceof Promise) {
    const answered = await call;
    return answered ? [answered] : [];
  }
  const events: Event[] = [];
  let step = await call.next();
  for (; !step.done; step = await call.next()) events.push(step.value);
  if (step.value) events.push(step.value);
  return events;
}

/**
 * A batch of calls run to the end: its events in the order the loop yields them (what the tools streamed, the
 * response event, the request to the client), and the result it returned.
 */
export async function callBatchEvents(batch: (emit: (event: Event) => Promise<void>) => Promise<CallsResult | undefined>): Promise<{ events: Event[]; result: CallsResult | undefined }> {
  const events: Event[] = [];
  const result = await batch(async (event) => void events.push(event));
  if (result) events.push(result.responseEvent, ...(result.clientRequest ? [result.clientRequest] : []));
  return { events, result };
}
