import { createRequire } from "node:module";
import { dirname, isAbsolute, join } from "node:path";
import { ConfigurationError } from "../../../errors/toolsmith-error.js";
import { FunctionTool } from "../../function-tool.js";
import type { Tool, Toolset } from "../../tool.js";
import type { Backend, BackendContext } from "../filesystem/backend.js";
import { secondsText } from "../shell/execute-tool.js";
import { runSimulatedBash } from "./bash-run.js";
import { resolvePackages } from "./python-packages.js";
import { PythonWorker, type PythonRunAnswer, type WorkspaceChanges } from "./python-worker.js";
import { digest, readBackendFiles, saveChanges, savedChangesResult, toSandboxPath, WORKSPACE } from "./workspace-files.js";
import type { ScriptRunner } from "../../skills/script-runner.js";
import { endSentence } from "../../../errors/sentence.js";

/** Options of {@link createWasmExecution}. */
export interface WasmExecutionOptions {
  /** The agent's files; Python and bash see them under `/workspace` and their changes are written back through it. */
  backend: Backend;
  /** Default 120,000 ms for each `execute_python` and `execute_bash` call; Python is killed with its worker when it passes. */
  timeoutMs?: number;
  /** Default 100,000 bytes of output per call; more is dropped and `truncated: true` returned. */
  maxOutputBytes?: number;
  /** The most WebAssembly memory Python may use; default 512 MiB. Past it Python fails with MemoryError and its interpreter is replaced. */
  memoryBytes?: number;
  /** The most JavaScript heap of the worker thread, in MiB; default 256. */
  heapMb?: number;
  /**
   * Let Python reach the network; default false. Python then fetches over HTTP and HTTPS with
   * `pyodide.http.pyfetch` (through Node's `fetch`); its own `socket` and `urllib` have no way out
   * under Pyodide on Node either way.
   */
  allowNetwork?: boolean;
  /**
   * A local directory of wheels for `install_packages`: Pyodide's full
   * distribution of the installed version, or pure-Python wheels. Without
   * it, `install_packages` answers that nothing can be installed (nothing is
   * ever downloaded).
   */
  packageDirectory?: string;
  /** Default 300,000 ms for one `install_packages` call. */
  installTimeoutMs?: number;
}

/** The WebAssembly sandbox's tools, with the Python worker they share; a {@link Toolset}, so `runner.close()` ends the worker. */
export interface WasmExecution extends Toolset {
  /** `execute_python`, `execute_bash`, `install_packages`. */
  readonly tools: readonly Tool[];
  /** Starts Python now instead of at the first call (Pyodide takes seconds to start). */
  start(): Promise<void>;
  /**
   * Runs a skill's Python script in the same sandbox (a deep agent's `run_skill_script` with `execution: "wasm"`):
   * the skill's files under `/skills/<name>` (named by `SKILL_DIR`), the workspace as the current directory and
   * what the script writes there saved, answered in the `execute` tool's shape. Other languages are refused.
   */
  readonly runScript: ScriptRunner;
}

const MiB = 1024 ** 2;

/**
 * The `"wasm"` execution of a deep agent, as Heimdall's tools (seed 002):
 * `execute_python(code, packages?)` runs Python in Pyodide (WebAssembly) in a
 * worker thread; `execute_bash(command, cwd?)` runs a simulated bash
 * (just-bash); `install_packages(packages)` loads wheels from a local
 * directory. Both see the backend's files under `/workspace` and write what
 * they change back through it. No process is started and no host file is
 * reached; the network is closed unless `allowNetwork`. The same on every OS,
 * with no system package. `pyodide` and `just-bash` are optional peers,
 * loaded at the first call.
 *
 * @example
 * ```ts
 * const execution = createWasmExecution({ backend: new StateBackend(), timeoutMs: 30_000 });
 * const agent = new LlmAgent({ name: "analyst", model, tools: [execution] });
 * ```
 */
