import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

const repositoryRoot = new URL("../../", import.meta.url).pathname;

/** A TypeScript file run in a new Node process, its stdout read as JSON lines. */
export interface Worker {
  child: ChildProcess;
  lines: Array<Record<string, unknown>>;
  /** Resolves with the first line for which `test` holds. */
  waitFor(test: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Resolves when the process has exited, with its code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts `node --import tsx <script> <JSON argument>` in the repository root. */
export function startWorker(script: string, argument: unknown): Worker {
  const child = spawn(process.execPath, ["--import", "tsx", script, JSON.stringify(argument)], { cwd: repositoryRoot, stdio: ["pipe", "pipe", "pipe"] });
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<{ test: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }> = [];
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  createInterface({ input: child.stdout! }).on("line", (text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    lines.push(line);
    for (const waiter of waiters.splice(0)) (waiter.test(line) ? waiter.resolve(line) : waiters.push(waiter));
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on("exit", (code, signal) => {
      // Let the last stdout lines arrive before the caller looks at them.
      setImmediate(() => resolve({ code, signal, stderr }));
    }),
  );
  return {
    child,
    lines,
    exited,
    waitFor: (test) =>
      new Promise((resolve, reject) => {
        const found = lines.find(test);
        if (found) return resolve(found);
        waiters.push({ test, resolve });
        void exited.then(({ code, signal }) => reject(new Error(`worker exited (${code ?? signal}) before the expected line: ${stderr}`)));
      }),
  };
}
