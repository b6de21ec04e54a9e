import { findAgent, type Agent } from "../agents/agent.js";
import { rootOf } from "../agents/agent-tree.js";
import { forAgent, invocationAborted, type InvocationContext } from "../agents/invocation-context.js";
import type { LlmAgentSettings } from "./llm-agent-settings.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { endsWithCodeExecutionResult, getFunctionCalls, getText, type FunctionCall } from "../content/content.js";
import { isFinalResponse, type Event } from "../events/event.js";
import type { ArgumentsCheck, JsonSchema, Tool } from "../tools/tool.js";
import { compileArgumentsCheck } from "../tools/json-schema-validator.js";
import { createArgumentsCheck, isZod3Schema, isZodSchema } from "../tools/tool-parameters.js";
import { giveCallsIds } from "../events/client-function-call-id.js";
import { agentTools, buildLlmRequest, processedRequest } from "./build-llm-request.js";
import { callModel, streamModelCall } from "./call-model.js";
import type { ClientAnswer } from "../agents/invocation-context.js";
import { executeFunctionCalls } from "./execute-function-calls.js";
import { EventChannel } from "./event-channel.js";
import { pausedCallsToResume } from "./resume-paused-calls.js";
import { compactContext } from "./compaction/compact-context.js";
import { codeToRun, prepareDataFiles, runModelCode, type CodeRunRecord } from "./run-model-code.js";

/**
 * The loop of an LLM agent: call the model; if it called tools, run them and
 * call it again with their results; stop at a final answer, an error, a pause
 * for the client, a transfer, or cancellation. Each event is yielded to the
 * runner, which stores it before the loop goes on. A run that answers a pause
 * first finishes the calls that waited.
 */
export async function* runLlmAgent(agent: LlmAgentSettings, context: InvocationContext): AsyncGenerator<Event, void, undefined> {
  const model = await agent.canonicalModel();

  // The calls to run next: those a pause left waiting, then each model answer's. One generator yields every event
  // of the loop (a generator per step would cost each event a hop).
  // Only a run answering a pause has calls to resume (asked first: the search makes a map and walks the history).
  const resumable = context.resumeMessage ? pausedCallsToResume(context, agent.name) : undefined;
  let batch: CallBatch | undefined = resumable && resumable.calls.length > 0 ? { calls: resumable.calls, toolsByName: (await agentTools(agent, context)).toolsByName, answers: resumable.answers } : undefined;
  const codeExecutor = agent.localCodeExecutor;
  const codeRuns: CodeRunRecord | undefined = codeExecutor ? { failures: 0, inputFiles: [] } : undefined;
  for (;;) {
    if (batch) {
      const channel = new EventChannel();
      const running = executeFunctionCalls(agent, context, batch.calls, batch.toolsByName, { answers: batch.answers, emit: (event) => channel.emit(event) });
      // What the tools stream passes through a generator only once they stream something; most batches do not.
      if (await channel.emitsBefore(running)) yield* channel.drain(running);
      const result = await running;
      if (!result) return;
      yield result.responseEvent;
      if (result.clientRequest) yield result.clientRequest;
      if (result.paused) return;
      const transferTo = result.responseEvent.actions.transferToAgent;
      if (transferTo) return yield* transfer(agent, context, transferTo);
      if (isFinalResponse(result.responseEvent)) return;
    }
    if (invocationAborted(context) || context.endInvocation) return;
    if (agent.contextCompactors && (yield* compactContext(agent, context, agent.contextCompactors))) return;
    const built = agent.requestProcessors?.length ? yield* processedRequest(agent, context, model, agent.requestProcessors) : buildLlmRequest(agent, context, model);
    if (!built) return;
    const { request, toolsByName, actions } = built instanceof Promise ? await built : built;
    // ADK's optimizeDataFile: the user's CSV files are given to the code, and explored once before the model call.
    if (codeExecutor?.optimizeDataFile && !(yield* prepareDataFiles(agent, context, codeExecutor, request, codeRuns!))) return;
    // A streaming run's partial events pass through a generator; otherwise the call is awaited, with no hops.
    // Response processors' events, too, reach the caller through that generator.
    const answered = context.runConfig.streamingMode === "sse" || agent.responseProcessors?.length ? yield* streamModelCall(agent, context, model, request, actions) : await callModel(agent, context, model, request, actions);
    if (!answered) return;
    // An agent with a code executor runs the code in the answer, then asks the model again with its result.
    const code = codeExecutor ? codeToRun(codeExecutor, answered, codeRuns!) : undefined;
    if (code) {
      if (!(yield* runModelCode(agent, context, codeExecutor!, answered, code, codeRuns!))) return;
      batch = undefined;
      continue;
    }
    const modelEvent = finishModelEvent(agent, answered, toolsByName);
    yield modelEvent;
    if (modelEvent.errorCode) return;
    const calls = getFunctionCalls(modelEvent.content);
    if (calls.length === 0) {
      // As ADK: an answer that ends with the result of code Gemini ran is not final; the model is asked again.
      if (!endsWithCodeExecutionResult(modelEvent)) return;
      batch = undefined;
      continue;
    }
    if (context.runConfig.pauseOnToolCalls) {
      // As ADK: the client runs the calls and sends their results in the next run; the invocation ends here.
      context.endInvocation = true;
      return;
    }
    batch = { calls, toolsByName, answers: undefined };
  }
}

/** Function calls to run together, with the tools they may call and the client's answers for calls that waited. */
interface CallBatch {
  calls: readonly FunctionCall[];
  toolsByName: ReadonlyMap<string, Tool>;
  answers: ReadonlyMap<string, ClientAnswer> | undefined;
}