export function createWasmExecution(options: WasmExecutionOptions): WasmExecution {
  const timeoutMs = positive(options.timeoutMs, 120_000, "timeoutMs");
  const maxOutputBytes = positive(options.maxOutputBytes, 100_000, "maxOutputBytes");
  const memoryBytes = positive(options.memoryBytes, 512 * MiB, "memoryBytes");
  const installTimeoutMs = positive(options.installTimeoutMs, 300_000, "installTimeoutMs");
  if (options.packageDirectory !== undefined && !isAbsolute(options.packageDirectory)) {
    throw new ConfigurationError("INVALID_SANDBOX_OPTION", `packageDirectory ${JSON.stringify(options.packageDirectory)} is not an absolute path. Give the absolute path of a folder of .whl files.`);
  }
  const { backend } = options;
  const heapMb = positive(options.heapMb, 256, "heapMb");
  const worker = new PythonWorker({
    memoryBytes,
    heapMb,
    maxOutputBytes,
    allowNetwork: options.allowNetwork === true,
    packageDirectory: options.packageDirectory,
  });
  // What the worker's /workspace holds (sandbox path → digest), so a run sends only what changed since.
  let mirror = new Map<string, string>();
  worker.onRestart = () => (mirror = new Map());

  const changesFor = async (context: BackendContext): Promise<WorkspaceChanges> => {
    const files = await readBackendFiles(backend, context);
    const changes: WorkspaceChanges = { write: [], remove: [] };
    const present = new Set<string>();
    for (const [path, bytes] of files) {
      const sandboxPath = toSandboxPath(path);
      present.add(sandboxPath);
      const hash = digest(bytes);
      if (mirror.get(sandboxPath) !== hash) {
        changes.write.push([sandboxPath, bytes]);
        mirror.set(sandboxPath, hash);
      }
    }
    for (const path of [...mirror.keys()]) {
      if (!present.has(path)) {
        changes.remove.push(path);
        mirror.delete(path);
      }
    }
    return changes;
  };

  const executePython = new FunctionTool({
    name: "execute_python",
    description:
      `Executes Python 3 code in a sandbox (Pyodide, WebAssembly) and returns stdout, stderr, the value of the last expression (result) and any error. ` +
      `The workspace files are in ${WORKSPACE}, the current directory; files you write there are saved. ` +
      `${options.allowNetwork ? "" : "There is no network access. "}Runs stop after ${Math.round(timeoutMs / 1000)} s and may use ${Math.round(memoryBytes / MiB)} MiB of memory. ` +
      `Each call starts with fresh variables; use files to keep results between calls.`,
    parameters: {
      type: "object",
      properties: {
        code: { type: "string", description: "Python code to execute." },
        packages: { type: "array", items: { type: "string" }, description: "Packages to install before running (see install_packages)." },
      },
      required: ["code"],
    },
    execute: async (args, context) => {
      const code = String(args.code);
      if (!code.trim()) return pythonError("code is empty. Give Python code to run.");
      const packages = (args.packages as string[] | undefined) ?? [];
      if (packages.length > 0) {
        const installed = await installPackages(packages);
        const failed = (installed.results as { success: boolean }[]).filter((entry) => !entry.success);
        if (failed.length > 0) return { ...pythonError("The code did not run: some packages could not be installed."), install_results: installed.results };
      }
      const outcome = await worker.run(code, () => changesFor(context), timeoutMs);
      if (outcome.kind === "timed-out") {
        return pythonError(`Execution timed out after ${secondsText(timeoutMs)}. The Python environment was restarted: installed packages and module state are gone, and files written during this run were not saved. Make the code do less per call.`);
      }
      if (outcome.kind === "out-of-memory") return pythonError(memoryMessage(memoryBytes));
      if (outcome.kind === "heap-exhausted") {
        return pythonError(`MemoryError: the code filled the sandbox's JavaScript heap limit of ${heapMb} MiB (objects handed to JavaScript) and was stopped. The Python environment was restarted. Hand less data to JavaScript at once.`);
      }
      if (outcome.kind === "crashed") return pythonError(`The Python sandbox failed: ${endSentence(outcome.message)} Try again; the environment starts afresh.`);
      const { files } = outcome.answer;
      for (const [path, bytes] of files.written) mirror.set(path, digest(bytes));
      // The backend keeps a file Python deleted (it has no delete): the next run sends it again.
      for (const path of files.removed) mirror.delete(path);
      return pythonResult(outcome.answer, await saveChanges({ backend, context, ...files }), memoryBytes);
    },
  });

  const executeBash = new FunctionTool({
    name: "execute_bash",
    description:
      `Executes a bash command in a simulated bash (no real processes; grep, sed, awk, find, jq and 50 more built in) and returns its output and exit code. ` +
      `The workspace files are in ${WORKSPACE}, the starting directory; files you change there are saved. There is no network access. Commands stop after ${Math.round(timeoutMs / 1000)} s.`,
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", description: "The bash command to execute." },
        cwd: { type: "string", description: `Working directory relative to ${WORKSPACE}, such as "src" or ".".` },
      },
      required: ["command"],
    },
    execute: async (args, context) => {
      const command = String(args.command);
      if (!command.trim()) return { status: "error", output: "command is empty. Give a bash command to run.", exit_code: -1, truncated: false };
      return runSimulatedBash({ backend, context, command, cwd: args.cwd as string | undefined, timeoutMs, maxOutputBytes, abortSignal: context.abortSignal });
    },
  });

  const lockFilePath = join(dirname(pyodideModulePath()), "pyodide-lock.json");
  async function installPackages(packages: readonly string[]): Promise<Record<string, unknown>> {
    const { loadable, refused } = resolvePackages(packages, { packageDirectory: options.packageDirectory, lockFilePath });
    const results: Record<string, unknown>[] = [...refused];
    if (loadable.length > 0) {
      const outcome = await worker.install(loadable, installTimeoutMs);
      if (outcome.kind === "answered") results.push(...((outcome.answer as unknown as { results: Record<string, unknown>[] }).results));
      else for (const entry of loadable) results.push({ package: entry.name, success: false, error: outcome.kind === "timed-out" ? `Installing timed out after ${secondsText(installTimeoutMs)}.` : "The Python sandbox failed while installing." });
    }
    const ordered = packages.map((name) => results.find((entry) => entry.package === name)!);
    return { status: ordered.every((entry) => entry.success) ? "success" : "error", results: ordered };
  }

  const installTool = new FunctionTool({
    name: "install_packages",
    description: options.packageDirectory
      ? "Installs Python packages for execute_python from the wheels available to the sandbox (no download). Reports each package's result."
      : "Installs Python packages for execute_python. No package source is configured, so every package is refused with the reason; use the standard library.",
    parameters: { type: "object", properties: { packages: { type: "array", items: { type: "string" }, description: "Package names, such as [\"attrs\"]." } }, required: ["packages"] },
    execute: async (args) => {
      const packages = (args.packages as string[]).map(String);
      if (packages.length === 0) return { status: "error", results: [], message: "packages is empty. Name the packages to install." };
      return installPackages(packages);
    },
  });

  const runScript: ScriptRunner = async ({ skillName, scriptPath, language, args, files, context }) => {
    if (language !== "python") {
      return { status: "error", output: `${scriptPath} is a ${language} script, and the WebAssembly sandbox runs Python scripts only. Do what it does with execute_bash or execute_python instead.`, exit_code: -1, truncated: false };
    }
    const outcome = await worker.run(skillScriptProgram(skillName, scriptPath, args, files), () => changesFor(context), timeoutMs);
    if (outcome.kind !== "answered") {
      const reason = outcome.kind === "timed-out" ? `The script timed out after ${secondsText(timeoutMs)}.` : outcome.kind === "crashed" ? `The Python sandbox failed: ${endSentence(outcome.message)}` : memoryMessage(memoryBytes);
      return { status: "error", output: reason, exit_code: -1, truncated: false };
    }
    const { answer } = outcome;
    for (const [path, bytes] of answer.files.written) mirror.set(path, digest(bytes));
    for (const path of answer.files.removed) mirror.delete(path);
    const saved = await saveChanges({ backend, context, ...answer.files });
    const output = answer.output.map(([, text]) => text).join("") + (answer.error === undefined ? "" : userTraceback(answer.error));
    const exitCode = answer.error !== undefined ? 1 : Number(answer.result ?? 0);
    return { status: exitCode === 0 ? "success" : "error", output, exit_code: exitCode, truncated: answer.truncated, ...savedChangesResult(saved) };
  };

  const tools: Tool[] = [executePython, executeBash, installTool];
  return {
    tools,
    runScript,
    getTools: async () => tools,
    start: () => worker.start(),
    close: async () => {
      await worker.close();
      mirror = new Map();
    },
  };
}

