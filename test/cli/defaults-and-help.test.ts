import { execFile, spawn } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { COMMAND_HELP, COMMAND_NAMES } from "../../src/cli/command-help.js";
import { agentSource } from "../../src/cli/load-agent.js";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";
import { tempDir } from "../support/temp-dir.js";
import { cli } from "./cli-harness.js";

const execFileAsync = promisify(execFile);
const repository = process.cwd();
const bin = join(repository, "bin/toolsmith.mjs");
const stopped = () => AbortSignal.abort();

/** An agent module whose rule model answers with what `.env` set, importing toolsmith by name as a user's would. */
const GREETING_AGENT = `import { LlmAgent } from "toolsmith";
import { FunctionModel, textResponse } from "toolsmith/testing";
export const rootAgent = new LlmAgent({ name: "greeter", model: new FunctionModel(() => textResponse(\`greeting=\${process.env.GREETING ?? "unset"}\`)) });
`;

/** Runs the CLI from the sources in `cwd`; resolves with its exit code and output, never rejects. */
async function toolsmith(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [...SOURCE_NODE_FLAGS, bin, ...args], { cwd, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("toolsmith help", () => {
  it("explains each command with --help and with help <command>, the same text", async () => {
    for (const command of COMMAND_NAMES) {
      const { code, stdout, stderr } = await cli([command, "--help"]);
      expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: COMMAND_HELP[command], stderr: "" });
      expect(await cli(["help", command])).toMatchObject({ code, stdout, stderr });
      const flag = { stdout };
      expect(flag.stdout.startsWith(`Usage: toolsmith ${command}`)).toBe(true);
    }
  });

  it("lists every command in the general help", async () => {
    const { code, stdout } = await cli(["--help"]);
    expect(code).toBe(0);
    for (const command of COMMAND_NAMES) expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, "m"));
  });

  it("refuses help for a command that does not exist with exit code 2", async () => {
    expect(await cli(["help", "deploy"])).toMatchObject({ code: 2, stdout: "", stderr: "toolsmith: No command \"deploy\" to explain. Commands: create, web, api-server, run, mcp, tools, call, eval, help.\n" });
  });
});

describe("what a command-line path names", () => {
  it("takes a folder with agent.ts for one app named after it, a module for one app, and a directory for all", () => {
    const root = tempDir("toolsmith-source-");
    mkdirSync(join(root, "project"));
    writeFileSync(join(root, "project", "agent.ts"), GREETING_AGENT);
    expect(agentSource(join(root, "project"))).toEqual({ agentsDir: root, app: "project" });
    expect(agentSource(join(root, "project", "agent.ts"))).toEqual({ agentsDir: root, app: "project" });
    writeFileSync(join(root, "project", "other.ts"), GREETING_AGENT);
    expect(agentSource(join(root, "project", "other.ts"))).toEqual({ agentsDir: join(root, "project"), app: "other" });
    expect(agentSource(root)).toEqual({ agentsDir: root });
  });
});

describe("web, api-server and run default to the working directory", () => {
  it("serves the agents directory it runs in", async () => {
    const child = spawn(process.execPath, [...SOURCE_NODE_FLAGS, bin, "api-server", "--port", "0", "--session-service-uri", "memory://", "--artifact-service-uri", "memory://"], {
      cwd: join(repository, "examples"),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    let stdout = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const found = /API server at (\S+)\/ serving/.exec(stdout);
        if (found) resolve(found[1]!);
      });
      void exited.then((code) => reject(new Error(`api-server exited (${code}): ${stdout}`)));
    });
    try {
      const apps = (await (await fetch(`${url}/list-apps`)).json()) as string[];
      expect(apps).toContain("weather-sentiment");
      expect(apps).toContain("shop");
    } finally {
      child.kill("SIGINT");
    }
    expect(await exited).toBe(0);
  });

  it("runs the agent of the folder it runs in, reading that folder's .env; a variable already set wins", async () => {
    const project = join(tempDir("toolsmith-cwd-"), "greeter-project");
    mkdirSync(project);
    writeFileSync(join(project, "agent.ts"), GREETING_AGENT);
    writeFileSync(join(project, ".env"), "GREETING=from-dotenv\n");
    writeFileSync(join(project, "replay.json"), JSON.stringify(["hello"]));
    mkdirSync(join(project, "node_modules"));
    symlinkSync(repository, join(project, "node_modules", "toolsmith"));
    const args = ["run", "--replay", "replay.json", "--session-service-uri", "memory://", "--artifact-service-uri", "memory://"];
    const fromFile = await toolsmith(args, project);
    expect(fromFile).toMatchObject({ code: 0, stdout: expect.stringContaining("greeter: greeting=from-dotenv") });
    const fromEnvironment = await toolsmith(args, project, { ...process.env, GREETING: "from-environment" });
    expect(fromEnvironment.stdout).toContain("greeter: greeting=from-environment");
  });
});

