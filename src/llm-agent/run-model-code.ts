import { CallbackContext } from "../agents/callback-context.js";
import { isUserScopedArtifact } from "../artifacts/artifact-name.js";
import { invocationAborted, type InvocationContext } from "../agents/invocation-context.js";
import { getFunctionCalls, type Content } from "../content/content.js";
import { createEvent, type Event } from "../events/event.js";
import { createEventActions, type EventActions } from "../events/event-actions.js";
import { logger } from "../logging/logger.js";
import { CodeExecutionLanguage, FileContentEncoding, type BaseCodeExecutor, type CodeExecutionFile, type CodeExecutionResult } from "../tools/code-executors/base-code-executor.js";
import { codeAsText, codeExecutionResultPart, executableCodePart, extractCode, type ExtractedCode } from "../tools/code-executors/code-blocks.js";
import type { LlmRequest } from "../models/llm-request.js";
import { fileBytes } from "../tools/code-executors/code-files.js";
import type { LlmAgentSettings } from "./llm-agent-settings.js";

/** Where ADK keeps a code executor's record in the session state (its `execution_session_id`). */
export const CODE_EXECUTION_CONTEXT_KEY = "_code_execution_context";

/** What an agent's run keeps between its model calls about the code it ran. */
export interface CodeRunRecord {
  /** Runs in a row whose code failed (wrote to standard error); at the executor's `errorRetryAttempts` no more code runs. */
  failures: number;
  /** With `optimizeDataFile`, the CSV files the user sent, found at the latest request: every run of code gets them. */
  inputFiles: CodeExecutionFile[];
}

/**
 * The code to run in a model's answer, or `undefined`: none when the answer is an error or calls tools (its calls
 * run instead), and none once the run's code has failed `errorRetryAttempts` times in a row (the answer then
 * stands as it is, as in ADK).
 */
export function codeToRun(executor: BaseCodeExecutor, answer: Event, record: CodeRunRecord): ExtractedCode | undefined {
  if (answer.errorCode || answer.partial || record.failures >= executor.errorRetryAttempts) return undefined;
  if (getFunctionCalls(answer.content).length > 0) return undefined;
  return extractCode(answer.content, executor.codeBlockDelimiters);
}

/**
 * Runs the code of a model's answer, as ADK's code-execution step does: yields the answer as stored (its text
 * before the block, then the code as an `executableCode` part), runs the code, and yields its result as the
 * agent's event (a `codeExecutionResult` part, which is not a final answer, so the loop asks the model again).
 * The files the code wrote are saved as the session's artifacts and named in the result. An executor that throws
 * ends the run with a `CODE_EXECUTION_FAILED` error event; the code is not run again. Returns whether the loop
 * goes on.
 */
export async function* runModelCode(agent: LlmAgentSettings, context: InvocationContext, executor: BaseCodeExecutor, answer: Event, extracted: ExtractedCode, record: CodeRunRecord): AsyncGenerator<Event, boolean, undefined> {
  answer.content = extracted.content;
  yield answer;
  if (invocationAborted(context) || context.endInvocation) return false;
  const actions = createEventActions();
  const executionId = executor.stateful ? statefulExecutionId(context, actions.stateDelta) : undefined;
  let result: CodeExecutionResult;
  try {
    result = await executor.executeCode({
      invocationContext: context,
      codeExecutionInput: { code: extracted.code, language: extracted.language, inputFiles: [...record.inputFiles], ...(executionId !== undefined ? { executionId } : {}) },
    });
    result = checkedResult(result);
  } catch (error) {
    yield executorFailed(agent, context, executor, error);
    return false;
  }
  yield await resultEvent(agent, context, result, actions, record);
  return !invocationAborted(context) && !context.endInvocation;
}

/** The agent's event ending a run whose executor threw: the code may have run in part, so it is not run again. */
function executorFailed(agent: LlmAgentSettings, context: InvocationContext, executor: BaseCodeExecutor, error: unknown): Event {
  return createEvent({
    invocationId: context.invocationId,
    author: agent.name,
    branch: context.branch,
    errorCode: "CODE_EXECUTION_FAILED",
    errorMessage: `Agent "${agent.name}": its code executor (${executor.constructor.name}) threw while running the model's code, which may have run in part: ${(error as Error)?.message ?? String(error)}. Fix the executor; the code was not run again.`,
  });
}