/**
 * The Python program that runs a skill's script: writes the skill's files under `/skills/<name>` (outside the
 * workspace, so they are not saved to the backend), sets `SKILL_DIR` and `sys.argv`, runs the script as
 * `__main__` and ends with its exit code as the last expression (the run's `result`).
 */
function skillScriptProgram(skillName: string, scriptPath: string, args: readonly string[], files: ReadonlyMap<string, string | Uint8Array>): string {
  const skillDir = `/skills/${skillName}`;
  const encoded = [...files].map(([path, content]) => [path, Buffer.from(content).toString("base64")]);
  // JSON strings are Python string literals; file contents travel as base64 so no byte needs escaping.
  return [
    "import base64 as _b64, os as _os, sys as _sys, runpy as _runpy",
    `_skill_dir = ${JSON.stringify(skillDir)}`,
    `for _path, _data in ${JSON.stringify(encoded)}:`,
    "    _target = _os.path.join(_skill_dir, _path)",
    "    _os.makedirs(_os.path.dirname(_target), exist_ok=True)",
    "    with open(_target, 'wb') as _file:",
    "        _file.write(_b64.b64decode(_data))",
    "_os.environ['SKILL_DIR'] = _skill_dir",
    `_sys.argv = [_os.path.join(_skill_dir, ${JSON.stringify(scriptPath)}), *${JSON.stringify(args)}]`,
    "_exit_code = 0",
    "try:",
    "    _runpy.run_path(_sys.argv[0], run_name='__main__')",
    "except SystemExit as _exit:",
    "    if _exit.code is None: _exit_code = 0",
    "    elif isinstance(_exit.code, int): _exit_code = _exit.code",
    "    else:",
    "        print(_exit.code, file=_sys.stderr)",
    "        _exit_code = 1",
    "_exit_code",
  ].join("\n");
}

