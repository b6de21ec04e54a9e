import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { join } from "node:path";
import * as adk from "@google/adk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BuiltInCodeExecutor, InMemorySessionService, LlmAgent, Runner, UnsafeLocalCodeExecutor, type FunctionDeclaration, type LlmRequest } from "../../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../../src/testing/index.js";
import { createShellScriptRunner, FilesystemBackend, loadSkillFromDirSync, SkillToolset, type Skill } from "../../../src/tools/builtin/index.js";
import { tempDir } from "../../support/temp-dir.js";
import { toolHarness } from "../builtin/tool-harness.js";
import { reportMakerFiles, skillMd, writeSkill } from "./skill-fixtures.js";

const dir = tempDir("toolsmith-skill-toolset-");
const reportMaker = loadSkillFromDirSync(writeSkill(dir, "report-maker", reportMakerFiles()));
const notes = loadSkillFromDirSync(writeSkill(dir, "notes", { "SKILL.md": skillMd("name: notes\ndescription: Takes <careful> notes & keeps them.", "Write notes to /notes.md.") }));

/** ADK's declaration with its `Type` values as JSON Schema spells them. */
function jsonSchemaTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonSchemaTypes);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === "type" && typeof inner === "string" ? inner.toLowerCase() : jsonSchemaTypes(inner)]));
}

const responsesOf = (request: LlmRequest) => request.contents.flatMap((content) => content.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));

