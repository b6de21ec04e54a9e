import { branchSafeId, toolCallBelow } from "../agents/branch.js";
import type { InvocationContext } from "../agents/invocation-context.js";
import type { Content } from "../content/content.js";
import { ToolsmithError } from "../errors/toolsmith-error.js";
import type { Event, RouteValue } from "../events/event.js";
import { answerMismatch, responseSchemaOf, unwrapAnswer } from "../pause/input-answers.js";
import { settledCallIds } from "../pause/paused-call.js";
import { questionIdsOf, requiresUserInput } from "../pause/user-input-requests.js";
import { REQUEST_INPUT_FUNCTION_CALL_NAME } from "../tools/request-input-tool.js";
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
  /** The questions to the person among `interruptIds`, its own and those of the calls its agent made. */
  questions: Set<string>;
  /** The invocation it ran in: a node that waited does not run again at its path in the same invocation. */
  invocationId: string;
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
  const startMessage = events.slice(0, start).findLast((event) => event.author === "user" && !event.nodeInfo)?.content;
  return resumeFrom(events.slice(start), invocation.branch, invocation.userContent, startMessage, true);
}

/**
 * The paused run of a node a tool call ran ({@link NodeTool}), on the call's `branch`: its events there and below,
 * with the person's answers since; `undefined` when the call's node sent nothing yet. Refuses
 * (`INTERRUPT_ANSWER_MISMATCH`) a structured answer in `message` that misses its question's schema; the runner
 * checked already that each answer names a question still waiting.
 */
export function nodeToolResume(events: readonly Event[], branch: string, message: Content | undefined): WorkflowResume | undefined {
  const first = events.findIndex((event) => onCallBranch(event.branch, branch));
  if (first < 0) return undefined;
  const runEvents = events.slice(first).filter((event) => (event.author === "user" && !event.branch) || onCallBranch(event.branch, branch));
  return resumeFrom(runEvents, branch, message, undefined, false);
}

/** Whether an event's branch is the call's, or one below it (its node's parallel runs, the calls its agents made). */
function onCallBranch(eventBranch: string | undefined, branch: string): boolean {
  return eventBranch === branch || (eventBranch !== undefined && eventBranch.startsWith(`${branch}.`));
}

/**
 * The earlier runs of each node by path, as `runEvents` tell them, with the answers they were given. `base` is the
 * branch the nodes run on: an event on a tool call's branch below it is that call's, not a node's.
 */
function resumeFrom(runEvents: readonly Event[], base: string | undefined, message: Content | undefined, startMessage: Content | undefined, ofWorkflow: boolean): WorkflowResume {
  const answers = answersOf(runEvents, message, ofWorkflow);
  const runs = new Map<string, PriorRun[]>();
  // The run whose agent made each call, by the call's branch-safe id: questions asked inside the call are its own.
  const runByCall = new Map<string, PriorRun>();
  for (const event of runEvents) {
    if (event.author === "user") continue;
    const call = toolCallBelow(event.branch, base);
    if (call !== undefined) {
      // What an agent or node run as a tool did is that call's (its call came first); its questions are the calling
      // node's to wait on.
      const caller = runByCall.get(call);
      if (caller) for (const id of questionIdsOf(event)) caller.questions.add(id);
      continue;
    }
    const path = event.nodeInfo?.path;
    if (!path) continue;
    const list = runs.get(path) ?? [];
    if (!runs.has(path)) runs.set(path, list);
    let run = list.at(-1);
    // An agent's run may send several waiting events (its calls, their questions, the paused results).
    const ended = run && (run.output !== undefined || run.route !== undefined || (run.interruptIds.size > 0 && run.invocationId !== event.invocationId));
    if (!run || ended) list.push((run = { output: undefined, route: undefined, branch: undefined, interruptIds: new Set(), questions: new Set(), invocationId: event.invocationId }));
    if (event.output !== undefined) {
      run.output = event.output;
      run.branch = event.branch;
    }
    if (event.route !== undefined) run.route = event.route;
    for (const id of event.longRunningToolIds ?? []) run.interruptIds.add(id);
    for (const id of settledCallIds(event.content?.parts) ?? []) run.interruptIds.delete(id);
    for (const id of questionIdsOf(event)) run.questions.add(id);
    for (const part of event.content?.parts ?? []) if (part.functionCall?.id) runByCall.set(branchSafeId(part.functionCall.id), run);
  }
  // A run that asked the person waits on its questions alone: the calls its agent made that wait with them (an agent
  // or a node run as a tool, whose questions these are) go on once the agent runs again on the answers.
  for (const list of runs.values()) for (const run of list) if (run.questions.size > 0) run.interruptIds = run.questions;
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
 * `result` of `{result: …}` taken out, as ADK does), or, for a workflow run by the runner (`ofWorkflow`), the
 * message's plain text when exactly one question is open. A workflow's run refuses a reply to a question none of its
 * paused runs asked; a tool call's node leaves that to the runner, since the reply may answer another call.
 */
function answersOf(runEvents: readonly Event[], message: Content | undefined, ofWorkflow: boolean): Map<string, unknown> {
  const open = new Map<string, JsonSchema | undefined>();
  const answers = new Map<string, unknown>();
  const newest = runEvents.findLast((event) => event.author === "user");
  for (const event of runEvents) {
    if (event.author !== "user") {
      for (const part of event.content?.parts ?? []) {
        const call = part.functionCall;
        if (call?.id && event.longRunningToolIds?.includes(call.id)) open.set(call.id, responseSchemaOf(call.args));
      }
      for (const id of event.longRunningToolIds ?? []) if (!open.has(id)) open.set(id, undefined);
      continue;
    }
    for (const part of event.content?.parts ?? []) {
      const response = part.functionResponse;
      if (!response?.id || !open.has(response.id)) continue;
      const schema = open.get(response.id);
      const value = unwrapAnswer(response.response, schema);
      const mismatch = answerMismatch(response.id, value, schema);
      // Only this run's answer is refused; an earlier one that missed its schema left its question open.
      if (mismatch && event === newest) throw new ToolsmithError("INTERRUPT_ANSWER_MISMATCH", mismatch);
      if (mismatch) continue;
      open.delete(response.id);
      answers.set(response.id, value);
    }
  }
  const replies = (message?.parts ?? []).map((part) => part.functionResponse).filter((response) => response !== undefined);
  for (const reply of ofWorkflow ? replies : []) {
    if (reply.name === REQUEST_INPUT_FUNCTION_CALL_NAME && reply.id && !answers.has(reply.id)) {
      const waiting = open.size > 0 ? `Still waiting: ${[...open.keys()].map((id) => `"${id}"`).join(", ")}.` : "No question of this workflow is waiting for an answer.";
      throw new ToolsmithError("INTERRUPT_NOT_WAITING", `The answer names interrupt "${reply.id}", which no paused run of this workflow is waiting on. ${waiting} Answer with the id of the adk_request_input call it answers.`);
    }
  }
  // Plain text answers the one open question (ADK's reply typed at the prompt).
  const text = (message?.parts ?? []).every((part) => typeof part.text === "string") ? (message?.parts ?? []).map((part) => part.text).join("") : undefined;
  if (ofWorkflow && replies.length === 0 && text && open.size === 1) answers.set([...open.keys()][0]!, text);
  return answers;
}
