import type { InvocationContext } from "../../agents/invocation-context.js";

/** The language of code to run, with ADK's names and values. */
export enum CodeExecutionLanguage {
  UNSPECIFIED = "unspecified",
  PYTHON = "python",
  JAVASCRIPT = "javascript",
  TYPESCRIPT = "typescript",
  SHELL = "shell",
  POWERSHELL = "powershell",
  WINDOWS_CMD = "cmd",
}

/** How a {@link CodeExecutionFile}'s `content` is written (ADK's enum). */
export enum FileContentEncoding {
  UTF8 = "utf-8",
  BASE64 = "base64",
}

/** A file given to code or written by it (ADK's `File`): its name inside the code's folder, its content and type. */
export interface CodeExecutionFile {
  /** The path inside the folder the code runs in, such as `chart.png` or `data/input.csv`. */
  name: string;
  /** The content, as `contentEncoding` says (UTF-8 text when left out). */
  content: string;
  contentEncoding?: FileContentEncoding;
  /** Such as `text/csv` or `image/png`. */
  mimeType: string;
}

/** What a code executor is asked to run (ADK's `CodeExecutionInput`). */
export interface CodeExecutionInput {
  code: string;
  language: CodeExecutionLanguage;
  /** Files put beside the code before it runs. */
  inputFiles: CodeExecutionFile[];
  /** With a stateful executor, the id of the execution state to run in (the session's id). */
  executionId?: string;
  /** Command-line arguments: a list as given, or `{ out: "a.txt" }` as `--out a.txt`. */
  args?: string[] | Record<string, string | number | boolean>;
}

/** What running code gave (ADK's `CodeExecutionResult`). */
export interface CodeExecutionResult {
  stdout: string;
  /** Non-empty when the code failed: the model is shown this instead of the output. */
  stderr: string;
  /** Files the code wrote; the agent saves them as artifacts. */
  outputFiles: CodeExecutionFile[];
}

/** What {@link BaseCodeExecutor.executeCode} is given. */
export interface ExecuteCodeParams {
  /** The run the code belongs to: its session, its `abortSignal` (stop the code when it fires) and agent. */
  invocationContext: InvocationContext;
  codeExecutionInput: CodeExecutionInput;
}

const CODE_EXECUTOR_BRAND = Symbol.for("google.adk.baseCodeExecutor");

/** Whether `value` is a code executor (ADK's check, which holds for ADK's executors too, by the brand they share). */
export function isBaseCodeExecutor(value: unknown): value is BaseCodeExecutor {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[CODE_EXECUTOR_BRAND] === true;
}

/** Marks an object as a code executor, for a class that cannot extend {@link BaseCodeExecutor} (the built-in one extends a tool). */
export function brandAsCodeExecutor(value: object): void {
  Object.defineProperty(value, CODE_EXECUTOR_BRAND, { value: true });
}

/**
 * ADK's code executor: an `LlmAgent` given one as `codeExecutor` runs the
 * first code block of each model answer through it (a block between one of
 * {@link codeBlockDelimiters}), stores the code and its result as events,
 * saves the files it wrote as artifacts and asks the model again. Skills'
 * scripts run through one too (`SkillToolset`'s `codeExecutor`). Extend it
 * and implement {@link executeCode} to run code elsewhere; toolsmith gives
 * `UnsafeLocalCodeExecutor` (this machine, no isolation) and
 * `SandboxedCodeExecutor` (bubblewrap, from `toolsmith/tools`).
 */
export abstract class BaseCodeExecutor {
  declare readonly [CODE_EXECUTOR_BRAND]: true;

  /**
   * ADK's: when true, CSV files the user sent are given to the code as
   * `data_<content>_<part>.csv` and first explored with pandas. Default false.
   */
  optimizeDataFile = false;

  /** Whether executions share state: each is given the session's id as `executionId`. Default false. */
  stateful = false;

  /**
   * How many failed runs in a row (a non-empty `stderr`) an invocation allows
   * before the agent stops running the model's code and takes its answer as
   * it is. Default 2.
   */
  errorRetryAttempts = 2;

  /**
   * The delimiters around code to run, each `[before, after]`; the earliest
   * block in the answer runs. The word after the backticks names the language
   * (`tool_code` is Python).
   */
  codeBlockDelimiters: Array<[string, string]> = [
    ["```tool_code\n", "\n```"],
    ["```python\n", "\n```"],
    ["```javascript\n", "\n```"],
    ["```typescript\n", "\n```"],
    ["```bash\n", "\n```"],
    ["```sh\n", "\n```"],
  ];

  /** The delimiters around a run's result when the model is shown it as text. */
  executionResultDelimiters: [string, string] = ["```tool_output\n", "\n```"];

  constructor() {
    brandAsCodeExecutor(this);
  }

  /** Runs the code and answers with what it printed and the files it wrote. Throwing ends the agent's run with `CODE_EXECUTION_FAILED`. */
  abstract executeCode(params: ExecuteCodeParams): Promise<CodeExecutionResult>;

  /** `instanceof BaseCodeExecutor` holds for every branded executor (the built-in one included), as ADK's `isBaseCodeExecutor`. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return this === BaseCodeExecutor ? isBaseCodeExecutor(value) : Function.prototype[Symbol.hasInstance].call(this, value);
  }
}
