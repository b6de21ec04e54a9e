import { toolCallBelow } from "../agents/branch.js";
import { deriveInvocationContext, invocationAborted, pluginsFor, type InvocationContext } from "../agents/invocation-context.js";
import type { Content } from "../content/content.js";
import { ToolsmithError } from "../errors/toolsmith-error.js";
import { createEvent, type Event } from "../events/event.js";
import { EventChannel } from "../llm-agent/event-channel.js";
import { sleep } from "../models/retry-policy.js";
import { settledCallIds } from "../pause/paused-call.js";
import { questionIdsOf } from "../pause/user-input-requests.js";
import { jsonProblem } from "../sessions/json-value.js";
import { branchSegment } from "./branch-path.js";
import { attemptsAtFailureOf, createNodeErrorEvent, recordAttemptsAtFailure } from "./node-error-event.js";
import { buildNode } from "./build-node.js";
import { checkStateDelta } from "./state-schema.js";
import type { WorkflowResume } from "./resume.js";
import { linkedAbort } from "./linked-abort.js";
import { NodeTimeoutError, retryDelaySeconds, shouldRetry } from "./retry.js";
import { alreadyReported, childPath, NodeContext, NodeInterrupted, NodeReportedError, NodeRunFailure, toContent, type BaseNode, type ChildRunOptions, type NodeEngine } from "./node.js";

/** How contexts run their children: the one engine every node context carries. */
const nodeEngine: NodeEngine = { build: (nodeLike) => buildNode(nodeLike), run: executeChildNode };

/**
 * Runs a child node under `parent` (ADK's `executeChildNode`): a context for it, on a branch of its own when the
 * graph fans out, each of its events marked with the node's path and passed on (and stored) before the node goes
 * on; its output and route read from its events. An error event without output or route fails the node.
 */
export async function executeChildNode(parent: NodeContext, node: BaseNode, input: unknown, options: ChildRunOptions): Promise<NodeContext> {
  const nodeName = options.nodeName ?? node.name;
  const nodePath = options.overrideNodePath ?? childPath(parent.nodePath, nodeName);
  const branch = options.overrideBranch !== undefined ? options.overrideBranch || undefined : options.useSubBranch ? createSubBranch(parent.branch, { name: nodeName, runId: options.runId }) : parent.branch;
  const runId = options.runId ?? nodeName;
  // As ADK: `true` is a scope of the node's run's own; a node without one shares its parent's.
  const isolationScope = node.isolationScope === true ? `${nodePath}@${runId}` : (node.isolationScope ?? parent.isolationScope);
  const invocation = branch === parent.branch && isolationScope === parent.invocationContext.isolationScope ? parent.invocationContext : deriveInvocationContext(parent.invocationContext, { branch, isolationScope });
  const child = new NodeContext({ invocationContext: invocation, nodePath, runId, emit: parent.emitter, engine: parent.engine, abortSignal: options.abortSignal ?? parent.abortSignal, resume: parent.resume, resuming: options.resuming, stateSchema: node.stateSchema ?? parent.stateSchema, isolationScope });
  if (options.useAsOutput) child.outputForAncestors = [parent.nodePath, ...parent.outputForAncestors].filter((path) => path !== "");
  // As ADK: a plugin's answer before the node is its output (sent as no event), and the node does not run.
  const skipped = await pluginsFor(invocation, "beforeNodeCallback")?.runBeforeNodeCallback({ node, nodeContext: child, input });
  if (skipped !== undefined) {
    child.output = skipped;
    return handOutput(parent, child, options, false);
  }
  // A node with retryConfig runs again after a failure, afresh: what a failed attempt sent stays sent.
  const signal = child.abortSignal;
  for (;;) {
    try {
      await runAttempt(node, child, input, nodeName, signal);
      if (child.reportedError && child.output === undefined && child.route === undefined && child.interruptIds.length === 0) {
        throw new NodeReportedError({ nodeName, ...child.reportedError });
      }
      break;
    } catch (error) {
      const retry = node.preparedRetryConfig;
      recordAttemptsAtFailure(error, child.attemptCount);
      if (!retry || invocationAborted(invocation) || signal?.aborted || !shouldRetry(error, retry, child.attemptCount)) throw error;
      // An abort during the wait ends the retries with the attempt's own error.
      if (!(await sleep(retryDelaySeconds(retry, child.attemptCount) * 1000, signal).then(() => true, () => false))) throw error;
      child.attemptCount++;
      startAfresh(child);
    }
  }
  const replaced = await pluginsFor(invocation, "afterNodeCallback")?.runAfterNodeCallback({ node, nodeContext: child, output: child.output });
  if (replaced !== undefined) child.output = replaced;
  return handOutput(parent, child, options, true);
}

/**
 * One attempt of a node: its events marked and passed on, each stored before the node goes on. With the node's
 * `timeout`, the attempt fails with a {@link NodeTimeoutError} once it runs past it, and `ctx.abortSignal` aborts
 * for the node to stop its own work; events it sends after that are not taken.
 */