/** Where the pyodide package is, for its lock file; the package may be missing until Python is used, so this never throws. */
function pyodideModulePath(): string {
  try {
    return createRequire(import.meta.url).resolve("pyodide/pyodide.mjs");
  } catch {
    return "/nonexistent/pyodide.mjs";
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new ConfigurationError("INVALID_SANDBOX_OPTION", `${name} is ${JSON.stringify(value)}; give a positive number (the default is ${fallback}).`);
  }
  return value;
}

/** What Python is told when it passed the memory cap. */
export function memoryMessage(memoryBytes: number): string {
  return `MemoryError: the code used more than the memory cap of ${Math.round(memoryBytes / MiB)} MiB and was stopped. The Python environment was restarted. Use less memory (process data in chunks, or smaller structures).`;
}

function pythonError(error: string): Record<string, unknown> {
  return { status: "error", stdout: "", stderr: "", error, truncated: false };
}

/** Pyodide's traceback with its own frames (the code runner) left out: the model sees frames of its code only. */
export function userTraceback(error: string): string {
  const lines = error.split("\n");
  const first = lines.findIndex((line) => line.startsWith('  File "<exec>"'));
  return first > 0 ? [lines[0], ...lines.slice(first)].join("\n").trimEnd() : error.trimEnd();
}

function pythonResult(answer: PythonRunAnswer, saved: Awaited<ReturnType<typeof saveChanges>>, memoryBytes: number): Record<string, unknown> {
  const text = (stream: "stdout" | "stderr") => answer.output.filter(([from]) => from === stream).map(([, line]) => line).join("");
  const error = answer.error === undefined ? undefined : answer.memoryCapHit ? `${userTraceback(answer.error)}\n${memoryMessage(memoryBytes)}` : userTraceback(answer.error);
  return {
    status: error === undefined ? "success" : "error",
    stdout: text("stdout"),
    stderr: text("stderr"),
    ...(answer.result !== undefined ? { result: answer.result } : {}),
    ...(error !== undefined ? { error } : {}),
    truncated: answer.truncated,
    ...savedChangesResult(saved),
  };
}
