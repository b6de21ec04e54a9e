import { createRequire } from "node:module";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { loadOptionalPeer } from "../../../platform/load-optional-peer.js";
import { PYTHON_WORKER_SOURCE } from "./python-worker-source.js";

/** Limits and permissions of the Python worker. */
export interface PythonWorkerSettings {
  /** The most WebAssembly memory Python may grow to, in bytes. */
  memoryBytes: number;
  /** The most JavaScript heap the worker thread may use, in MiB (the worker's `resourceLimits`). */
  heapMb: number;
  maxOutputBytes: number;
  allowNetwork: boolean;
  /** A local directory of wheels Pyodide may load packages from. */
  packageDirectory?: string;
}

/** File changes to apply in the worker's `/workspace` before a run. */
export interface WorkspaceChanges {
  write: [sandboxPath: string, bytes: Uint8Array][];
  remove: string[];
}

/** What one Python run gave back. */
export interface PythonRunAnswer {
  output: [stream: "stdout" | "stderr", text: string][];
  truncated: boolean;
  result?: string;
  error?: string;
  memoryCapHit: boolean;
  files: { written: [string, Uint8Array][]; removed: string[]; skipped: { path: string; reason: string }[] };
}

/** How a run ended when the worker itself had to go. */
export type PythonRunOutcome = { kind: "answered"; answer: PythonRunAnswer } | { kind: "timed-out" } | { kind: "out-of-memory" } | { kind: "heap-exhausted" } | { kind: "crashed"; message: string };

interface Pending {
  resolve: (message: WorkerMessage) => void;
  reject: (error: Error) => void;
}

interface WorkerMessage {
  id?: number;
  ready?: boolean;
  ok?: boolean;
  answer?: unknown;
  error?: string;
  memoryCapHit?: boolean;
}

/** Where the pyodide package lies, found without importing it in this thread. */
async function locatePyodide(): Promise<string> {
  return loadOptionalPeer({
    load: async () => createRequire(import.meta.url).resolve("pyodide/pyodide.mjs"),
    packageName: "pyodide",
    neededFor: 'execution: "wasm" (execute_python)',
  });
}

/**
 * One Pyodide interpreter in a worker thread, shared by the runs of one
 * toolset: started on first use (Pyodide takes seconds to start), its runs
 * one at a time, and replaced by a fresh one after a run it had to kill (time
 * limit, memory cap, crash). Holds state, hence a class.
 */
export class PythonWorker {
  readonly #settings: PythonWorkerSettings;
  #worker: Worker | undefined;
  #ready: Promise<void> | undefined;
  #nextId = 0;
  readonly #pending = new Map<number, Pending>();
  #queue: Promise<unknown> = Promise.resolve();
  #exitReason: "timed-out" | "heap-exhausted" | undefined;
  /** Called when a worker is replaced, so whoever mirrors its files starts over. */
  onRestart: () => void = () => undefined;

  constructor(settings: PythonWorkerSettings) {
    this.#settings = settings;
  }

  /** Starts the interpreter now rather than at the first run (the benchmark times it). */
  start(): Promise<void> {
    if (this.#ready) return this.#ready;
    const ready = this.#spawn();
    this.#ready = ready;
    ready.catch(() => {
      if (this.#ready === ready) this.#ready = undefined;
    });
    return ready;
  }

  async #spawn(): Promise<void> {
    const modulePath = await locatePyodide();
    const worker = new Worker(PYTHON_WORKER_SOURCE, {
      eval: true,
      workerData: {
        pyodideUrl: pathToFileURL(modulePath).href,
        indexPath: `${dirname(modulePath)}/`,
        memoryBytes: this.#settings.memoryBytes,
        maxOutputBytes: this.#settings.maxOutputBytes,
        allowNetwork: this.#settings.allowNetwork,
        packageDirectory: this.#settings.packageDirectory ? `${this.#settings.packageDirectory.replace(/\/$/, "")}/` : undefined,
      },
      resourceLimits: { maxOldGenerationSizeMb: this.#settings.heapMb },
      stdout: true,
      stderr: true,
      env: {},
    });
    // The worker must not keep a finished program alive.
    worker.unref();
    this.#worker = worker;
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: WorkerMessage) => {
        if (message.ready === true) resolve();
        else if (message.ready === false) reject(new Error(`Pyodide did not start: ${message.error}`));
        else if (message.id !== undefined) this.#pending.get(message.id)?.resolve(message);
      };
      worker.on("message", onMessage);
      worker.on("error", (error: Error & { code?: string }) => {
        if (error.code === "ERR_WORKER_OUT_OF_MEMORY") this.#exitReason ??= "heap-exhausted";
        reject(error);
        this.#failPending(error);
      });
      worker.on("exit", () => {
        if (this.#worker === worker) {
          this.#worker = undefined;
          this.#ready = undefined;
          this.onRestart();
        }
        reject(new Error("the Python worker exited while starting"));
        this.#failPending(new Error("the Python worker exited"));
      });
    });
  }

  #failPending(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  /** Runs code with `argv` as Python's `sys.argv` (default `["script.py"]`), killing the worker if it passes `timeoutMs`; runs wait for each other. */
  run(code: string, prepareChanges: () => Promise<WorkspaceChanges>, timeoutMs: number, argv?: readonly string[]): Promise<PythonRunOutcome> {
    // The changes are worked out in turn, once the worker is up: a worker replaced meanwhile starts with an empty /workspace.
    return this.#enqueue(async () => {
      await this.start();
      return this.#request({ type: "run", code, argv, changes: await prepareChanges() }, timeoutMs);
    });
  }

  /** Loads wheels (local paths) into the interpreter; each item is reported on its own. */
  async install(packages: { name: string; paths: string[] }[], timeoutMs: number): Promise<PythonRunOutcome> {
    return this.#enqueue(() => this.#request({ type: "install", packages }, timeoutMs));
  }

  #enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #request(message: Record<string, unknown>, timeoutMs: number): Promise<PythonRunOutcome> {
    await this.start();
    const worker = this.#worker!;
    const id = ++this.#nextId;
    this.#exitReason = undefined;
    const timer = setTimeout(() => {
      this.#exitReason = "timed-out";
      void worker.terminate();
    }, timeoutMs);
    try {
      const reply = await new Promise<WorkerMessage>((resolve, reject) => {
        this.#pending.set(id, { resolve, reject });
        worker.postMessage({ ...message, id });
      });
      this.#pending.delete(id);
      if (!reply.ok) {
        if (reply.memoryCapHit) {
          await this.#replace(worker);
          return { kind: "out-of-memory" };
        }
        return { kind: "crashed", message: reply.error ?? "unknown error" };
      }
      const answer = reply.answer as PythonRunAnswer;
      // After a MemoryError the interpreter may be left half-allocated: the next run gets a fresh one.
      if (answer.memoryCapHit) await this.#replace(worker);
      return { kind: "answered", answer };
    } catch (error) {
      if (this.#exitReason) return { kind: this.#exitReason };
      return { kind: "crashed", message: (error as Error).message };
    } finally {
      clearTimeout(timer);
    }
  }

  async #replace(worker: Worker): Promise<void> {
    await worker.terminate();
  }

  /** Ends the worker; a later run starts a new one. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#ready = undefined;
    await worker?.terminate();
  }
}