async function runAttempt(node: BaseNode, child: NodeContext, input: unknown, nodeName: string, signal: AbortSignal | undefined): Promise<void> {
  const events = node.run(child, input)[Symbol.asyncIterator]();
  let deadline: Promise<never> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: { controller: AbortController; dispose: () => void } | undefined;
  if (node.timeout !== undefined) {
    const timeout = node.timeout;
    controller = linkedAbort(signal);
    child.abortSignal = controller.controller.signal;
    deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new NodeTimeoutError(nodeName, timeout);
        controller!.controller.abort(error);
        reject(error);
      }, timeout * 1000);
    });
    // Settled by the race below, or never looked at once the attempt ended in time.
    deadline.catch(() => undefined);
  }
  let finished = false;
  try {
    for (;;) {
      const next = deadline ? await Promise.race([events.next(), deadline]) : await events.next();
      if (next.done) {
        finished = true;
        return;
      }
      if (invocationAborted(child.invocationContext)) return;
      if (!record(child, next.value, nodeName)) continue;
      await child.emit(next.value);
    }
  } catch (error) {
    // A child it ran waits on calls: the node waits too, with the ids `runNode` gave it.
    if (!(error instanceof NodeInterrupted)) throw error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (controller) {
      controller.dispose();
      child.abortSignal = signal;
    }
    if (!finished) {
      // A node stopped early runs its own cleanup; one past its deadline is told to stop, and not waited for.
      const closing = Promise.resolve(events.return?.(undefined)).catch(() => undefined);
      if (!controller) await closing;
    }
  }
}

/** An attempt starts from nothing: no output, route, waits, reported error or state written. */
function startAfresh(child: NodeContext): void {
  child.output = undefined;
  child.route = undefined;
  child.interruptIds = [];
  child.reportedError = undefined;
  for (const key of Object.keys(child.actions.stateDelta)) delete child.actions.stateDelta[key];
}

/** With `useAsOutput`, the child's output and route become the parent's (which then sends no event of its own for it). */
function handOutput(parent: NodeContext, child: NodeContext, options: ChildRunOptions, delegated: boolean): NodeContext {
  if (options.useAsOutput) {
    parent.output = child.output;
    parent.route = child.route;
    if (delegated) parent.outputDelegated = true;
  }
  return child;
}

/**
 * Marks an event with its node and reads from it the node's output, route, reported error and waits. Returns
 * whether it goes out: an output its node handed to a child is the child's event already.
 */
function record(child: NodeContext, event: Event, nodeName: string): boolean {
  // A delta an event brings of its own (not the node's, which its state checked as it was written), as ADK checks it.
  if (child.stateSchema && event.actions?.stateDelta !== child.actions.stateDelta) checkStateDelta(child.stateSchema, event.actions?.stateDelta ?? {});
  if (!event.author) event.author = nodeName;
  if (!event.invocationId) event.invocationId = child.invocationId;
  if (toolCallBelow(event.branch, child.branch) !== undefined) {
    // An event of an agent or node the node's agent runs as a tool: that call's own (its output, path and errors
    // are the call's, told in its result), but the node waits on the questions it asks the person.
    for (const id of questionIdsOf(event)) if (!child.interruptIds.includes(id)) child.interruptIds.push(id);
    if (event.isolationScope === undefined && child.isolationScope !== undefined) event.isolationScope = child.isolationScope;
    return true;
  }
  event.nodeInfo = { ...event.nodeInfo, path: child.nodePath };
  if (event.branch === undefined && child.branch !== undefined) event.branch = child.branch;
  if (event.isolationScope === undefined && child.isolationScope !== undefined) event.isolationScope = child.isolationScope;
  if (event.output !== undefined) {
    event.nodeInfo.outputFor = [child.nodePath, ...child.outputForAncestors];
    // Outputs are stored with their events: one no store could keep fails here, the same in every store.
    const problem = jsonProblem(event.output);
    if (problem) {
      throw new ToolsmithError("NODE_OUTPUT_NOT_JSON", `Node "${child.nodePath}" produced an output that cannot be stored with its event: ${problem.path ? `${problem.path.replace(/^\./, "")} ` : "it "}${problem.reason}. A node's output must be JSON (strings, finite numbers, booleans, null, arrays and plain objects); return plain data.`);
    }
    child.output = event.output;
    if (child.outputDelegated) {
      if (Object.keys(event.actions.stateDelta).length === 0) return false;
      event.output = undefined;
      event.content = undefined;
    }
  }
  if (event.route !== undefined) child.route = event.route;
  if (event.errorCode !== undefined && !event.partial) child.reportedError = { errorCode: event.errorCode, errorMessage: event.errorMessage };
  for (const id of event.longRunningToolIds ?? []) if (!child.interruptIds.includes(id)) child.interruptIds.push(id);
  // A long-running call its agent made (a node run as a tool, say) that got its result does not keep the node waiting.
  for (const id of settledCallIds(event.content?.parts) ?? []) child.interruptIds = child.interruptIds.filter((waiting) => waiting !== id);
  return true;
}

