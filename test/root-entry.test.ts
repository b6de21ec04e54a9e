import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const SDKS = [
  "/node_modules/openai/",
  "/node_modules/@anthropic-ai/sdk/",
  "/node_modules/@google/genai/",
  "/node_modules/@modelcontextprotocol/",
  "/node_modules/@apidevtools/json-schema-ref-parser/",
  "/node_modules/ai/",
  "/node_modules/@langchain/core/",
  "/node_modules/yaml/",
  "/node_modules/js-yaml/",
];
/** The server, the CLI and their frameworks: behind `toolsmith/server` and the `toolsmith` command. */
const SERVER_PARTS = ["/node_modules/hono/", "/node_modules/@hono/", "/src/server/", "/src/cli/", "/node_modules/playwright"];
/** The built-in tools and what they use: behind `toolsmith/tools`. */
const BUILTIN_PARTS = ["/tools/builtin/", "/deep-agent/", "picomatch", "@vscode/ripgrep", "node:child_process"];

/** The module URLs a fresh Node process loads when it imports `entry`. */
async function modulesLoadedBy(entry: string): Promise<string[]> {
  const { stderr } = await run(process.execPath, ["--import", "tsx", "--import", "./test/fixtures/record-module-loads.mjs", "--input-type=module", "-e", `await import(${JSON.stringify(entry)});`], {
    cwd: process.cwd(),
  });
  return stderr
    .split("\n")
    .filter((line) => line.startsWith("LOADED "))
    .map((line) => line.slice(7));
}

/**
 * The CommonJS files a fresh Node process has loaded after running `script`
 * (with tsx, from the sources): the validator is CommonJS and is loaded with
 * `require`, which the resolve hook above does not see.
 */
async function commonJsLoadedAfter(script: string): Promise<string[]> {
  const probe = `${script}\nconst { createRequire } = await import("node:module");\nconsole.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`;
  const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", probe], { cwd: process.cwd() });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as string[];
}

const DEFINE_AGENT = `
import { FunctionTool, LlmAgent } from "./src/index.ts";
import { ScriptedModel } from "./src/testing/index.ts";
const lookup = new FunctionTool({ name: "lookup", description: "Looks up.", parameters: { type: "object", properties: { id: { type: "string", format: "uuid" } } }, execute: () => ({}) });
const agent = new LlmAgent({ name: "a", model: new ScriptedModel([]), tools: [lookup] });
`;

describe("the root entry", () => {
  it("defines an agent with a JSON Schema tool without loading the validator, which its first check loads", async () => {
    const isValidator = (path: string) => /\/node_modules\/(ajv|ajv-formats|@cfworker|@exodus)\//.test(path);
    const defined = await commonJsLoadedAfter(DEFINE_AGENT);
    const checked = await commonJsLoadedAfter(`${DEFINE_AGENT}\nlookup.checkArguments({ id: "42" });`);
    expect(defined.filter(isValidator)).toEqual([]);
    expect(checked.filter(isValidator).length).toBeGreaterThan(0);
  });

  it("loads no vendor SDK (nor does toolsmith/models), while an adapter's subpath does load its own", async () => {
    const [root, schema, openai] = await Promise.all([modulesLoadedBy("./src/index.ts"), modulesLoadedBy("./src/models/schema/index.ts"), modulesLoadedBy("./src/models/openai/index.ts")]);

    expect(root.some((url) => url.endsWith("/src/index.ts"))).toBe(true);
    expect(root.some((url) => url.endsWith("/src/models/model-registry.ts"))).toBe(true);
    expect(root.filter((url) => SDKS.some((sdk) => url.includes(sdk)))).toEqual([]);
    expect(root.filter((url) => SERVER_PARTS.some((part) => url.includes(part)))).toEqual([]);
    expect(root.filter((url) => BUILTIN_PARTS.some((part) => url.includes(part)))).toEqual([]);
    expect(schema.filter((url) => SDKS.some((sdk) => url.includes(sdk)))).toEqual([]);
    // The recorder does see SDKs when they load, so the empty list above means something.
    expect(openai.some((url) => url.includes("/node_modules/openai/"))).toBe(true);
    const builtin = await modulesLoadedBy("./src/tools/builtin/index.ts");
    expect(builtin.some((url) => url.endsWith("/tools/builtin/filesystem/glob-match.ts"))).toBe(true);
    expect(builtin.some((url) => url.includes("node:child_process"))).toBe(true);
    const mcp = await modulesLoadedBy("./src/mcp/index.ts");
    expect(mcp.some((url) => url.includes("/node_modules/@modelcontextprotocol/sdk/"))).toBe(true);
  });
});
