import { runCli } from "../../src/cli/main.js";
import type { CliIo } from "../../src/cli/cli-io.js";

/** Commands that open services; the harness keeps them in memory unless a test names a URI, so no test writes to the checkout. */
const SERVICE_COMMANDS = new Set(["run", "call", "web", "api-server"]);

/**
 * Runs the CLI in this process with typed input lines, capturing what it
 * prints: `stdout` and `stderr` apart, and `terminal`, both interleaved as one
 * terminal receives them. With `tty`, both streams say they are terminals.
 */
export async function cli(givenArgv: string[], input: string[] = [], options: { interrupt?: AbortSignal; tty?: boolean } = {}) {
  const argv = [...givenArgv];
  if (SERVICE_COMMANDS.has(argv[0]!)) {
    if (!argv.includes("--session-service-uri")) argv.push("--session-service-uri", "memory://");
    if (!argv.includes("--artifact-service-uri")) argv.push("--artifact-service-uri", "memory://");
  }
  let stdout = "";
  let stderr = "";
  let terminal = "";
  const lines = [...input];
  const tty = options.tty ? { isTTY: true } : {};
  const io: CliIo = {
    stdout: { ...tty, write: (text: string) => ((terminal += text), (stdout += text)) },
    stderr: { ...tty, write: (text: string) => ((terminal += text), (stderr += text)) },
    readLine: async (prompt) => {
      const line = lines.shift();
      // What the user types, and its Enter, shows after the prompt as the terminal echoes it.
      const typed = `${prompt}${line === undefined ? "" : `${line}\n`}`;
      stdout += typed;
      terminal += typed;
      return line;
    },
    interrupt: options.interrupt ?? new AbortController().signal,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr, terminal };
}