describe("bad setups: one line saying what to do, exit code 3", () => {
  it("refuses a directory without agents", async () => {
    const empty = tempDir("toolsmith-empty-");
    writeFileSync(join(empty, "vite.config.ts"), "export default {};\n");
    const { code, stdout, stderr } = await cli(["web", empty], [], { interrupt: stopped() });
    expect({ code, stdout }).toEqual({ code: 3, stdout: "" });
    expect(stderr).toBe(
      `toolsmith: No agents in ${empty}: add <name>.ts or <name>/agent.ts exporting rootAgent, name an agent (toolsmith run path/to/agent.ts), or start a project with toolsmith create my-agent.\n`,
    );
  });

  it("refuses to serve a module without rootAgent before listening", async () => {
    const dir = tempDir("toolsmith-norootagent-");
    writeFileSync(join(dir, "helper.js"), "export const agent = 1;\n");
    const { code, stderr } = await cli(["api-server", dir, "--port", "0"], [], { interrupt: stopped() });
    expect(code).toBe(3);
    expect(stderr).toBe(`toolsmith: ${join(dir, "helper.js")} exports neither an App nor rootAgent. Add \`export const rootAgent = new LlmAgent({ … })\`, or \`export const app = new App({ name, rootAgent, plugins })\`.\n`);
  });

  it("refuses a port in use, naming it and what to do", async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const { code, stderr } = await cli(["web", "examples", "--port", String(port)], [], { interrupt: stopped() });
      expect({ code, stderr }).toEqual({ code: 3, stderr: `toolsmith: Port ${port} is in use: stop what listens there, or pass --port with another number (--port 0 picks a free one).\n` });
    } finally {
      taken.close();
    }
  });

  it("asks which agent to run when the directory holds several", async () => {
    const { code, stderr } = await cli(["run", "examples"]);
    expect(code).toBe(3);
    expect(stderr).toBe(`toolsmith: ${join(repository, "examples")} holds 3 agents (shop, stats, weather-sentiment): name one, such as examples/shop.\n`);
  });
});

describe("ADK's spellings of the command line", () => {
  it("takes ADK's snake_case options and api_server for toolsmith's own", async () => {
    const { code, stderr } = await cli(["api_server", "examples", "--session_service_uri", "memory://", "--allow_origins", "http://localhost:4200", "--port=0"], [], { interrupt: stopped() });
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const refused = await cli(["web", "examples", "--max_body_bytes=none"], [], { interrupt: stopped() });
    expect(refused).toMatchObject({ code: 2, stderr: "toolsmith: --max-body-bytes must be a positive whole number.\n" });
  });

  it("refuses an ADK option toolsmith has no counterpart for, by name, with what to do instead", async () => {
    expect(await cli(["run", "examples/shop", "--save_session"])).toMatchObject({
      code: 2,
      stderr: "toolsmith: --save_session is an option of ADK's adk command that toolsmith does not have: toolsmith keeps sessions in .toolsmith/ by itself; continue one with --resume SESSION_ID.\n",
    });
    expect((await cli(["web", "--otel_to_cloud"])).stderr).toBe("toolsmith: --otel_to_cloud is an option of ADK's adk command that toolsmith does not have: toolsmith sends no traces to Google Cloud itself; set OTEL_EXPORTER_OTLP_ENDPOINT to export traces and metrics over OTLP (Google Cloud's OTLP endpoint included).\n");
  });

  it("takes ADK's --log_level with its level names, and refuses a level it does not know", async () => {
    expect(await cli(["api-server", "examples", "--log_level=LOUD"], [], { interrupt: AbortSignal.abort() })).toMatchObject({ code: 2, stderr: expect.stringContaining('--log-level (or TOOLSMITH_LOG_LEVEL) must be one of debug, info, warn, error, silent, not "LOUD".') });
    const served = await cli(["api-server", "examples", "--port", "0", "--log_level=WARNING"], [], { interrupt: AbortSignal.abort() });
    expect(served.code).toBe(0);
  });
});
