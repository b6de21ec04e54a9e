/**
 * The `toolsmith` command: `create`, `web`, `api-server`, `run`, `mcp`,
 * `tools`, `call`, `eval`, `help`. Errors are one line saying what to do; `--verbose`
 * adds the stack.
 *
 * @module toolsmith/cli
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { isToolsmithError } from "../errors/toolsmith-error.js";
import { TOOLSMITH_VERSION } from "../platform/package-root.js";
import { callCommand } from "./call-command.js";
import { processIo, type CliIo } from "./cli-io.js";
import { COMMAND_HELP, COMMAND_NAMES, isCommandName, USAGE } from "./command-help.js";
import { createCommand } from "./create-command.js";
import { evalCommand } from "./eval-command.js";
import { EXIT, UsageError } from "./exit-codes.js";
import { mcpCommand } from "./mcp-command.js";
import { runCommand } from "./run-command.js";
import { SERVE_OPTIONS, serveCommand } from "./serve-command.js";
import { toolsCommand } from "./tools-command.js";

const OPTIONS = {
  ...SERVE_OPTIONS,
  user: { type: "string", default: "user" },
  resume: { type: "string" },
  replay: { type: "string" },
  "no-stream": { type: "boolean", default: false },
  provider: { type: "string" },
  json: { type: "boolean", default: false },
  session: { type: "string" },
  http: { type: "boolean", default: false },
  model: { type: "string" },
  // eval's options; its --json FILE is read as --json-report FILE (see parseArguments).
  "json-report": { type: "string" },
  junit: { type: "string" },
  config: { type: "string" },
  filter: { type: "string" },
  "num-runs": { type: "string" },
  "judge-model": { type: "string" },
  "print-detailed-results": { type: "boolean", default: false },
  verbose: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
  version: { type: "boolean", short: "v", default: false },
} as const;

/** Commands that run the user's agents, and so read the `.env` file of the working directory first. */
const AGENT_COMMANDS = new Set(["web", "api-server", "run", "mcp", "tools", "call", "eval"]);

/** Runs the command line `argv` (without `node` and the script) and returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let verbose = argv.includes("--verbose");
  try {
    const { values, positionals } = parseArguments(argv);
    verbose = values.verbose ?? false;
    const [given, ...rest] = positionals;
    // ADK spells it api_server.
    const command = given === "api_server" ? "api-server" : given;
    if (values.version) {
      io.stdout.write(`${TOOLSMITH_VERSION}\n`);
      return EXIT.OK;
    }
    if (command === "help") return help(io, values.help ? "help" : rest[0]);
    if (values.help) return help(io, command);
    if (!command) {
      io.stdout.write(USAGE);
      return EXIT.USAGE;
    }
    if (AGENT_COMMANDS.has(command)) loadDotEnv();
    const services = {
      sessionServiceUri: values["session-service-uri"],
      artifactServiceUri: values["artifact-service-uri"],
      memoryServiceUri: values["memory-service-uri"],
      credentialServiceUri: values["credential-service-uri"],
    };
    switch (command) {
      case "create":
        return await createCommand({ io, name: rest[0], model: values.model });
      case "web":
      case "api-server":
        return await serveCommand({ io, agentsPath: rest[0], values, webUi: command === "web" });
      case "run":
        return await runCommand({ io, agentPath: rest[0], userId: values.user!, resume: values.resume, replay: values.replay, stream: !values["no-stream"], ...services });
      case "mcp":
        return await mcpCommand({ io, agentPath: rest[0], http: values.http ?? false, host: values.host, port: values.port, userId: values.user!, ...services });
      case "tools":
        return await toolsCommand({ io, agentPath: rest[0], provider: values.provider, json: values.json ?? false });
      case "call":
        return await callCommand({ io, agentPath: rest[0], toolName: rest[1], argsJson: rest[2], userId: values.user!, sessionId: values.session, json: values.json ?? false, ...services });
      case "eval":
        return await evalCommand({
          io,
          agentPath: rest[0],
          evalSets: rest.slice(1),
          config: values.config,
          filter: values.filter,
          numRuns: values["num-runs"],
          judgeModel: values["judge-model"],
          jsonFile: values["json-report"],
          junitFile: values.junit,
          printDetailedResults: values["print-detailed-results"] ?? false,
        });
      default:
        throw new UsageError(`Unknown command "${command}". Commands: ${COMMAND_NAMES.join(", ")} (toolsmith --help).`);
    }
  } catch (error) {
    const { code, message } = describeFailure(error);
    io.stderr.write(`toolsmith: ${message}\n`);
    if (verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return code;
  }
}

function help(io: CliIo, command: string | undefined): number {
  if (command === undefined) {
    io.stdout.write(USAGE);
    return EXIT.OK;
  }
  if (!isCommandName(command)) throw new UsageError(`No command "${command}" to explain. Commands: ${COMMAND_NAMES.join(", ")}.`);
  io.stdout.write(COMMAND_HELP[command]);
  return EXIT.OK;
}

/** Variables in `./.env` (API keys, model names), as ADK's CLI reads them; variables already set win. */
function loadDotEnv(): void {
  if (existsSync(".env")) process.loadEnvFile(".env");
}

