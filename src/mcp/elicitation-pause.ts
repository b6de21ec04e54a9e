import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { ToolConfirmation } from "../events/event-actions.js";
import type { ToolContext } from "../tools/tool-context.js";
import type { CallInFlight, ElicitationAsked } from "./call-in-flight.js";

/**
 * Every confirmation that carries a server's question starts with this, so a
 * resumed call knows the answer is for the server even when a client sent
 * back another payload (the hint comes from the stored request, not the client).
 */
export const ELICITATION_HINT_PREFIX = "The MCP server asks: ";

/** What the person is asked: the server's message and form, and the form's defaults to start from. */
export interface ElicitationPayload {
  mcpElicitation: { message: string; requestedSchema: ElicitRequestedSchema };
  /** The answer: the form's values. Starts as the schema's defaults. */
  content: Record<string, unknown>;
  /** Set to `"cancel"` to dismiss the question instead of answering or declining it. */
  action?: "cancel";
}

type ElicitRequestedSchema = Extract<ElicitRequest["params"], { requestedSchema: unknown }>["requestedSchema"];

/** A call waiting for the person's answer to its server's question. */
export interface ParkedCall {
  flight: CallInFlight;
  /** The call's outcome, whenever the server sends it. */
  result: Promise<unknown>;
  asked: ElicitationAsked;
}

/**
 * Calls kept open while a person answers their server's question, in this
 * process's memory, each for at most `waitMs`. When that passes the server is
 * told `cancel` and the call is forgotten; an answer after that (or after a
 * restart, which empties this) reaches no call, and the model is told so.
 */
export class ParkedCalls {
  readonly #parked = new Map<string, { call: ParkedCall; timer: NodeJS.Timeout }>();
  readonly #waitMs: number;

  constructor(waitMs: number) {
    this.#waitMs = waitMs;
  }

  /** Keeps a call until its answer comes, or `waitMs` passes. */
  park(key: string, call: ParkedCall): void {
    const timer = setTimeout(() => this.#expire(key), this.#waitMs);
    timer.unref();
    this.#parked.set(key, { call, timer });
  }

  /** The call waiting under this key, taken out (so an answer is used once). */
  take(key: string): ParkedCall | undefined {
    const parked = this.#parked.get(key);
    if (!parked) return undefined;
    clearTimeout(parked.timer);
    this.#parked.delete(key);
    return parked.call;
  }

  /** Tells every waiting server `cancel` (the toolset closes). */
  cancelAll(): void {
    for (const key of [...this.#parked.keys()]) this.#expire(key);
  }

  #expire(key: string): void {
    const call = this.take(key);
    if (!call) return;
    call.asked.answer({ action: "cancel" });
    // The server finishes (or is cancelled by the call's own clock); nobody waits for the result.
    call.flight.touch();
    call.result.catch(() => undefined);
  }
}

/** The key of a parked call: its session and function call. */
export function parkingKey(context: ToolContext): string {
  return `${context.sessionId}\u0000${context.functionCallId}`;
}

/** The confirmation request that asks the person the server's question. */
export function elicitationRequest(params: ElicitRequest["params"], problem?: string): { hint: string; payload: ElicitationPayload } {
  const requestedSchema: ElicitRequestedSchema = "requestedSchema" in params ? params.requestedSchema : { type: "object", properties: {} };
  const defaults = Object.fromEntries(Object.entries(requestedSchema.properties ?? {}).flatMap(([name, property]) => ("default" in property ? [[name, property.default]] : [])));
  return {
    hint: `${ELICITATION_HINT_PREFIX}${params.message}${problem ? ` (${problem})` : ""}`,
    payload: { mcpElicitation: { message: params.message, requestedSchema }, content: defaults },
  };
}

/** Whether a confirmation answers a server's question rather than approving a call. */
export function answersElicitation(confirmation: ToolConfirmation): boolean {
  const payload = confirmation.payload as Partial<ElicitationPayload> | undefined;
  return confirmation.hint?.startsWith(ELICITATION_HINT_PREFIX) === true || (typeof payload === "object" && payload !== null && "mcpElicitation" in payload);
}

/**
 * The answer for the server: `decline` when the person said no, `cancel` when
 * they dismissed it, else `accept` with the form's values (`content`, or the
 * whole payload from a client that sent the values alone), checked against
 * the server's schema: `{ problem }` says what does not fit.
 */
export function elicitResultOf(confirmation: ToolConfirmation, params: ElicitRequest["params"]): { result: ElicitResult } | { problem: string } {
  if (!confirmation.confirmed) return { result: { action: "decline" } };
  const notObject = (value: unknown) => typeof value !== "object" || value === null || Array.isArray(value);
  const given = confirmation.payload ?? {};
  if (notObject(given)) return { problem: "the answer must be an object of the form's fields" };
  const payload = given as Partial<ElicitationPayload> & Record<string, unknown>;
  if (payload.action === "cancel") return { result: { action: "cancel" } };
  const content = ("mcpElicitation" in payload || "content" in payload ? payload.content : payload) ?? {};
  if (notObject(content)) return { problem: "the answer must be an object of the form's fields" };
  if ("requestedSchema" in params) {
    const check = new AjvJsonSchemaValidator().getValidator<Record<string, unknown>>(params.requestedSchema as never)(content);
    if (!check.valid) return { problem: `the answer does not fit the form: ${check.errorMessage ?? "invalid"}` };
  }
  return { result: { action: "accept", content: content as ElicitResult["content"] } };
}
