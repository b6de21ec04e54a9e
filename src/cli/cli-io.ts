import { createInterface } from "node:readline";

/** Where a command reads and writes; the process's streams, or strings in tests. */
export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  /** The next line the user types, or `undefined` at the end of input. */
  readLine(prompt: string): Promise<string | undefined>;
  /** Fires on Ctrl-C. */
  interrupt: AbortSignal;
}

/** The process's terminal. */
export function processIo(): CliIo {
  const lines = createInterface({ input: process.stdin, terminal: false });
  const queue: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let ended = false;
  lines.on("line", (line) => (waiting.length ? waiting.shift()!(line) : queue.push(line)));
  lines.on("close", () => {
    ended = true;
    for (const resolve of waiting.splice(0)) resolve(undefined);
  });
  const interrupt = new AbortController();
  process.once("SIGINT", () => interrupt.abort(new Error("Interrupted.")));
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    interrupt: interrupt.signal,
    readLine: (prompt) => {
      process.stdout.write(prompt);
      if (queue.length) return Promise.resolve(queue.shift());
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}
