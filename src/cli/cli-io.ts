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
  const queue: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let ended = false;
  let listening = false;
  // Stdin is read from the first prompt on: `mcp` hands stdin to the MCP transport, and servers must not hold it open.
  const listen = () => {
    if (listening) return;
    listening = true;
    const lines = createInterface({ input: process.stdin, terminal: false });
    lines.on("line", (line) => (waiting.length ? waiting.shift()!(line) : queue.push(line)));
    lines.on("close", () => {
      ended = true;
      for (const resolve of waiting.splice(0)) resolve(undefined);
    });
  };
  const interrupt = new AbortController();
  process.once("SIGINT", () => interrupt.abort(new Error("Interrupted.")));
  // A service manager stops a server with SIGTERM: close it as Ctrl-C would, sessions and toolsets included.
  process.once("SIGTERM", () => interrupt.abort(new Error("Terminated.")));
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    interrupt: interrupt.signal,
    readLine: (prompt) => {
      listen();
      process.stdout.write(prompt);
      if (queue.length) return Promise.resolve(queue.shift());
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}