/** ADK's spellings of the same options (`adk web --session_service_uri …`), so its commands carry over; other snake_case options map to kebab-case. */
const ADK_SPELLINGS: Readonly<Record<string, string>> = {
  "--allow_origins": "--allow-origin",
  "--reload_agents": "--reload",
  "--config_file_path": "--config",
};

/** ADK options toolsmith has no counterpart for, each with what to do instead: refused by name, never ignored. */
const ADK_ONLY_OPTIONS: Readonly<Record<string, string>> = {
  "--otel_to_cloud": "toolsmith sends no traces to Google Cloud itself; set OTEL_EXPORTER_OTLP_ENDPOINT to export traces and metrics over OTLP (Google Cloud's OTLP endpoint included)",
  "--save_session": "toolsmith keeps sessions in .toolsmith/ by itself; continue one with --resume SESSION_ID",
  "--session_id": "continue a stored session with --resume SESSION_ID",
  "--compile": "toolsmith loads TypeScript without a build step",
  "--bundle": "toolsmith loads TypeScript without a build step",
  "--file_type": "toolsmith loads ES modules and TypeScript as they are",
};

/** ADK's snake_case options and command names, rewritten to toolsmith's; ADK-only options refused with a reason. */
function fromAdkSpellings(argv: readonly string[]): string[] {
  return argv.map((arg) => {
    const [name, value] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    const reason = ADK_ONLY_OPTIONS[name];
    if (reason) throw new UsageError(`${name} is an option of ADK's adk command that toolsmith does not have: ${reason}.`);
    const spelled = ADK_SPELLINGS[name] ?? (name.startsWith("--") && name.includes("_") ? name.replaceAll("_", "-") : name);
    return value === undefined ? spelled : `${spelled}=${value}`;
  });
}

/** `eval`'s `--json FILE` names a file, where other commands' `--json` is a switch: it is read as `--json-report FILE`. */
function evalJsonFile(argv: readonly string[]): string[] {
  if (argv.find((arg) => !arg.startsWith("-")) !== "eval") return [...argv];
  return argv.map((arg) => (arg === "--json" ? "--json-report" : arg.startsWith("--json=") ? `--json-report=${arg.slice("--json=".length)}` : arg));
}

function parseArguments(argv: readonly string[]) {
  try {
    return parseArgs({ args: evalJsonFile(fromAdkSpellings(argv)), options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${(error as Error).message.split("\n")[0]} (toolsmith --help lists the options).`);
  }
}

function describeFailure(error: unknown): { code: number; message: string } {
  if (error instanceof UsageError) return { code: EXIT.USAGE, message: error.message };
  if (isToolsmithError(error)) return { code: EXIT.CONFIGURATION, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: EXIT.FAILURE, message: `${message || "failed"} (rerun with --verbose for details)` };
}