/** The event recording a run's result, its files saved as artifacts; counts the run's failure or clears the count. */
async function resultEvent(agent: LlmAgentSettings, context: InvocationContext, result: CodeExecutionResult, actions: EventActions, record: CodeRunRecord): Promise<Event> {
  record.failures = result.stderr ? record.failures + 1 : 0;
  const saved = await saveOutputFiles(context, result, actions);
  return createEvent({ invocationId: context.invocationId, author: agent.name, branch: context.branch, content: { role: "model", parts: [codeExecutionResultPart(saved)] }, actions });
}

const CSV = "text/csv";

/**
 * ADK's `optimizeDataFile` step, before a model call: each CSV file the user sent (inline data) is named
 * `data_<content>_<part>.csv` by its place in the request, shown to the model as "Available file: …" instead of
 * its bytes, and given to every run of code from then on. A file not explored yet in the session is explored once:
 * the agent stores code that reads it with pandas and prints its shape, columns and values, runs it, stores the
 * result, and adds both to the request. The names explored are recorded in `_code_execution_context` as ADK
 * records them. Returns whether the loop goes on (an executor that throws ends the run).
 */
export async function* prepareDataFiles(agent: LlmAgentSettings, context: InvocationContext, executor: BaseCodeExecutor, request: LlmRequest, record: CodeRunRecord): AsyncGenerator<Event, boolean, undefined> {
  if (record.failures >= executor.errorRetryAttempts) return true;
  const found: CodeExecutionFile[] = [];
  request.contents = request.contents.map((content, contentIndex) => {
    if (content.role !== "user" || !content.parts?.some((part) => part.inlineData?.mimeType === CSV)) return content;
    return {
      ...content,
      parts: content.parts.map((part, partIndex) => {
        if (part.inlineData?.mimeType !== CSV) return part;
        const name = `data_${contentIndex + 1}_${partIndex + 1}.csv`;
        found.push({ name, content: part.inlineData.data ?? "", contentEncoding: FileContentEncoding.BASE64, mimeType: CSV });
        return { text: `\nAvailable file: \`${name}\`\n` };
      }),
    };
  });
  record.inputFiles = found;
  const codeContext = (context.session.state[CODE_EXECUTION_CONTEXT_KEY] ?? {}) as { processed_input_files?: unknown };
  const explored = new Set(Array.isArray(codeContext.processed_input_files) ? (codeContext.processed_input_files as unknown[]).filter((name): name is string => typeof name === "string") : []);
  const toText = (content: Content) => codeAsText(content, executor.codeBlockDelimiters, executor.executionResultDelimiters);
  for (const file of found) {
    if (explored.has(file.name)) continue;
    const code = exploreCsvCode(file.name);
    const codeEvent = createEvent({ invocationId: context.invocationId, author: agent.name, branch: context.branch, content: { role: "model", parts: [{ text: `Processing input file: \`${file.name}\`` }, executableCodePart(code, CodeExecutionLanguage.PYTHON)] } });
    yield codeEvent;
    request.contents.push(toText(codeEvent.content!));
    if (invocationAborted(context) || context.endInvocation) return false;
    let result: CodeExecutionResult;
    try {
      result = checkedResult(await executor.executeCode({ invocationContext: context, codeExecutionInput: { code, language: CodeExecutionLanguage.PYTHON, inputFiles: [file] } }));
    } catch (error) {
      yield executorFailed(agent, context, executor, error);
      return false;
    }
    explored.add(file.name);
    const actions = createEventActions({ stateDelta: { [CODE_EXECUTION_CONTEXT_KEY]: { ...codeContext, processed_input_files: [...explored] } } });
    const done = await resultEvent(agent, context, result, actions, record);
    yield done;
    request.contents.push(toText(done.content!));
    if (invocationAborted(context) || context.endInvocation) return false;
  }
  return true;
}