describe("SkillToolset", () => {
  it("offers ADK's four skill tools with ADK's names, descriptions and arguments", async () => {
    const workspace = mkdtempSync(join(dir, "ws-"));
    const ours = await new SkillToolset([reportMaker], { runScript: createShellScriptRunner({ backend: new FilesystemBackend({ rootDirectory: workspace }) }) }).getTools();
    const theirs = (await new adk.SkillToolset([reportMaker as unknown as adk.Skill]).getTools()) as unknown as Array<{ _getDeclaration(): unknown }>;
    const declarations = ours.map((tool) => tool.declaration() as FunctionDeclaration);
    expect(declarations).toEqual(theirs.map((tool) => jsonSchemaTypes(tool._getDeclaration())));
    expect(declarations.map((declaration) => declaration.name)).toEqual(["list_skills", "load_skill", "load_skill_resource", "run_skill_script"]);
    // Without a script runner or a code executor there is no run_skill_script (ADK offers it and answers NO_CODE_EXECUTOR).
    expect((await new SkillToolset([reportMaker]).getTools()).map((tool) => tool.name)).toEqual(["list_skills", "load_skill", "load_skill_resource"]);
  });

  it("lists the skills as ADK does, escaping markup in descriptions", async () => {
    const harness = await toolHarness();
    const [list] = await new SkillToolset([reportMaker, notes]).getTools();
    const ours = await harness.call(list!, {});
    const theirs = await new adk.ListSkillsTool(new adk.SkillToolset([reportMaker, notes] as unknown as adk.Skill[])).runAsync({ args: {}, toolContext: {} as never });
    expect(ours).toBe(theirs);
    expect(ours).toContain("<description>Takes &lt;careful&gt; notes &amp; keeps them.</description>");
  });

  it("shows the model only names and descriptions until it loads a skill, then its instructions and, on demand, one file", async () => {
    const model = new ScriptedModel([
      functionCallsResponse({ name: "load_skill", args: { name: "report-maker" } }),
      functionCallsResponse({ name: "load_skill_resource", args: { skill_name: "report-maker", path: "references/format.md" } }),
      (request) => textResponse(String(responsesOf(request).at(-1)!.response!.content)),
    ]);
    const agent = new LlmAgent({ name: "assistant", model, instruction: "Help the user.", tools: [new SkillToolset([reportMaker, notes])] });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: "app", agent, sessionService });
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Make a report") }));

    const first = model.requests[0]!.systemInstruction!;
    expect(first).toContain("you MUST use the `load_skill` tool");
    expect(first).toContain("<available_skills>\n  <skill>\n    <name>report-maker</name>\n    <description>Makes a one-line report of the workspace&#039;s files. Use when asked for a report.</description>\n  </skill>");
    expect(first).not.toContain("Run scripts/report.sh");
    expect(first).not.toContain("run_skill_script");
    const loaded = responsesOf(model.requests[1]!).at(-1)!.response!;
    expect(loaded).toEqual({
      skill_name: "report-maker",
      instructions: "# Report maker\n\n1. Run scripts/report.sh.\n2. Read references/format.md.",
      frontmatter: reportMaker.frontmatter,
      resources: ["assets/logo.png", "references/format.md", "scripts/count.py", "scripts/report.sh"],
    });
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("Reports are one line: REPORT <count> files.");
    model.assertComplete();
  });

  it("answers a wrong skill name, path or script with ADK's error codes and what to use instead", async () => {
    const harness = await toolHarness();
    const tools = await new SkillToolset([reportMaker], { runScript: async () => ({ status: "success" }) }).getTools();
    const [, load, resource, run] = tools;
    expect(await harness.call(load!, { name: "pdf" })).toEqual({ error: "Skill 'pdf' not found. Available skills: report-maker.", error_code: "SKILL_NOT_FOUND" });
    expect(await harness.call(resource!, { skill_name: "report-maker", path: "SKILL.md" })).toEqual({
      error: "Path must start with 'references/', 'assets/', or 'scripts/' and name a file, such as references/guide.md.",
      error_code: "INVALID_RESOURCE_PATH",
    });
    expect(await harness.call(resource!, { skill_name: "report-maker", path: "references/missing.md" })).toEqual({
      error: "Resource 'references/missing.md' not found in skill 'report-maker'. Its files: assets/logo.png, references/format.md, scripts/count.py, scripts/report.sh.",
      error_code: "RESOURCE_NOT_FOUND",
    });
    expect(await harness.call(resource!, { skill_name: "report-maker", path: "assets/logo.png" })).toEqual({
      skill_name: "report-maker",
      path: "assets/logo.png",
      status: "Binary file of 8 bytes; it cannot be shown as text. A script of the skill can read it at assets/logo.png.",
    });
    expect(await harness.call(run!, { skill_name: "report-maker", script_path: "scripts/nope.sh" })).toEqual({
      error: "Script 'scripts/nope.sh' not found in skill 'report-maker'. Its scripts: scripts/count.py, scripts/report.sh.",
      error_code: "SCRIPT_NOT_FOUND",
    });
    // ADK's own answers to the same calls carry the same codes.
    const adkResource = new adk.LoadSkillResourceTool(new adk.SkillToolset([reportMaker as unknown as adk.Skill]));
    const adkCall = (path: string) => adkResource.runAsync({ args: { skill_name: "report-maker", path }, toolContext: { invocationId: "i" } as never }) as Promise<Record<string, unknown>>;
    expect((await adkCall("SKILL.md")).error_code).toBe("INVALID_RESOURCE_PATH");
    expect((await adkCall("references/missing.md")).error_code).toBe("RESOURCE_NOT_FOUND");
    expect(await adkCall("references/format.md")).toEqual(await harness.call(resource!, { skill_name: "report-maker", path: "references/format.md" }));
  });

  it("gives only the skill's own files for any path or skill name, however hostile (fuzzed), where ADK's lookup hands out Object.prototype", async () => {
    const harness = await toolHarness();
    const [, load, resource] = await new SkillToolset([reportMaker]).getTools();
    const own = new Map<string, string>([
      ["references/format.md", reportMaker.resources!.references!["format.md"] as string],
      ["scripts/report.sh", reportMaker.resources!.scripts!["report.sh"]!.src],
      ["scripts/count.py", reportMaker.resources!.scripts!["count.py"]!.src],
    ]);
    const segment = fc.constantFrom("..", ".", "", "references", "scripts", "assets", "format.md", "report.sh", "__proto__", "constructor", "hasOwnProperty", "/etc/passwd", "~", "%2e%2e", "SKILL.md", "\\..\\", "\0");
    // Real paths bent with . and .. segments, pieces of hostile ones, and arbitrary text.
    const bent = fc
      .tuple(fc.constantFrom("references", "scripts", "assets", " references"), fc.array(fc.constantFrom(".", "..", "references", "scripts", "assets", ""), { maxLength: 3 }), fc.constantFrom("format.md", "report.sh", "count.py", "logo.png", "__proto__", "format.md/"))
      .map(([folder, middle, file]) => [folder, ...middle, file].join("/"));
    const paths = fc.oneof(bent, fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => parts.join("/")), fc.string({ maxLength: 40 }));
    const tally = { content: 0, binary: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(paths, async (path) => {
        const result = await harness.call(resource!, { skill_name: "report-maker", path });
        if (typeof result.content === "string") {
          tally.content++;
          expect(own.get(String(result.path))).toBe(result.content);
        } else if (typeof result.status === "string") {
          tally.binary++;
          expect(result.path).toBe("assets/logo.png");
        } else {
          tally.refused++;
          expect(["INVALID_RESOURCE_PATH", "RESOURCE_NOT_FOUND"]).toContain(result.error_code);
        }
      }),
      { numRuns: 1500 },
    );
    console.log(`load_skill_resource fuzz: 1500 paths, ${tally.content} gave one of the skill's own text files, ${tally.binary} its binary asset, ${tally.refused} refused`);
    expect(tally.content).toBeGreaterThan(0);
    for (const name of ["__proto__", "constructor", "toString", "../report-maker"]) expect(await harness.call(load!, { name })).toMatchObject({ error_code: "SKILL_NOT_FOUND" });
    expect(await harness.call(resource!, { skill_name: "report-maker", path: "references/__proto__" })).toMatchObject({ error_code: "RESOURCE_NOT_FOUND" });
    const adkResource = new adk.LoadSkillResourceTool(new adk.SkillToolset([reportMaker as unknown as adk.Skill]));
    const adkProto = (await adkResource.runAsync({ args: { skill_name: "report-maker", path: "references/__proto__" }, toolContext: { invocationId: "i" } as never })) as Record<string, unknown>;
    expect(adkProto.content).toBe(Object.prototype);
  });

  it("runs a skill's script through the script runner with its arguments and files, in the workspace", async () => {
    const workspace = realpathSync(mkdtempSync(join(dir, "ws-")));
    mkdirSync(join(workspace, "data"));
    const harness = await toolHarness();
    const tools = await new SkillToolset([reportMaker], { runScript: createShellScriptRunner({ backend: new FilesystemBackend({ rootDirectory: workspace }) }) }).getTools();
    const run = tools.find((tool) => tool.name === "run_skill_script")!;
    const result = await harness.call(run, { skill_name: "report-maker", script_path: "report.sh", args: { title: "It's done", n: 2 } });
    expect(result).toEqual({ skill_name: "report-maker", script_path: "scripts/report.sh", status: "success", output: "REPORT 1 files\nargs: --title It's done --n 2\n", exit_code: 0, truncated: false });
    const python = await harness.call(run, { skill_name: "report-maker", script_path: "scripts/count.py", args: { "dry-run": true } });
    expect(python).toMatchObject({ status: "success", output: "python sees 2 files ['--dry-run', 'true']\n" });
    const unsupported = new SkillToolset([{ ...reportMaker, resources: { scripts: { "build.ts": { src: "x" } } } } as Skill], { runScript: async () => ({}) });
    const runTs = (await unsupported.getTools()).find((tool) => tool.name === "run_skill_script")!;
    expect(await harness.call(runTs, { skill_name: "report-maker", script_path: "scripts/build.ts" })).toEqual({
      error: "Script 'scripts/build.ts' cannot be run: skills run scripts ending in .py, .sh, .bash, .js, .mjs, .cjs. Read it with load_skill_resource and follow it yourself.",
      error_code: "UNSUPPORTED_SCRIPT",
    });
  });

  it("refuses two skills of one name when it is made", () => {
    expect(() => new SkillToolset([notes, notes])).toThrow(expect.objectContaining({ code: "INVALID_SKILL", message: 'Two skills are named "notes". Give each skill its own name.' }));
  });

  it("refuses ADK's registry, unknown options, and script options that cannot be honoured, saying what to use instead", () => {
    const refused = (options: Record<string, unknown>) => {
      try {
        new SkillToolset([notes], options as never);
      } catch (error) {
        return `${(error as { code: string }).code}: ${(error as Error).message}`;
      }
      return "taken";
    };
    const runScript = async () => ({});
    expect(refused({ registry: {} })).toMatch(/^UNSUPPORTED_OPTION: SkillToolset got ADK's registry, which toolsmith does not take: toolsmith has no skill registry/);
    expect(refused({ runScripts: () => undefined })).toBe('UNSUPPORTED_OPTION: SkillToolset got an unknown option "runScripts". Its options: runScript, codeExecutor, scriptOutputDir, allowInlineScripts, additionalTools.');
    expect(refused(JSON.parse('{"toString": 1}'))).toBe('UNSUPPORTED_OPTION: SkillToolset got an unknown option "toString". Its options: runScript, codeExecutor, scriptOutputDir, allowInlineScripts, additionalTools.');
    expect(refused({ codeExecutor: {} })).toBe(
      "UNSUPPORTED_OPTION: SkillToolset's codeExecutor takes a code executor (new UnsafeLocalCodeExecutor(), SandboxedCodeExecutor from toolsmith/tools, or a class extending BaseCodeExecutor); it got an object that is no code executor.",
    );
    expect(refused({ codeExecutor: new BuiltInCodeExecutor() })).toMatch(/^UNSUPPORTED_OPTION: SkillToolset's codeExecutor cannot be Gemini's BuiltInCodeExecutor/);
    expect(refused({ codeExecutor: new UnsafeLocalCodeExecutor(), runScript })).toBe(
      "UNSUPPORTED_OPTION: SkillToolset got both runScript and codeExecutor, and skills' scripts can run through only one. Give runScript to run them where the agent runs its commands (a deep agent's execution), or codeExecutor to run them as ADK does.",
    );
    expect(refused({ runScript, scriptOutputDir: "/tmp/out" })).toMatch(/^UNSUPPORTED_OPTION: SkillToolset got scriptOutputDir with runScript/);
    expect(refused({ scriptOutputDir: "" })).toBe('UNSUPPORTED_OPTION: SkillToolset\'s scriptOutputDir takes a folder\'s path; it got "".');
    expect(refused({ allowInlineScripts: "yes" })).toBe('UNSUPPORTED_OPTION: SkillToolset\'s allowInlineScripts takes true or false; it got "yes".');
    // ADK's script options are taken, alone or together; options left out are taken too.
    expect(refused({ codeExecutor: new UnsafeLocalCodeExecutor(), scriptOutputDir: "/tmp/out", allowInlineScripts: true })).toBe("taken");
    expect(refused({ runScript, allowInlineScripts: true, scriptOutputDir: "/tmp/out" })).toBe("taken");
    expect(refused({ allowInlineScripts: false, codeExecutor: undefined, registry: undefined, additionalTools: [] })).toBe("taken");
  });

  it("offers a skill's additional tools only to the agent that loaded it, from toolsets too, refusing two of one name", async () => {
    const weatherSkill: Skill = { ...notes, frontmatter: { name: "weather", description: "Weather.", metadata: { adk_additional_tools: ["forecast", "radar"] } } };
    const tool = (name: string) => ({ name, description: name, declaration: () => ({ name, description: name, parameters: { type: "object" as const, properties: {} } }), run: async () => ({ name }) });
    const radarSet = { getTools: async () => [tool("radar"), tool("unrelated")], close: async () => undefined };
    const toolset = new SkillToolset([weatherSkill, notes], { additionalTools: [tool("forecast"), radarSet] });
    const names = async (state: Record<string, unknown>, agentName = "forecaster") =>
      (await toolset.getTools({ agentName, state: { get: (key: string) => state[key] } } as never)).map((offered) => offered.name);
    expect(await names({})).toEqual(["list_skills", "load_skill", "load_skill_resource"]);
    expect(await names({ _adk_activated_skill_forecaster: ["notes"] })).toEqual(["list_skills", "load_skill", "load_skill_resource"]);
    expect(await names({ _adk_activated_skill_forecaster: ["weather"] })).toEqual(["list_skills", "load_skill", "load_skill_resource", "forecast", "radar"]);
    expect(await names({ _adk_activated_skill_forecaster: ["weather"] }, "another_agent")).toEqual(["list_skills", "load_skill", "load_skill_resource"]);
    const twice = new SkillToolset([weatherSkill], { additionalTools: [tool("forecast"), tool("forecast")] });
    await expect(twice.getTools({ agentName: "a", state: { get: () => ["weather"] } } as never)).rejects.toMatchObject({
      code: "DUPLICATE_TOOL_NAME",
      message: 'SkillToolset\'s additionalTools have two tools named "forecast". Give each tool its own name.',
    });
  });

  it("records the skills an agent loaded in ADK's state key, each once", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "load_skill", args: { name: "notes" } }), functionCallsResponse({ name: "load_skill", args: { name: "notes" } }), textResponse("Loaded.")]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "writer", model, tools: [new SkillToolset([notes])] }), sessionService: new InMemorySessionService() });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Take notes.") }));
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.state).toEqual({ _adk_activated_skill_writer: ["notes"] });
  });
});