/**
 * The branch of a node run apart from its siblings: `base.name#runId` (ADK's `createSubBranch`, whose segment is
 * `name@runId`: in toolsmith `@` marks the branch of an agent run as a tool, whose events stay inside it).
 */
export function createSubBranch(base: string | undefined, options: { name: string; runId?: string }): string {
  const segment = branchSegment(options.name, options.runId);
  return base ? `${base}.${segment}` : segment;
}

/** The longest run of leading segments the branches share (ADK's `commonPrefixOf`). */
export function commonPrefixOf(branches: readonly string[]): string {
  if (branches.length === 0) return "";
  const split = branches.map((branch) => (branch ? branch.split(".") : []));
  const common: string[] = [];
  for (let i = 0; i < Math.min(...split.map((segments) => segments.length)); i++) {
    const segment = split[0]![i]!;
    if (!split.every((segments) => segments[i] === segment)) break;
    common.push(segment);
  }
  return common.join(".");
}

/**
 * Runs a node as a whole invocation (ADK's `runNodeAsInvocation`): its input is the user's message (its text, or
 * the message when it has none), its events stream out as they come, each stored before the node goes on, and
 * its output ends the run as an event of `author` unless the last output event already carried it. A node failure
 * ends the run with the failed node's error event. With `resume`, the run picks up a paused one: its input is the
 * paused run's, and nodes that already ran are taken as they ended (see {@link WorkflowResume}).
 */
export async function* runNodeAsInvocation(node: BaseNode, invocation: InvocationContext, author: string = node.name, resume?: WorkflowResume): AsyncGenerator<Event, void, undefined> {
  const channel = new EventChannel();
  const root = new NodeContext({ invocationContext: invocation, nodePath: "", runId: author, emit: (event) => channel.emit(event), engine: nodeEngine, abortSignal: invocation.abortSignal, resume });
  // A resumed run starts again from the paused run's input: the nodes that ran are taken as they ended.
  const input = nodeInputOf(resume ? resume.startMessage : invocation.userContent);
  const finished = executeChildNode(root, node, input, { useAsOutput: true, runId: "1" });
  let lastOutput: unknown;
  let sawOutput = false;
  for await (const event of channel.drain(finished)) {
    if (event.output !== undefined) {
      lastOutput = event.output;
      sawOutput = true;
    }
    yield event;
  }
  let child: NodeContext;
  try {
    child = await finished;
  } catch (error) {
    // A failure no workflow reported (a dynamicEntry that threw, a node run as the root) ends the run the same way.
    if (!alreadyReported(error)) yield nodeErrorEvent(root, node.name, error);
    return;
  }
  if (invocationAborted(invocation) || child.interruptIds.length > 0 || root.output === undefined) return;
  if (sawOutput && Object.is(lastOutput, root.output)) return;
  yield createEvent({ author, invocationId: invocation.invocationId, branch: invocation.branch, content: toContent(root.output), output: root.output });
}

/**
 * A node run for a tool call ({@link NodeTool}): `input` as the node's input, its events handed to `emit` on
 * `branch`, its context (with its output and the questions it waits on) returned. Its failure is thrown. With
 * `resume`, it picks up the call's paused run: nodes that ran are taken as they ended, and with `resuming` the node
 * runs again on the answers it waited for.
 */
export async function runNodeForCall(node: BaseNode, invocation: InvocationContext, input: unknown, options: { runId: string; branch: string; emit: (event: Event) => Promise<void>; resume?: WorkflowResume; resuming?: boolean }): Promise<NodeContext> {
  const root = new NodeContext({ invocationContext: invocation, nodePath: "", runId: options.runId, emit: options.emit, engine: nodeEngine, abortSignal: invocation.abortSignal, resume: options.resume });
  return executeChildNode(root, node, input, { runId: options.runId, overrideBranch: options.branch, resuming: options.resuming });
}

/** A workflow's input from the user's message: its text parts joined, or the message itself when it has none. */
function nodeInputOf(content: Content | undefined): unknown {
  if (!content) return undefined;
  const texts = (content.parts ?? []).filter((part) => typeof part.text === "string");
  return texts.length > 0 ? texts.map((part) => part.text).join("") : content;
}

/** The error event of a node that threw: its code when it is toolsmith's, else `NODE_FAILED`; a child `runNode` ran is named by its own path. */
export function nodeErrorEvent(context: NodeContext, nodeName: string, error: unknown): Event {
  const failure = error instanceof NodeRunFailure ? error : new NodeRunFailure(childPath(context.nodePath, nodeName), nodeName, error);
  const cause = failure.cause;
  return createNodeErrorEvent({
    author: failure.nodeName,
    invocationId: context.invocationId,
    branch: context.branch,
    errorCode: failure.code,
    errorMessage: failure.message,
    nodeInfo: { path: failure.nodePath },
    error: cause,
    attemptCount: attemptsAtFailureOf(cause),
  });
}