/** Gives calls without ids (or with empty ones) an id, as ADK does, marks long-running calls, and records `outputKey`. */
function finishModelEvent(agent: LlmAgentSettings, event: Event, toolsByName: ReadonlyMap<string, Tool>): Event {
  const calls = getFunctionCalls(event.content);
  giveCallsIds(calls);
  const longRunning: string[] = [];
  for (const call of calls) {
    if (call.name !== undefined && toolsByName.get(call.name)?.isLongRunning) longRunning.push(call.id!);
  }
  if (longRunning.length) event.longRunningToolIds = longRunning;
  if (calls.length === 0 && !event.errorCode && agent.outputSchema) {
    // In task mode the output comes through finish_task; an answer is a message to the user (a question, say).
    if (agent.mode === "task") return withTaskModeOutputKey(agent, event, agent.outputSchema);
    return withStructuredOutput(agent, event, agent.outputSchema);
  }
  if (agent.outputKey && calls.length === 0 && !event.errorCode) {
    const text = getText(event.content);
    if (text) event.actions.stateDelta[agent.outputKey] = text;
  }
  return event;
}

async function* transfer(from: Agent, context: InvocationContext, targetName: string): AsyncGenerator<Event, void, undefined> {
  const root = rootOf(from);
  const target = findAgent(root, targetName);
  if (!target) {
    throw new ConfigurationError("UNKNOWN_AGENT", `Agent "${from.name}" transferred to "${targetName}", which is not in the agent tree under "${root.name}". Transfer to one of its agents.`);
  }
  yield* target.runAsync(forAgent(context, target));
}

/**
 * The answer without the Markdown fence a model may wrap JSON in (```json … ```), found by position: the regular
 * expression it replaces took time quadratic in a long run of spaces inside the answer.
 */
export function withoutCodeFence(answer: string): string {
  let text = answer.trim();
  if (text.startsWith("```")) text = text.slice(text.startsWith("```json") ? 7 : 3);
  if (text.endsWith("```")) text = text.slice(0, -3);
  return text.trim();
}

/**
 * The final answer of an agent with `outputSchema`: parsed as JSON and checked
 * against the schema; with `outputKey`, the parsed object is stored (as ADK
 * stores it). An answer that is not JSON or does not match becomes an
 * `OUTPUT_SCHEMA_MISMATCH` error event the developer sees, keeping the text.
 */
function withStructuredOutput(agent: LlmAgentSettings, event: Event, schema: JsonSchema): Event {
  const text = withoutCodeFence(getText(event.content));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return mismatch(event, `Agent "${agent.name}" answered text that is not JSON, but its outputSchema asks for a JSON object.`);
  }
  const checked = checkOutput(agent, schema, parsed);
  if (!checked.ok) return mismatch(event, `Agent "${agent.name}" answered JSON that does not match its outputSchema: ${checked.problems}.`);
  if (agent.outputKey) event.actions.stateDelta[agent.outputKey] = checked.value;
  return event;
}

/**
 * An answer of an agent in task mode with `outputSchema` and `outputKey`, stored as ADK stores it: parsed and
 * checked when it is JSON (the parsed value when it misses the schema), else its text; nothing for an empty answer.
 */
function withTaskModeOutputKey(agent: LlmAgentSettings, event: Event, schema: JsonSchema): Event {
  const text = getText(event.content);
  if (!agent.outputKey || !text.trim()) return event;
  let value: unknown = text;
  try {
    value = JSON.parse(text);
    const checked = checkOutput(agent, schema, value);
    if (checked.ok) value = checked.value;
  } catch {
    // Not JSON: the text is stored.
  }
  event.actions.stateDelta[agent.outputKey] = value;
  return event;
}

/**
 * An agent's structured answer checked against its output schema (a JSON object, as ADK asks): the value with the
 * schema's defaults filled in, or what does not match, as one line.
 */
export function checkOutput(agent: Pick<LlmAgentSettings, "name" | "outputSchemaSource">, schema: JsonSchema, value: unknown): { ok: true; value: Record<string, unknown> } | { ok: false; problems: string } {
  const checked = value !== null && typeof value === "object" && !Array.isArray(value) ? outputCheck(agent, schema)(value as Record<string, unknown>) : { ok: false as const, issues: [{ field: "", problem: "must be a JSON object" }] };
  if (checked.ok) return { ok: true, value: checked.value };
  return { ok: false, problems: checked.issues.map((issue) => (issue.field ? `${issue.field}: ${issue.problem}` : issue.problem)).join("; ") };
}

/**
 * The check of an agent's output, compiled once per schema: with the schema as given when it is zod (as ADK's
 * `validateOutput` prefers it: refinements and transforms have no JSON Schema form), else with its JSON Schema.
 */
function outputCheck(agent: Pick<LlmAgentSettings, "name" | "outputSchemaSource">, schema: JsonSchema): (value: Record<string, unknown>) => ArgumentsCheck {
  const source = agent.outputSchemaSource;
  const key: object = source !== undefined && (isZodSchema(source) || isZod3Schema(source)) ? source : schema;
  let check = outputChecks.get(key);
  if (!check) outputChecks.set(key, (check = key === schema ? compileArgumentsCheck(schema, `${agent.name} output`) : createArgumentsCheck(source, `${agent.name} output`)));
  return check;
}

const outputChecks = new WeakMap<object, (value: Record<string, unknown>) => ArgumentsCheck>();

function mismatch(event: Event, message: string): Event {
  event.errorCode = "OUTPUT_SCHEMA_MISMATCH";
  event.errorMessage = `${message} Tell the model the shape in the instruction, or loosen the schema.`;
  return event;
}