/** Python that loads a CSV file with pandas and prints what a model needs to work with it: its size, and each column's type, filled rows, distinct values and a few of them. */
export function exploreCsvCode(fileName: string): string {
  const variable = fileName.replace(/\.[^.]*$/, "").replace(/\W/g, "_").replace(/^(\d)/, "_$1");
  return [
    "import pandas as pd",
    "",
    `name = ${JSON.stringify(fileName)}`,
    `${variable} = pd.read_csv(name)`,
    `print(f"{name}: {len(${variable})} rows, {len(${variable}.columns)} columns")`,
    `for column in ${variable}.columns:`,
    `    values = ${variable}[column]`,
    "    distinct = values.dropna().unique()",
    "    shown = ', '.join(repr(value) for value in distinct[:5]) + (', ...' if len(distinct) > 5 else '')",
    "    print(f'- {column}: {values.dtype}, {values.notna().sum()} filled, {len(distinct)} distinct: {shown}')",
    "",
  ].join("\n");
}

/** The session's id as the execution's, recorded once in the state as ADK records it. */
function statefulExecutionId(context: InvocationContext, stateDelta: Record<string, unknown>): string {
  const record = context.session.state[CODE_EXECUTION_CONTEXT_KEY] as { execution_session_id?: unknown } | undefined;
  if (typeof record?.execution_session_id === "string") return record.execution_session_id;
  stateDelta[CODE_EXECUTION_CONTEXT_KEY] = { ...(record ?? {}), execution_session_id: context.session.id };
  return context.session.id;
}

/** An executor's answer in ADK's shape, refusing what is not (a custom executor's slip would otherwise surface as "undefined" to the model). */
function checkedResult(result: CodeExecutionResult): CodeExecutionResult {
  if (typeof result !== "object" || result === null) throw new Error(`executeCode must answer { stdout, stderr, outputFiles }; it answered ${String(result)}`);
  const outputFiles = result.outputFiles ?? [];
  if (!Array.isArray(outputFiles)) throw new Error("executeCode's outputFiles must be a list of files");
  return { stdout: typeof result.stdout === "string" ? result.stdout : "", stderr: typeof result.stderr === "string" ? result.stderr : "", outputFiles };
}

/**
 * Saves each file the code wrote as an artifact (a new version of one of that name), recorded in the event's
 * `artifactDelta`. A file that cannot be saved (its name refused by the store, or a `user:` name, which would
 * reach past the session) is named in the output instead of being dropped unseen.
 */
async function saveOutputFiles(context: InvocationContext, result: CodeExecutionResult, actions: EventActions): Promise<CodeExecutionResult> {
  if (result.outputFiles.length === 0) return result;
  const saved: CodeExecutionFile[] = [];
  const unsaved: string[] = [];
  const callbackContext = new CallbackContext(context, actions);
  for (const file of result.outputFiles) {
    if (isUserScopedArtifact(file.name)) {
      // Code writes into its session; a "user:" name would replace an artifact every session of the user shares.
      unsaved.push(`${file.name} (a name starting "user:" would be shared by all the user's sessions)`);
      continue;
    }
    try {
      await callbackContext.saveArtifact(file.name, { inlineData: { data: fileBytes(file).toString("base64"), mimeType: file.mimeType } });
      saved.push(file);
    } catch (error) {
      logger.warn(`A file the code wrote, ${JSON.stringify(file.name)}, was not saved as an artifact: ${(error as Error).message}`);
      unsaved.push(`${file.name} (${(error as Error).message})`);
    }
  }
  const stdout = unsaved.length > 0 ? `${result.stdout}\n[Files not saved as artifacts: ${unsaved.join("; ")}]` : result.stdout;
  return { ...result, stdout, outputFiles: saved };
}

/**
 * The request's history as a model reads it when the agent runs code itself: the code it ran as text between the
 * executor's first code delimiters, and each result as the user's text between its result delimiters (ADK's
 * request step for code executors). The stored events are not changed.
 */
export function historyWithCodeAsText(contents: readonly Content[], executor: BaseCodeExecutor): Content[] {
  return contents.map((content) => codeAsText(content, executor.codeBlockDelimiters, executor.executionResultDelimiters));
}
