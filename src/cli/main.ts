/**
 * The `toolsmith` command: `web`, `api-server`, `run`, `tools`, `call`.
 * Errors are one line saying what to do; `--verbose` adds the stack.
 *
 * @module toolsmith/cli
 */
import { parseArgs } from "node:util";
import { isToolsmithError } from "../errors/toolsmith-error.js";
import { TOOLSMITH_VERSION } from "../platform/package-root.js";
import { callCommand } from "./call-command.js";
import { processIo, type CliIo } from "./cli-io.js";
import { EXIT, UsageError } from "./exit-codes.js";
import { runCommand } from "./run-command.js";
import { SERVE_OPTIONS, serveCommand } from "./serve-command.js";
import { toolsCommand } from "./tools-command.js";

const USAGE = `Usage: toolsmith <command> [options]

  web <agents-dir>          Serve the web UI and the HTTP API (http://127.0.0.1:8000)
  api-server <agents-dir>   Serve the HTTP API only
  run <agent>               Chat with an agent in the terminal
  tools <agent>             List the agent's tools and their schemas
  call <agent> <tool> '<json args>'   Run one tool on a session and print what it did

An agents directory holds <name>.ts|.js or <name>/agent.ts|.js modules exporting rootAgent;
<agent> is one such module or folder.

Serve options:  --host 127.0.0.1  --port 8000  --session-service-uri URI  --artifact-service-uri URI
                --reload  --allow-origin ORIGIN (repeatable)  --tokens-file FILE  --max-body-bytes N  --adk-dev-ui
run options:    --user ID  --resume SESSION_ID  --replay FILE  --no-stream  --session-service-uri URI  --artifact-service-uri URI
tools options:  --provider gemini|openai|anthropic  --json
call options:   --user ID  --session SESSION_ID  --json  --session-service-uri URI  --artifact-service-uri URI
Everywhere:     --verbose (stack traces)  --help  --version

Exit codes: 0 done, 1 failure, 2 bad command line, 3 bad setup (agents, app, session, service URI),
            4 the tool or the run ended in an error, 130 interrupted.
`;

const OPTIONS = {
  ...SERVE_OPTIONS,
  user: { type: "string", default: "user" },
  resume: { type: "string" },
  replay: { type: "string" },
  "no-stream": { type: "boolean", default: false },
  provider: { type: "string" },
  json: { type: "boolean", default: false },
  session: { type: "string" },
  verbose: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
  version: { type: "boolean", short: "v", default: false },
} as const;

/** Runs the command line `argv` (without `node` and the script) and returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let verbose = argv.includes("--verbose");
  try {
    const { values, positionals } = parseArguments(argv);
    verbose = values.verbose ?? false;
    const [command, ...rest] = positionals;
    if (values.version) {
      io.stdout.write(`${TOOLSMITH_VERSION}\n`);
      return EXIT.OK;
    }
    if (values.help || !command) {
      io.stdout.write(USAGE);
      return values.help ? EXIT.OK : EXIT.USAGE;
    }
    const services = { sessionServiceUri: values["session-service-uri"], artifactServiceUri: values["artifact-service-uri"] };
    switch (command) {
      case "web":
      case "api-server":
        return await serveCommand({ io, agentsDir: rest[0], values, webUi: command === "web" });
      case "run":
        return await runCommand({ io, agentPath: rest[0], userId: values.user!, resume: values.resume, replay: values.replay, stream: !values["no-stream"], ...services });
      case "tools":
        return await toolsCommand({ io, agentPath: rest[0], provider: values.provider, json: values.json ?? false });
      case "call":
        return await callCommand({ io, agentPath: rest[0], toolName: rest[1], argsJson: rest[2], userId: values.user!, sessionId: values.session, json: values.json ?? false, ...services });
      default:
        throw new UsageError(`Unknown command "${command}". Commands: web, api-server, run, tools, call (toolsmith --help).`);
    }
  } catch (error) {
    const { code, message } = describeFailure(error);
    io.stderr.write(`toolsmith: ${message}\n`);
    if (verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return code;
  }
}

function parseArguments(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split("\n")[0]} (toolsmith --help lists the options).`);
  }
}

function describeFailure(error: unknown): { code: number; message: string } {
  if (error instanceof UsageError) return { code: EXIT.USAGE, message: error.message };
  if (isToolsmithError(error)) return { code: EXIT.CONFIGURATION, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: EXIT.FAILURE, message: `${message || "failed"} (rerun with --verbose for details)` };
}
