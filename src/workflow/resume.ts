import type { InvocationContext } from "../agents/invocation-context.js";
import type { Content } from "../content/content.js";
import { ToolsmithError } from "../errors/toolsmith-error.js";
import type { Event, RouteValue } from "../events/event.js";
import { requiresUserInput } from "../pause/user-input-requests.js";
import { REQUEST_INPUT_FUNCTION_CALL_NAME } from "../tools/request-input-tool.js";
import { compileArgumentsCheck } from "../tools/json-schema-validator.js";
import type { JsonSchema } from "../tools/tool.js";

/** What a node resumed without running gives: its output and route, or the questions it still waits on. */
export interface ResumedRun {
  output: unknown;
  route?: RouteValue | RouteValue[];
  branch?: string;
  interruptIds: string[];
}

/** One earlier run of a node at a path, as its events tell it. */
interface PriorRun {
  output: unknown;
  route: RouteValue | RouteValue[] | undefined;
  branch: string | undefined;
  interruptIds: Set<string>;
}

/**
 * A workflow run picked up where a paused one stopped (ADK's rehydration): the person's answers by interrupt id,
 * the earlier runs of each node by path, and the input the paused run started with.
 */
export class WorkflowResume {
  readonly #runs: Map<string, PriorRun[]>;

  constructor(
    runs: Map<string, PriorRun[]>,
    /** The answers, by interrupt id (ADK's `resumeInputs`). */
    readonly answers: ReadonlyMap<string, unknown>,
    /** The message the paused run started with: the workflow's input again. */
    readonly startMessage: Content | undefined,
  ) {
    this.#runs = runs;
  }

  /**
   * What a node at `path` does in this run: `undefined` to run as usual; a result to take without running (it
   * finished before, or it waited and its answers are here and it does not run again); or `"rerun"` when it
   * waited, is answered, and runs again (an agent, or a node with `rerunOnResume`).
   */
  take(path: string, rerunOnResume: boolean): ResumedRun | "rerun" | undefined {
    const prior = this.#runs.get(path)?.shift();
    if (!prior) return undefined;
    const unanswered = [...prior.interruptIds].filter((id) => !this.answers.has(id));
    if (unanswered.length > 0) return { output: undefined, route: undefined, branch: prior.branch, interruptIds: unanswered };
    if (prior.output !== undefined || prior.route !== undefined) return { output: prior.output, route: prior.route, branch: prior.branch, interruptIds: [] };
    if (prior.interruptIds.size === 0) return undefined;
    if (rerunOnResume) return "rerun";
    const values = [...prior.interruptIds].map((id) => this.answers.get(id));
    return { output: values.length === 1 ? values[0] : values, route: undefined, branch: prior.branch, interruptIds: [] };
  }
}

/**
 * The paused workflow run this invocation resumes, if any: the run(s) before it that stopped to ask the person
 * (an input request, a confirmation, a credential), with the answers this invocation's message gives. `undefined`
 * when the previous run did not stop to ask. Refuses (`INTERRUPT_NOT_WAITING`) an answer to a question no paused
 * run is waiting on, and (`INTERRUPT_ANSWER_MISMATCH`) a structured answer that misses the question's schema.
 */
export function workflowResume(invocation: InvocationContext): WorkflowResume | undefined {
  const events = invocation.session.events;
  const start = pausedRunsStart(events, invocation.invocationId);
  if (start === undefined) return undefined;
  const runEvents = events.slice(start);
  const answers = answersOf(runEvents, invocation.userContent);
  const runs = new Map<string, PriorRun[]>();
  for (const event of runEvents) {
    const path = event.nodeInfo?.path;
    if (event.author === "user" || !path) continue;
    const list = runs.get(path) ?? [];
    if (!runs.has(path)) runs.set(path, list);
    let run = list.at(-1);
    if (!run || run.output !== undefined || run.route !== undefined || run.interruptIds.size > 0) list.push((run = { output: undefined, route: undefined, branch: undefined, interruptIds: new Set() }));
    if (event.output !== undefined) {
      run.output = event.output;
      run.branch = event.branch;
    }
    if (event.route !== undefined) run.route = event.route;
    for (const id of event.longRunningToolIds ?? []) run.interruptIds.add(id);
  }
  const startMessage = events.slice(0, start).findLast((event) => event.author === "user" && !event.nodeInfo)?.content;
  return new WorkflowResume(runs, answers, startMessage);
}

/**
 * Where the paused runs before this invocation begin, as ADK finds them: going back from this invocation, each
 * earlier invocation that asked the person something, up to the first one that did not. `undefined` when the
 * invocation before this one did not stop to ask.
 */
