import { runCli } from "../../src/cli/main.js";
import type { CliIo } from "../../src/cli/cli-io.js";

/** Runs the CLI in this process with typed input lines, capturing what it prints. */
export async function cli(argv: string[], input: string[] = [], options: { interrupt?: AbortSignal } = {}) {
  let stdout = "";
  let stderr = "";
  const lines = [...input];
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    readLine: async (prompt) => {
      stdout += prompt;
      const line = lines.shift();
      if (line !== undefined) stdout += `${line}\n`;
      return line;
    },
    interrupt: options.interrupt ?? new AbortController().signal,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}
