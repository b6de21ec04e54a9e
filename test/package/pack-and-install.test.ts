/**
 * The package as users get it: `npm pack` of this repository, installed into
 * an empty project from the tarball and the npm registry, and used from there
 * as the README says. This is the proof that what we claim works from the
 * packed package, not only from the checkout.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createProject,
  folderBytes,
  installedPackages,
  localAssets,
  npmInstall,
  packRepository,
  readmeBlock,
  repositoryVersion,
  runCommand,
  startCommand,
  tarballFiles,
} from "../support/installed-package.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { sqliteDriverAvailability } from "../../src/sqlite/sqlite-driver-availability.js";
import { nodeBinary } from "../support/node-binary.js";
import { bareNode, importOf, medianStartTimes } from "../support/start-time.js";
import { tempDir } from "../support/temp-dir.js";

/** node:sqlite arrived in Node 22.13; before it, an installed core has no SQLite driver. */
const nodeHasSqlite = sqliteDriverAvailability()["node:sqlite"].available;
const INSTALL_TIMEOUT = 600_000;
/** The issue's budget for an installed core: toolsmith and its dependencies, no optional peers. */
const CORE_BUDGET_BYTES = 15 * 1024 * 1024;

const ECHO_AGENT_JS = `import { LlmAgent } from "toolsmith";
import { FunctionModel, lastUserText, textResponse } from "toolsmith/testing";

export const rootAgent = new LlmAgent({
  name: "echo",
  description: "Repeats what you say.",
  model: new FunctionModel((request) => textResponse(\`You said: \${lastUserText(request)}\`)),
});
`;

const GREETER_AGENT_TS = `import { FunctionTool, LlmAgent, type LlmRequest } from "toolsmith";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, lastUserText, textResponse } from "toolsmith/testing";

const greet = new FunctionTool({
  name: "greet",
  description: "Greets someone by name.",
  parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  execute: ({ name }, context) => {
    context.state.set("greeted", name);
    return { greeting: \`Hello, \${String(name)}!\` };
  },
});

function decide(request: LlmRequest) {
  const result = lastFunctionResponse(request);
  if (result) return textResponse(String(result.response.greeting));
  return functionCallsResponse({ name: "greet", args: { name: lastUserText(request) ?? "you" } });
}

export const rootAgent = new LlmAgent({ name: "greeter", model: new FunctionModel(decide), tools: [greet] });
`;

/** An ADK eval set for the echo agent: no tool calls, the answer repeats the message. */
const ECHO_EVAL_SET = {
  eval_set_id: "echo_set",
  eval_cases: [{ eval_id: "says_it_back", conversation: [{ user_content: { parts: [{ text: "hello" }] }, final_response: { parts: [{ text: "You said: hello" }] }, intermediate_data: { tool_uses: [] } }] }],
};

let project = "";
let tarball = "";
let bin = "";
const toolsmith = (args: readonly string[], cwd = project) => runCommand(process.execPath, [bin, ...args], { cwd });

beforeAll(async () => {
  const root = tempDir("toolsmith-package-");
  tarball = await packRepository(root);
  project = join(root, "my-agent");
  await createProject(project, [tarball]);
  bin = join(project, "node_modules/toolsmith/bin/toolsmith.mjs");
  mkdirSync(join(project, "agents"));
  writeFileSync(join(project, "agents/echo.js"), ECHO_AGENT_JS);
}, INSTALL_TIMEOUT);