function pausedRunsStart(events: readonly Event[], invocationId: string): number | undefined {
  let index = events.length;
  while (index > 0 && events[index - 1]!.invocationId === invocationId) index--;
  let start: number | undefined;
  while (index > 0) {
    const runId = events[index - 1]!.invocationId;
    let first = index;
    let asked = false;
    let nodeEvents = false;
    while (first > 0 && events[first - 1]!.invocationId === runId) {
      first--;
      if (requiresUserInput(events[first]!)) asked = true;
      if (events[first]!.nodeInfo?.path) nodeEvents = true;
    }
    // A run in which no node did anything (an answer refused, a question answered while others wait) is passed
    // over, as ADK passes it: the runs before it may still be waiting.
    if (nodeEvents && !asked) break;
    if (nodeEvents) {
      // The run's own message is not part of what its nodes did.
      start = first;
      while (start < index && !events[start]!.nodeInfo?.path) start++;
    }
    index = first;
  }
  return start;
}

/**
 * The person's answers, by interrupt id: each function response a user event gives to a question still open (the
 * `result` of `{result: …}` taken out, as ADK does), or the message's plain text when exactly one question is open.
 */
function answersOf(runEvents: readonly Event[], message: Content | undefined): Map<string, unknown> {
  const open = new Map<string, JsonSchema | undefined>();
  const answers = new Map<string, unknown>();
  const newest = runEvents.findLast((event) => event.author === "user");
  for (const event of runEvents) {
    if (event.author !== "user") {
      for (const part of event.content?.parts ?? []) {
        const call = part.functionCall;
        if (call?.id && event.longRunningToolIds?.includes(call.id)) open.set(call.id, (call.args?.response_schema as JsonSchema | null | undefined) ?? undefined);
      }
      for (const id of event.longRunningToolIds ?? []) if (!open.has(id)) open.set(id, undefined);
      continue;
    }
    for (const part of event.content?.parts ?? []) {
      const response = part.functionResponse;
      if (!response?.id || !open.has(response.id)) continue;
      const schema = open.get(response.id);
      const value = unwrap(response.response, schema);
      const mismatch = answerMismatch(response.id, value, schema);
      // Only this run's answer is refused; an earlier one that missed its schema left its question open.
      if (mismatch && event === newest) throw new ToolsmithError("INTERRUPT_ANSWER_MISMATCH", mismatch);
      if (mismatch) continue;
      open.delete(response.id);
      answers.set(response.id, value);
    }
  }
  const replies = (message?.parts ?? []).map((part) => part.functionResponse).filter((response) => response !== undefined);
  for (const reply of replies) {
    if (reply.name === REQUEST_INPUT_FUNCTION_CALL_NAME && reply.id && !answers.has(reply.id)) {
      const waiting = open.size > 0 ? `Still waiting: ${[...open.keys()].map((id) => `"${id}"`).join(", ")}.` : "No question of this workflow is waiting for an answer.";
      throw new ToolsmithError("INTERRUPT_NOT_WAITING", `The answer names interrupt "${reply.id}", which no paused run of this workflow is waiting on. ${waiting} Answer with the id of the adk_request_input call it answers.`);
    }
  }
  // Plain text answers the one open question (ADK's reply typed at the prompt).
  const text = (message?.parts ?? []).every((part) => typeof part.text === "string") ? (message?.parts ?? []).map((part) => part.text).join("") : undefined;
  if (replies.length === 0 && text && open.size === 1) answers.set([...open.keys()][0]!, text);
  return answers;
}

/** `{result: value}` as `value`; text in it parsed as JSON unless the question's schema takes text (as ADK does). */
function unwrap(response: Record<string, unknown> | undefined, schema: JsonSchema | undefined): unknown {
  if (!response || Object.keys(response).length !== 1 || !("result" in response)) return response;
  const value = response.result;
  if (typeof value !== "string" || takesText(schema)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function takesText(schema: JsonSchema | undefined): boolean {
  if (!schema || typeof schema !== "object") return false;
  const type = (schema as { type?: unknown }).type;
  if (type === "string" || (Array.isArray(type) && type.includes("string"))) return true;
  return ["anyOf", "oneOf"].some((key) => Array.isArray((schema as Record<string, unknown>)[key]) && ((schema as Record<string, JsonSchema[]>)[key]!).some(takesText));
}

/** Why a structured answer misses the question's schema (the question then stays open), or nothing. */
function answerMismatch(id: string, value: unknown, schema: JsonSchema | undefined): string | undefined {
  if (!schema || typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const checked = compileArgumentsCheck(schema, `answer to ${id}`)(value as Record<string, unknown>);
  if (checked.ok) return undefined;
  const problems = checked.issues.map((issue) => (issue.field ? `${issue.field}: ${issue.problem}` : issue.problem)).join("; ");
  return `The answer to "${id}" does not match the responseSchema its question gave: ${problems}. The question is still waiting: answer in that shape, or wrap a bare value as {"result": …}.`;
}
