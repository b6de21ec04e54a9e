import { posix } from "node:path";
import { ConfigurationError } from "../../../errors/toolsmith-error.js";
import { positiveOption, refuseUnhonouredOptions } from "../../../errors/unhonoured-option.js";
import { BaseCodeExecutor, CodeExecutionLanguage, type CodeExecutionResult, type ExecuteCodeParams } from "../../code-executors/base-code-executor.js";
import { fileBytes, fileFromBytes, placeInside } from "../../code-executors/code-files.js";
import { CANCELLED_BEFORE_START, CANCELLED_WHILE_RUNNING, commandLineArguments } from "../../code-executors/unsafe-local-code-executor.js";
import { PythonWorker, type PythonRunOutcome } from "./python-worker.js";
import { memoryMessage, userTraceback } from "./wasm-execution.js";
import { WORKSPACE } from "./workspace-files.js";

/** Options of {@link WasmCodeExecutor}. */
export interface WasmCodeExecutorOptions {
  /** Seconds a run may take; then Python is stopped with its worker and starts afresh at the next run. Default 30. */
  timeoutSeconds?: number;
  /** The most WebAssembly memory Python may use; default 512 MiB. Past it the run fails with MemoryError. */
  memoryBytes?: number;
  /** The most JavaScript heap of the worker thread, in MiB; default 256. */
  heapMb?: number;
  /** Bytes of output kept per run; default 1,000,000. */
  maxOutputBytes?: number;
  /** Let Python fetch over HTTP(S) with `pyodide.http.pyfetch`; default false (no network). */
  allowNetwork?: boolean;
  /** A local folder of wheels the code may `import` from once loaded (Pyodide's distribution); nothing is downloaded. */
  packageDirectory?: string;
}

const OPTIONS = ["timeoutSeconds", "memoryBytes", "heapMb", "maxOutputBytes", "allowNetwork", "packageDirectory"];
const MiB = 1024 ** 2;

/**
 * A code executor that runs the model's Python in WebAssembly (Pyodide in a
 * worker thread): no process is started, no host file is reached, no network
 * unless `allowNetwork`, and the same on every OS with no system package (the
 * `pyodide` package is an optional peer). Each run starts with fresh
 * variables in a `/workspace` holding only its input files, which is its
 * current directory; what it writes there comes back as output files.
 * Python only: other languages are answered as unsupported, as ADK's
 * executors answer them. Where bubblewrap works, `SandboxedCodeExecutor` runs
 * the system's Python (with its packages), JavaScript and shell code instead.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({ name: "calculator", model, codeExecutor: new WasmCodeExecutor() });
 * ```
 */
export class WasmCodeExecutor extends BaseCodeExecutor {
  private readonly timeoutSeconds: number;
  private readonly memoryBytes: number;
  readonly #worker: PythonWorker;
  /** The sandbox paths the last run left in `/workspace`, removed before the next so each run starts clean. */
  #left = new Set<string>();

  constructor(options: WasmCodeExecutorOptions = {}) {
    super();
    refuseUnhonouredOptions("WasmCodeExecutor", options, OPTIONS);
    if (options.packageDirectory !== undefined && !posix.isAbsolute(options.packageDirectory)) {
      throw new ConfigurationError("INVALID_SANDBOX_OPTION", `WasmCodeExecutor's packageDirectory ${JSON.stringify(options.packageDirectory)} is not an absolute path. Give the absolute path of a folder of .whl files.`);
    }
    this.timeoutSeconds = positiveOption("WasmCodeExecutor", options.timeoutSeconds, 30, "timeoutSeconds");
    this.memoryBytes = positiveOption("WasmCodeExecutor", options.memoryBytes, 512 * MiB, "memoryBytes");
    this.#worker = new PythonWorker({
      memoryBytes: this.memoryBytes,
      heapMb: positiveOption("WasmCodeExecutor", options.heapMb, 256, "heapMb"),
      maxOutputBytes: positiveOption("WasmCodeExecutor", options.maxOutputBytes, 1_000_000, "maxOutputBytes"),
      allowNetwork: options.allowNetwork === true,
      packageDirectory: options.packageDirectory,
    });
    // A replaced worker starts with an empty /workspace.
    this.#worker.onRestart = () => this.#left.clear();
  }

  async executeCode({ invocationContext, codeExecutionInput }: ExecuteCodeParams): Promise<CodeExecutionResult> {
    const { code, language, inputFiles = [], args } = codeExecutionInput;
    if (language !== CodeExecutionLanguage.PYTHON) return { stdout: "", stderr: `Unsupported language: ${language}`, outputFiles: [] };
    const signal = invocationContext.abortSignal;
    if (signal.aborted) return { stdout: "", stderr: CANCELLED_BEFORE_START, outputFiles: [] };
    const inputs = inputFiles.map((file) => [placeInside(WORKSPACE, file.name), fileBytes(file)] as [string, Uint8Array]);
    const stop = () => void this.#worker.close();
    signal.addEventListener("abort", stop, { once: true });
    let outcome: PythonRunOutcome;
    try {
      outcome = await this.#worker.run(code, async () => ({ write: inputs, remove: leftovers(this.#left) }), this.timeoutSeconds * 1000, ["script.py", ...(args === undefined ? [] : commandLineArguments(args))]);
    } finally {
      signal.removeEventListener("abort", stop);
    }
    if (signal.aborted) return { stdout: "", stderr: CANCELLED_WHILE_RUNNING, outputFiles: [] };
    if (outcome.kind !== "answered") return { stdout: "", stderr: this.#failure(outcome), outputFiles: [] };
    const { answer } = outcome;
    this.#left = new Set([...inputs.map(([path]) => path), ...answer.files.written.map(([path]) => path)]);
    const text = (stream: "stdout" | "stderr") => answer.output.filter(([from]) => from === stream).map(([, line]) => line).join("");
    const error = answer.error === undefined ? "" : `${userTraceback(answer.error)}${answer.memoryCapHit ? `\n${memoryMessage(this.memoryBytes)}` : ""}`;
    const stderr = [text("stderr"), error].filter((piece) => piece.length > 0).join("\n");
    const outputFiles = answer.files.written.map(([path, bytes]) => fileFromBytes(path.slice(WORKSPACE.length + 1), bytes));
    return { stdout: text("stdout") + (answer.truncated ? "\n[Output cut.]" : ""), stderr, outputFiles };
  }

  /** Starts Python now instead of at the first run (Pyodide takes seconds to start). */
  start(): Promise<void> {
    return this.#worker.start();
  }

  /** Ends the worker thread; a later run starts a new one. */
  close(): Promise<void> {
    return this.#worker.close();
  }

  #failure(outcome: Exclude<PythonRunOutcome, { kind: "answered" }>): string {
    switch (outcome.kind) {
      case "timed-out":
        return `Code execution timed out after ${this.timeoutSeconds} seconds.`;
      case "out-of-memory":
        return memoryMessage(this.memoryBytes);
      case "heap-exhausted":
        return "MemoryError: the code filled the sandbox's JavaScript heap and was stopped. The Python environment was restarted.";
      case "crashed":
        return `The Python sandbox failed: ${outcome.message}`;
    }
  }
}

/** What the run before left, to remove: its files, then their folders, deepest first (each goes once empty). */
function leftovers(left: ReadonlySet<string>): string[] {
  const folders = new Set<string>();
  for (const path of left) for (let folder = posix.dirname(path); folder.startsWith(`${WORKSPACE}/`); folder = posix.dirname(folder)) folders.add(folder);
  return [...left, ...[...folders].sort((a, b) => b.split("/").length - a.split("/").length)];
}
