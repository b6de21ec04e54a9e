import { runCli } from "../../src/cli/main.js";
import type { CliIo } from "../../src/cli/cli-io.js";

/** Commands that open services; the harness keeps them in memory unless a test names a URI, so no test writes to the checkout. */
const SERVICE_COMMANDS = new Set(["run", "call", "web", "api-server"]);

/** Runs the CLI in this process with typed input lines, capturing what it prints. */
export async function cli(givenArgv: string[], input: string[] = [], options: { interrupt?: AbortSignal } = {}) {
  const argv = [...givenArgv];
  if (SERVICE_COMMANDS.has(argv[0]!)) {
    if (!argv.includes("--session-service-uri")) argv.push("--session-service-uri", "memory://");
    if (!argv.includes("--artifact-service-uri")) argv.push("--artifact-service-uri", "memory://");
  }
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
