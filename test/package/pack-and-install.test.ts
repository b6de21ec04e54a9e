/**
 * The package as users get it: `npm pack` of this repository, installed into
 * an empty project from the tarball and the npm registry, and used from there
 * as the README says. This is the proof that what we claim works from the
 * packed package, not only from the checkout.
 */
import { mkdirSync, writeFileSync } from "node:fs";
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
import { bareNode, importOf, medianStartTimes } from "../support/start-time.js";
import { tempDir } from "../support/temp-dir.js";

const INSTALL_TIMEOUT = 600_000;
/** The budget for an installed core: toolsmith and its dependencies, no optional peers. */
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

let project = "";
let tarball = "";
let bin = "";
// TODO(storage default): drop once toolsmith web starts without better-sqlite3.
const MEMORY = ["--session-service-uri", "memory://"];
const toolsmith = (args: readonly string[], cwd = project) => runCommand(process.execPath, [bin, ...args, ...MEMORY], { cwd });

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
    for (const expected of ["package.json", "README.md", "bin/toolsmith.mjs", "dist/index.js", "dist/index.d.ts", "dist/cli/main.js", "dist/testing/index.js", "dist/server/index.js", "web-ui/index.html", "web-ui/app.js", "web-ui/app.css"]) {
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

  it("prints its version", async () => {
    const result = await runCommand("npx", ["toolsmith", "--version"], { cwd: project });
    expect(result).toMatchObject({ code: 0, stdout: `${repositoryVersion()}\n` });
  });

  it("serves the web UI: / and every asset it references answer 200, and the app is listed", async () => {
    const server = startCommand(process.execPath, [bin, "web", "agents", "--port", "0", ...MEMORY], { cwd: project });
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
    const server = startCommand(process.execPath, [bin, "api-server", "agents", "--port", "0", ...MEMORY], { cwd: project });
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

  it("chats in the terminal with run --replay", async () => {
    writeFileSync(join(project, "replay.json"), JSON.stringify(["hello toolsmith"]));
    const result = await toolsmith(["run", "agents/echo.js", "--replay", "replay.json"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("you> hello toolsmith\necho: You said: hello toolsmith\n");
  });

  it.skipIf((process.features as { typescript?: unknown }).typescript)("refuses a TypeScript agent in one line with exit code 3 when Node cannot strip types and tsx is not installed", async () => {
    writeFileSync(join(project, "agents/greeter.ts"), GREETER_AGENT_TS);
    const result = await toolsmith(["run", "agents/greeter.ts", "--replay", "replay.json"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      `toolsmith: ${join(project, "agents/greeter.ts")} is TypeScript, and Node ${process.versions.node} cannot load TypeScript by itself. Install tsx (npm install -D tsx), run Node 22.18 or later, or compile the module to JavaScript.\n`,
    );
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

    it("loads a TypeScript agent through tsx: run --replay calls its tool and answers", async () => {
      writeFileSync(join(project, "replay.json"), JSON.stringify(["Ada"]));
      const result = await toolsmith(["run", "agents/greeter.ts", "--replay", "replay.json"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('→ greet({"name":"Ada"})');
      expect(result.stdout).toContain("greeter: Hello, Ada!\n");
    });
  });
});
