import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { agentNameOf } from "../../src/cli/create-command.js";
import { TEMPLATE_DEPENDENCIES } from "../../src/cli/project-template.js";
import { TOOLSMITH_VERSION } from "../../src/platform/package-root.js";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";
import { tempDir } from "../support/temp-dir.js";
import { cli } from "./cli-harness.js";

const execFileAsync = promisify(execFile);
const repository = process.cwd();
const ownManifest = JSON.parse(readFileSync(join(repository, "package.json"), "utf8")) as { devDependencies: Record<string, string> };

/** Makes a project in a fresh folder and returns its path. */
async function created(name = "my-agent", extra: string[] = []): Promise<string> {
  const parent = tempDir("toolsmith-create-");
  const dir = join(parent, name);
  const { code, stdout, stderr } = await cli(["create", dir, ...extra]);
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  expect(stdout).toContain("npx toolsmith run");
  return dir;
}

/** The project's dependencies taken from this checkout, as `npm install` would give them (toolsmith itself from its sources). */
function linkDependencies(project: string): void {
  const modules = join(project, "node_modules");
  mkdirSync(join(modules, "@types"), { recursive: true });
  symlinkSync(repository, join(modules, "toolsmith"));
  for (const name of ["zod", "vitest", "typescript", "@types/node"]) symlinkSync(join(repository, "node_modules", name), join(modules, name));
}

describe("toolsmith create", () => {
  it("writes a project with the agent, its test, the variables for real providers and a README", async () => {
    const dir = await created();
    expect(readdirSync(dir).sort()).toEqual([".env.example", ".gitignore", "README.md", "agent.test.ts", "agent.ts", "package.json", "tsconfig.json"]);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(manifest).toMatchObject({ name: "my-agent", private: true, type: "module", scripts: { start: "toolsmith run", test: "vitest run" } });
    expect(manifest.dependencies).toEqual({ toolsmith: `^${TOOLSMITH_VERSION}`, zod: ownManifest.devDependencies.zod });
    expect(readFileSync(join(dir, "agent.ts"), "utf8")).toContain('name: "my_agent"');
    expect(readFileSync(join(dir, ".env.example"), "utf8")).toMatch(/AGENT_MODEL=gemini-2\.5-flash\n# GOOGLE_API_KEY=/);
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toContain(".env\n");
  });

  it("pins the versions toolsmith itself is built and tested with", () => {
    for (const [name, range] of Object.entries({ ...TEMPLATE_DEPENDENCIES.dependencies, ...TEMPLATE_DEPENDENCIES.devDependencies })) {
      expect([name, range]).toEqual([name, ownManifest.devDependencies[name]]);
    }
  });

  it("uses the model given with --model when AGENT_MODEL is unset", async () => {
    const agent = readFileSync(join(await created("with-model", ["--model", "gemini-2.5-flash"]), "agent.ts"), "utf8");
    expect(agent).toContain('createAgent(process.env.AGENT_MODEL || "gemini-2.5-flash")');
  });

  it("makes an agent name ADK accepts from any package name", () => {
    expect(["my-agent", "2fa", "user", "time.keeper"].map(agentNameOf)).toEqual(["my_agent", "agent_2fa", "user_agent", "time_keeper"]);
  });

  it("refuses a folder that holds files, and leaves them as they were", async () => {
    const dir = join(tempDir("toolsmith-create-"), "taken");
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "mine");
    const { code, stderr } = await cli(["create", dir]);
    expect(code).toBe(3);
    expect(stderr).toBe(`toolsmith: ${dir} already exists and is not an empty folder; nothing was written. Pick another name, or empty it first.\n`);
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("mine");
  });

  it("refuses a missing name or one npm would refuse with exit code 2", async () => {
    expect(await cli(["create"])).toMatchObject({ code: 2, stderr: "toolsmith: toolsmith create needs a name for the project's folder, such as: toolsmith create my-agent\n" });
    const upper = await cli(["create", join(tempDir(), "My Agent")]);
    expect(upper.code).toBe(2);
    expect(upper.stderr).toContain('"My Agent" cannot name an npm package');
  });

  it("makes a project whose agent answers offline, whose test passes and which type-checks", async () => {
    const dir = await created("offline-agent");
    linkDependencies(dir);
    const replay = join(dir, "replay.json");
    writeFileSync(replay, JSON.stringify(["What time is it in Tokyo?", "and in Atlantis?"]));
    // `npx toolsmith run` in the project: no agent argument, the working directory is the app.
    const run = await execFileAsync(process.execPath, [...SOURCE_NODE_FLAGS, join(repository, "bin/toolsmith.mjs"), "run", "--replay", replay, "--session-service-uri", "memory://"], { cwd: dir });
    expect(run.stdout).toContain("→ get_current_time({\"city\":\"Tokyo\"})");
    expect(run.stdout).toMatch(/offline_agent: It is \d\d:\d\d in Tokyo\./);
    expect(run.stdout).toContain("offline_agent: No time zone known for Atlantis.");
    const tests = await execFileAsync(join(repository, "node_modules/.bin/vitest"), ["run", "--root", dir], { cwd: dir, env: { ...process.env, NODE_OPTIONS: "--conditions=toolsmith-source" } });
    expect(stripVTControlCharacters(tests.stdout)).toMatch(/Tests\s+2 passed/);
    const typecheck = await execFileAsync(join(repository, "node_modules/.bin/tsc"), ["-p", dir], { cwd: dir });
    expect(typecheck.stdout).toBe("");
    expect(existsSync(join(dir, ".toolsmith"))).toBe(false);
  }, 120_000);
});