describe("the packed package", () => {
  it("holds the built code, its type declarations, the web UI and the bin, and nothing of the repository's own", async () => {
    const files = await tarballFiles(tarball);
    for (const expected of ["package.json", "README.md", "bin/toolsmith.mjs", "dist/index.js", "dist/index.d.ts", "dist/cli/main.js", "dist/testing/index.js", "dist/server/index.js", "dist/eval/index.js", "web-ui/index.html", "web-ui/app.js", "web-ui/app.css"]) {
      expect(files).toContain(expected);
    }
    expect(files.filter((path) => /^(src|test|bench|examples|ui|scripts)\//.test(path) || path.endsWith(".map"))).toEqual([]);
  });

  it("installs into an empty project from the registry, with no TypeScript loader or bundler, within the 15 MB budget, and imports", () => {
    const packages = installedPackages(project);
    const bytes = folderBytes(join(project, "node_modules"));
    console.log(`installed core: ${(bytes / 1024 / 1024).toFixed(1)} MB in ${packages.length} packages (${packages.join(", ")})`);
    // Printed, not asserted: a busy machine must not fail the suite (bench/package.ts compares the peers).
    const times = medianStartTimes([bareNode(project), importOf("toolsmith", "toolsmith", project)], 15);
    const [bare, imported] = [times.get("bare node")!, times.get("toolsmith")!];
    console.log(`import "toolsmith": ${imported.toFixed(1)} ms, ${(imported / bare).toFixed(2)} × a bare node -e '' (${bare.toFixed(1)} ms), median of 15`);
    expect(packages).toContain("toolsmith");
    expect(packages.filter((name) => ["tsx", "esbuild", "typescript", "zod", "better-sqlite3"].includes(name))).toEqual([]);
    expect(bytes).toBeLessThanOrEqual(CORE_BUDGET_BYTES);
  });

  it("names the optional peer a subpath or a model name needs when it is not installed", async () => {
    const script = `
      import("toolsmith/mcp").catch((error) => console.log(error.message.split("\\n")[0]));
      await import("toolsmith/artifacts/s3").catch((error) => console.log(error.message.split("\\n")[0]));
      const { LlmAgent, InMemoryRunner, createArtifactService } = await import("toolsmith");
      await createArtifactService("s3://bucket/prefix").catch((error) => console.log(error.message));
      const { RemoteA2AAgent, toA2a } = await import("toolsmith/a2a");
      await toA2a(new LlmAgent({ name: "served" }), { allowUnauthenticated: true }).catch((error) => console.log(error.message));
      const remote = new InMemoryRunner({ agent: new RemoteA2AAgent({ name: "remote", agentCard: "http://127.0.0.1:9/" }) });
      const remoteSession = await remote.sessionService.createSession({ appName: remote.appName, userId: "u" });
      for await (const event of remote.runAsync({ userId: "u", sessionId: remoteSession.id, newMessage: { role: "user", parts: [{ text: "hi" }] } })) {
        if (event.errorMessage) console.log(event.errorCode, event.errorMessage);
      }
      const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "a", model: "openai/gpt-4o" }) });
      const session = await runner.sessionService.createSession({ appName: runner.appName, userId: "u" });
      try {
        for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "hi" }] } })) {
          if (event.errorMessage) console.log(event.errorMessage);
        }
      } catch (error) {
        console.log(error.message); // a configuration error: the agent cannot start at all
      }`;
    const result = await runCommand(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    expect(result.stdout).toMatch(/Cannot find package '@modelcontextprotocol\/sdk'/);
    expect(result.stdout).toContain("npm install openai");
    expect(result.stdout).toMatch(/Cannot find package '@aws-sdk\/client-s3'/);
    expect(result.stdout).toContain("s3:// needs the optional package @aws-sdk/client-s3, which is not installed. Run: npm install @aws-sdk/client-s3");
    expect(result.stdout).toContain("Serving an agent over A2A (toA2a) needs the package express, which is not installed. Install it with: npm install express");
    expect(result.stdout).toContain("MISSING_PACKAGE A remote A2A agent (RemoteA2AAgent) needs the package @a2a-js/sdk, which is not installed. Install it with: npm install @a2a-js/sdk");
  });

  it("runs the model's code with UnsafeLocalCodeExecutor, and code under SandboxedCodeExecutor where bubblewrap works", async () => {
    const script = `
      import { InMemoryRunner, LlmAgent, UnsafeLocalCodeExecutor } from "toolsmith";
      import { ScriptedModel, textResponse } from "toolsmith/testing";
      import { SandboxedCodeExecutor, checkBubblewrap } from "toolsmith/tools";
      const fence = String.fromCharCode(96).repeat(3);
      const model = new ScriptedModel([textResponse(fence + "python\\nprint(6 * 7)\\n" + fence), textResponse("It is 42.")]);
      const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "calculator", model, codeExecutor: new UnsafeLocalCodeExecutor() }) });
      const session = await runner.sessionService.createSession({ appName: runner.appName, userId: "u" });
      for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "6 * 7?" }] } })) {
        for (const part of event.content?.parts ?? []) if (part.codeExecutionResult) console.log("result:", JSON.stringify(part.codeExecutionResult.output));
      }
      console.log("asked again with:", JSON.stringify(model.requests[1].contents.at(-1).parts[0].text));
      const sandbox = await checkBubblewrap();
      const sandboxed = await new SandboxedCodeExecutor().executeCode({ invocationContext: { abortSignal: new AbortController().signal }, codeExecutionInput: { code: "echo in the sandbox", language: "shell", inputFiles: [] } });
      console.log("sandboxed:", sandbox.ok ? JSON.stringify(sandboxed.stdout) : sandboxed.stderr.startsWith("Sandboxed code execution is unavailable"));`;
    const result = await runCommand(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    const fence = "```";
    expect(result.stdout).toContain(`result: ${JSON.stringify("Code execution result:\n42\n\n")}`);
    expect(result.stdout).toContain(`asked again with: ${JSON.stringify(`${fence}tool_output\nCode execution result:\n42\n\n\n${fence}`)}`);
    expect(result.stdout).toMatch(/sandboxed: ("in the sandbox\\n"|true)/);
  });

  it("runs commands and files in a LocalEnvironment, and in a SandboxedEnvironment where bubblewrap works", async () => {
    const script = `
      import { LocalEnvironment } from "toolsmith";
      import { SandboxedEnvironment, checkBubblewrap } from "toolsmith/tools";
      const local = new LocalEnvironment();
      await local.initialize();
      await local.writeFile("notes/a.txt", "six times seven");
      console.log("local:", JSON.stringify(await local.execute("wc -w < notes/a.txt; exit 2", 10)));
      await local.readFile("../outside").catch((error) => console.log("refused:", error.code));
      await local.close();
      const sandbox = await checkBubblewrap();
      const sandboxed = new SandboxedEnvironment();
      if (sandbox.ok) {
        await sandboxed.initialize();
        console.log("sandboxed:", JSON.stringify((await sandboxed.execute("echo $HOME", 10)).stdout));
        await sandboxed.close();
      } else {
        await sandboxed.initialize().catch((error) => console.log("sandboxed:", error.code));
      }`;
    const result = await runCommand(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    expect(result.stdout).toContain(`local: ${JSON.stringify({ exitCode: 2, stdout: "3\n", stderr: "", timedOut: false })}`);
    expect(result.stdout).toContain("refused: PATH_REFUSED");
    expect(result.stdout).toMatch(/sandboxed: ("\/tmp\\n"|SANDBOX_UNAVAILABLE)/);
  });

  it("runs an agent live with a LiveRequestQueue and the scripted live model", async () => {
    const script = `
      import { InMemoryRunner, LiveRequestQueue, LlmAgent } from "toolsmith";
      import { ScriptedLiveModel } from "toolsmith/testing";
      const model = new ScriptedLiveModel([[{ content: { role: "model", parts: [{ text: "Hel" }] }, partial: true }, { content: { role: "model", parts: [{ text: "Hello" }] } }, { turnComplete: true }]]);
      const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "voice", model }), appName: "app" });
      const queue = new LiveRequestQueue();
      queue.sendContent({ role: "user", parts: [{ text: "Hi" }] });
      const seen = [];
      for await (const event of runner.runLive({ userId: "u", sessionId: "s", liveRequestQueue: queue, runConfig: { responseModalities: ["TEXT"] } })) {
        seen.push(event.partial ? "partial" : event.turnComplete ? "turnComplete" : event.content.parts[0].text);
        if (event.turnComplete) queue.close();
      }
      const session = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: "s" });
      console.log("live:", JSON.stringify(seen), session.events.length);`;
    const result = await runCommand(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    // The user's message, stored first; the partial piece shown, not stored; the answer and turnComplete stored.
    expect(result.stdout).toContain(`live: ${JSON.stringify(["Hi", "partial", "Hello", "turnComplete"])} 3`);
  });

  it("prints its version", async () => {
    const result = await runCommand("npx", ["toolsmith", "--version"], { cwd: project });
    expect(result).toMatchObject({ code: 0, stdout: `${repositoryVersion()}\n` });
  });

  it("serves the web UI: / and every asset it references answer 200, and the app is listed", async () => {
    const server = startCommand(process.execPath, [bin, "web", "agents", "--port", "0"], { cwd: project });
    try {
      const url = (await server.waitFor(/at (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      const html = await page.text();
      const assets = localAssets(html);
      expect(assets.length).toBeGreaterThan(0);
      for (const asset of assets) expect({ asset, status: (await fetch(new URL(asset, `${url}/`))).status }).toEqual({ asset, status: 200 });
      expect(await (await fetch(`${url}/list-apps`)).json()).toEqual(["echo"]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it("serves the HTTP API with api-server and runs a turn through it", async () => {
    const server = startCommand(process.execPath, [bin, "api-server", "agents", "--port", "0"], { cwd: project });
    try {
      const url = (await server.waitFor(/at (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
      expect((await fetch(`${url}/`)).status).toBe(404);
      const session = (await (await fetch(`${url}/apps/echo/users/u1/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json()) as { id: string };
      const events = (await (
        await fetch(`${url}/run`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ appName: "echo", userId: "u1", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "hi there" }] } }),
        })
      ).json()) as Array<{ content?: { parts?: Array<{ text?: string }> } }>;
      expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("You said: hi there");
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it("serves agents of the project's own toolsmith from another copy's command (a global install): plugins taken, the conversation kept with the agent it was handed to", async () => {
    // The command of the repository's build beside the project's installed copy: two copies, two LlmAgent classes.
    mkdirSync(join(project, "two-copies/multi"), { recursive: true });
    writeFileSync(
      join(project, "two-copies/multi/agent.js"),
      `import { App, BasePlugin, LlmAgent } from "toolsmith";
import { ScriptedModel } from "toolsmith/testing";
class Counting extends BasePlugin { constructor() { super("counting"); } }
const said = (text) => ({ content: { role: "model", parts: [{ text }] } });
const billing = new LlmAgent({ name: "billing", description: "Billing questions.", model: new ScriptedModel([said("billing here"), said("billing again")]) });
const desk = new LlmAgent({ name: "desk", model: new ScriptedModel([{ content: { role: "model", parts: [{ functionCall: { name: "transfer_to_agent", args: { agent_name: "billing" } } }] } }]), subAgents: [billing] });
export const app = new App({ name: "multi", rootAgent: desk, plugins: [new Counting()] });
`,
    );
    const otherCopy = new URL("../../bin/toolsmith.mjs", import.meta.url).pathname;
    const server = startCommand(process.execPath, [otherCopy, "api-server", "two-copies", "--port", "0"], { cwd: project });
    try {
      const url = (await server.waitFor(/at (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
      await fetch(`${url}/apps/multi/users/u1/sessions/s1`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      const turn = async (text: string) =>
        ((await (await fetch(`${url}/run`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ appName: "multi", userId: "u1", sessionId: "s1", newMessage: { role: "user", parts: [{ text }] } }) })).json()) as Array<{ author: string; content?: { parts?: Array<{ text?: string }> } }>)
          .filter((event) => event.content?.parts?.[0]?.text)
          .map((event) => `${event.author}: ${event.content!.parts![0]!.text}`);
      expect(await turn("I have a billing question")).toEqual(["billing: billing here"]);
      expect(await turn("and another")).toEqual(["billing: billing again"]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it("chats in the terminal with run --replay", async () => {
    writeFileSync(join(project, "replay.json"), JSON.stringify(["hello toolsmith"]));
    const result = await toolsmith(["run", "agents/echo.js", "--replay", "replay.json"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("you> hello toolsmith\necho: You said: hello toolsmith\n");
    if (!nodeHasSqlite) {
      // Node 20 with only toolsmith installed: no SQLite driver, so one line says sessions are not kept, and how to keep them.
      expect(result.stderr.split("\n").filter((line) => line.startsWith("note: sessions are kept in memory"))).toHaveLength(1);
    }
  });

  it.skipIf((process.features as { typescript?: unknown }).typescript)("refuses a TypeScript agent in one line with exit code 3 when Node cannot strip types and tsx is not installed", async () => {
    writeFileSync(join(project, "agents/greeter.ts"), GREETER_AGENT_TS);
    const result = await toolsmith(["run", "agents/greeter.ts", "--replay", "replay.json"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      `toolsmith: ${join(project, "agents/greeter.ts")} is TypeScript, and Node ${process.versions.node} cannot load TypeScript by itself. Install tsx (npm install -D tsx), run Node 22.18 or later, or compile the module to JavaScript.\n`,
    );
  });

  it("names zod when toolsmith eval needs it to read an eval set", async () => {
    writeFileSync(join(project, "echo.evalset.json"), JSON.stringify(ECHO_EVAL_SET));
    const result = await toolsmith(["eval", "agents/echo.js", "echo.evalset.json"]);
    expect(result).toMatchObject({ code: 3, stderr: "toolsmith: Reading eval sets needs the package zod, which is not installed. Install it with: npm install zod\n" });
  });

  describe("with zod and tsx installed, as the README's TypeScript samples use them", () => {
    beforeAll(async () => {
      await npmInstall(project, ["zod", "tsx"]);
      writeFileSync(join(project, "agents/greeter.ts"), GREETER_AGENT_TS);
    }, INSTALL_TIMEOUT);

    it("runs the README's first agent, which prints its answer", async () => {
      writeFileSync(join(project, "first-agent.ts"), readmeBlock("## A first agent"));
      // tsx's own bin, as `npx tsx` runs it (npx itself may warn about the machine's npm configuration).
      const result = await runCommand(join(project, "node_modules/.bin/tsx"), ["first-agent.ts"], { cwd: project });
      expect(result).toEqual({ code: 0, stdout: "Sunny in Paris.\n", stderr: "" });
    });

    it("scores an agent on an ADK eval set with toolsmith eval, and from code with toolsmith/eval", async () => {
      const result = await toolsmith(["eval", "agents/echo.js", "echo.evalset.json", "--junit", "junit.xml"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/echo_set\/says_it_back +response_match_score +1\.000 +0\.800 +PASS/);
      expect(existsSync(join(project, "junit.xml"))).toBe(true);
      const script = `
        import { evaluate } from "toolsmith/eval";
        import { rootAgent } from "./agents/echo.js";
        const report = await evaluate({ agent: rootAgent, evalSets: ["echo.evalset.json"] });
        console.log(report.passed, report.cases[0].metrics.map((metric) => metric.score).join(","));`;
      const fromCode = await runCommand(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
      expect(fromCode).toMatchObject({ code: 0, stdout: "true 1,1\n" });
    });

    it("serves an agent over A2A with toA2a and calls it with RemoteA2AAgent once @a2a-js/sdk and express are installed", async () => {
      await npmInstall(project, ["@a2a-js/sdk@^0.3.10", "express"]);
      const script = `
        import express from "express";
        import { LlmAgent, InMemoryRunner } from "toolsmith";
        import { RemoteA2AAgent, toA2a } from "toolsmith/a2a";
        import { rootAgent } from "./agents/echo.js";
        const app = express();
        const server = app.listen(0, "127.0.0.1");
        await new Promise((resolve) => server.once("listening", resolve));
        const port = server.address().port;
        await toA2a(rootAgent, { app, host: "127.0.0.1", port, allowUnauthenticated: true });
        const runner = new InMemoryRunner({ agent: new RemoteA2AAgent({ name: "echo", agentCard: \`http://127.0.0.1:\${port}/\` }) });
        const session = await runner.sessionService.createSession({ appName: runner.appName, userId: "u" });
        for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "over A2A" }] } })) {
          if (!event.partial) console.log(event.errorCode ?? event.content.parts[0].text);
        }
        server.close();
        server.closeAllConnections();`;
      const result = await runCommand(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
      expect(result).toMatchObject({ code: 0, stdout: "You said: over A2A\n" });
    }, INSTALL_TIMEOUT);

    it("loads a TypeScript agent through tsx: run --replay calls its tool and answers", async () => {
      writeFileSync(join(project, "replay.json"), JSON.stringify(["Ada"]));
      const result = await toolsmith(["run", "agents/greeter.ts", "--replay", "replay.json"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('→ greet({"name":"Ada"})');
      expect(result.stdout).toContain("greeter: Hello, Ada!\n");
    });

    it("loads a TypeScript agent of a CommonJS package (what npm init writes) as a module, with one copy of toolsmith: its plugin is taken", async () => {
      // Before, Node 20 refused it ("Cannot require() ES Module … in a cycle"), and where it loaded, a second copy of
      // toolsmith made the agent's BasePlugin another class than the runner's.
      const folder = join(project, "commonjs");
      mkdirSync(join(folder, "agents"), { recursive: true });
      writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "commonjs-agents", version: "1.0.0", type: "commonjs" }));
      writeFileSync(join(folder, "agents/greeting.ts"), "export const greetingFor = (name: string): string => `Hello, ${name}!`;\n");
      writeFileSync(
        join(folder, "agents/greeter.ts"),
        `import { App, BasePlugin, FunctionTool, LlmAgent, type LlmRequest } from "toolsmith";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, lastUserText, textResponse } from "toolsmith/testing";
import { greetingFor } from "./greeting.ts";

class Counting extends BasePlugin {
  calls = 0;
  constructor() { super("counting"); }
  override async beforeToolCallback() { this.calls++; return undefined; }
}
const counting = new Counting();
const greet = new FunctionTool({ name: "greet", description: "Greets someone.", parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] }, execute: ({ name }) => ({ greeting: greetingFor(String(name)) + " (plugin saw " + (counting.calls) + " call)" }) });
const decide = (request: LlmRequest) => {
  const result = lastFunctionResponse(request);
  return result ? textResponse(String(result.response.greeting)) : functionCallsResponse({ name: "greet", args: { name: lastUserText(request) ?? "you" } });
};
export const app = new App({ name: "greeter", rootAgent: new LlmAgent({ name: "greeter", model: new FunctionModel(decide), tools: [greet] }), plugins: [counting] });
`,
      );
      writeFileSync(join(folder, "replay.json"), JSON.stringify(["Ada"]));
      const result = await toolsmith(["run", "agents/greeter.ts", "--replay", "replay.json"], folder);
      expect(result.stderr).not.toMatch(/error|cannot/i);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("greeter: Hello, Ada! (plugin saw 1 call)\n");
    });
  });

  it("explains a command with --help, and names the MCP SDK when toolsmith mcp needs it", async () => {
    const help = await toolsmith(["mcp", "--help"]);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: toolsmith mcp \[agent\] \[--http\]\n/) });
    const mcp = await toolsmith(["mcp", "agents/echo.js"]);
    expect(mcp).toEqual({
      code: 3,
      stdout: "",
      stderr: "toolsmith: toolsmith mcp needs the package @modelcontextprotocol/sdk, which is not installed. Install it with: npm install @modelcontextprotocol/sdk\n",
    });
  });

  describe("a project made by toolsmith create, installed as its README says", () => {
    let demo = "";
    const inDemo = (args: readonly string[]) => runCommand(join(demo, "node_modules/.bin/toolsmith"), args, { cwd: demo });

    beforeAll(async () => {
      const created = await toolsmith(["create", "demo-agent"], join(project, ".."));
      expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: "" });
      demo = join(project, "..", "demo-agent");
      // npm install, with toolsmith from the tarball instead of the registry, which does not have this version.
      await npmInstall(demo, [tarball]);
    }, INSTALL_TIMEOUT);

    it("chats offline at once: npx toolsmith run in the project calls its tool and answers", async () => {
      writeFileSync(join(demo, "replay.json"), JSON.stringify(["What time is it in Paris?"]));
      const result = await inDemo(["run", "--replay", "replay.json"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('→ get_current_time({"city":"Paris"})');
      expect(result.stdout).toMatch(/demo_agent: It is \d\d:\d\d in Paris\.\n/);
    });

    it("passes its own test (vitest run, the npm test script) and type-checks", async () => {
      const tests = await runCommand(join(demo, "node_modules/.bin/vitest"), ["run"], { cwd: demo, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
      expect({ code: tests.code, passed: /Tests\s+2 passed/.test(tests.stdout) }).toEqual({ code: 0, passed: true });
      const typecheck = await runCommand(join(demo, "node_modules/.bin/tsc"), [], { cwd: demo });
      expect(typecheck).toEqual({ code: 0, stdout: "", stderr: "" });
    });

    it("serves itself with toolsmith web run in its folder, as one app named after it", async () => {
      const server = startCommand(join(demo, "node_modules/.bin/toolsmith"), ["web", "--port", "0"], { cwd: demo });
      try {
        const url = (await server.waitFor(/at (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
        expect(await (await fetch(`${url}/list-apps`)).json()).toEqual(["demo-agent"]);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    });

    it("serves its tools over MCP stdio once the MCP SDK is installed", async () => {
      await npmInstall(demo, ["@modelcontextprotocol/sdk"]);
      const client = new Client({ name: "package-test", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command: join(demo, "node_modules/.bin/toolsmith"), args: ["mcp"], cwd: demo, stderr: "ignore" }));
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["demo_agent", "get_current_time"]);
        const result = await client.callTool({ name: "get_current_time", arguments: { city: "Tokyo" } });
        expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toMatchObject({ status: "success", report: expect.stringMatching(/^It is \d\d:\d\d in Tokyo\.$/) });
      } finally {
        await client.close();
      }
    }, INSTALL_TIMEOUT);
  });

  describe("on Node 24, which strips types and has node:sqlite", () => {
    const node24 = nodeBinary(24);

    it.skipIf(!node24.path)(`loads a TypeScript agent with no tsx installed and keeps sessions in .toolsmith/toolsmith.db across server restarts${node24.skipped}`, async () => {
      const bare = join(project, "..", "node24-project");
      await createProject(bare, [tarball]);
      mkdirSync(join(bare, "agents"));
      writeFileSync(join(bare, "agents/greeter.ts"), GREETER_AGENT_TS);
      writeFileSync(join(bare, "replay.json"), JSON.stringify(["Ada"]));
      const bareBin = join(bare, "node_modules/toolsmith/bin/toolsmith.mjs");
      const first = await runCommand(node24.path!, [bareBin, "run", "agents/greeter.ts", "--replay", "replay.json"], { cwd: bare });
      expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: "" });
      expect(first.stdout).toContain("greeter: Hello, Ada!\n");

      // The API server keeps a session in .toolsmith/toolsmith.db; a second server process finds it, events and state.
      const serve = () => startCommand(node24.path!, [bareBin, "api-server", "agents", "--port", "0"], { cwd: bare });
      const sessionUrl = (url: string) => `${url}/apps/greeter/users/u1/sessions/kept`;
      let server = serve();
      try {
        const url = (await server.waitFor(/at (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
        expect((await fetch(sessionUrl(url), { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(200);
        const events = (await (
          await fetch(`${url}/run`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ appName: "greeter", userId: "u1", sessionId: "kept", newMessage: { role: "user", parts: [{ text: "Grace" }] } }),
          })
        ).json()) as unknown[];
        expect(events.length).toBe(3);
      } finally {
        expect(await server.stop()).toBe(0);
      }
      expect(existsSync(join(bare, ".toolsmith/toolsmith.db"))).toBe(true);
      server = serve();
      try {
        const url = (await server.waitFor(/at (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
        const session = (await (await fetch(sessionUrl(url))).json()) as { events: unknown[]; state: Record<string, unknown> };
        expect({ events: session.events.length, state: session.state }).toEqual({ events: 4, state: { greeted: "Grace" } });
      } finally {
        expect(await server.stop()).toBe(0);
      }
    });
  });
});
