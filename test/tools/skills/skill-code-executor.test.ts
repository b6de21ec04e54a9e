import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import * as adk from "@google/adk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BaseCodeExecutor,
  BuiltInCodeExecutor,
  FileContentEncoding,
  InMemoryRunner,
  LlmAgent,
  REQUEST_CONFIRMATION,
  UnsafeLocalCodeExecutor,
  type CodeExecutionFile,
  type CodeExecutionResult,
  type Event,
  type ExecuteCodeParams,
  type FunctionDeclaration,
  type Tool,
} from "../../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../../src/testing/index.js";
import { loadSkillFromDir, SkillToolset } from "../../../src/tools/builtin/index.js";
import { tempDir } from "../../support/temp-dir.js";
import { toolHarness } from "../builtin/tool-harness.js";
import { skillMd, writeSkill } from "./skill-fixtures.js";

const dir = realpathSync(tempDir("toolsmith-skill-executor-"));

/** A skill with a reference, a binary asset, and scripts in Python, JavaScript (CommonJS and ESM), shell, and Ruby (which nothing runs). */
const dataTools = await loadSkillFromDir(
  writeSkill(dir, "data-tools", {
    "SKILL.md": skillMd("name: data-tools\ndescription: Summarises data. Use for summaries.", "Run scripts/summarise.py."),
    "references/units.md": "metres\n",
    "assets/seed.bin": new Uint8Array([0, 1, 2, 255]),
    "scripts/summarise.py": [
      "import os, sys",
      "unit = open('references/units.md').read().strip()",
      "seed = list(open('assets/seed.bin', 'rb').read())",
      "print('py', unit, seed, sys.argv[1:])",
      "open('summary.txt', 'w').write('summary in ' + unit + '\\n')",
      "os.makedirs('charts', exist_ok=True)",
      "open('charts/chart.png', 'wb').write(bytes([0x89, 0x50, 0x4e, 0x47]))",
    ].join("\n"),
    "scripts/count.js": "const fs = require('fs');\nconsole.log('js', fs.readdirSync('scripts').sort().join(','), process.argv.slice(2).join(' '));\nfs.writeFileSync('count.json', JSON.stringify({ n: 3 }));\n",
    "scripts/units.mjs": "import { readFileSync } from 'node:fs';\nconsole.log('mjs', readFileSync('references/units.md', 'utf8').trim());\n",
    "scripts/greet.sh": 'echo "sh $1 $2 $#"\necho hello > greeting.txt\n',
    "scripts/fail.py": "print('partial')\nraise SystemExit('bad input')\n",
    "scripts/big.py": "open('big.txt', 'w').write('x' * 40000)\n",
    "scripts/notes.rb": "puts 'ruby'\n",
  }),
);

const responsesOf = (events: readonly Event[]) => events.flatMap((event) => event.content?.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));

/** Runs one user turn of `agent` with a fresh runner and session. */
async function runTurn(agent: LlmAgent, message = "Go.") {
  const runner = new InMemoryRunner({ agent, appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const send = (content: Parameters<typeof userMessage>[0] | { role: string; parts: object[] }) =>
    collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: typeof content === "string" ? userMessage(content) : (content as never) }));
  return { runner, session, send, events: await send(message) };
}

/** A context whose agent is `agent`, to ask a toolset for the tools that agent is offered. */
const contextOf = (agent: LlmAgent) => ({ invocationContext: { agent }, agentName: agent.name, state: { get: () => undefined } }) as never;

const toolNamed = (tools: readonly Tool[], name: string) => tools.find((tool) => tool.name === name)!;

/** ADK's declaration with its `Type` values as JSON Schema spells them. */
function jsonSchemaTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonSchemaTypes);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === "type" && typeof inner === "string" ? inner.toLowerCase() : jsonSchemaTypes(inner)]));
}

/** An executor that answers with the output files given, running nothing: for names no real run would write. */
class FilesExecutor extends BaseCodeExecutor {
  files: CodeExecutionFile[] = [];
  async executeCode(_params: ExecuteCodeParams): Promise<CodeExecutionResult> {
    return { stdout: "", stderr: "", outputFiles: this.files };
  }
}

describe("SkillToolset with a code executor", () => {
  it("offers ADK's five tools with ADK's declarations when given a code executor and allowInlineScripts", async () => {
    const ours = await new SkillToolset([dataTools], { codeExecutor: new UnsafeLocalCodeExecutor(), allowInlineScripts: true }).getTools();
    const theirs = (await new adk.SkillToolset([dataTools as unknown as adk.Skill], { codeExecutor: new adk.UnsafeLocalCodeExecutor(), allowInlineScripts: true }).getTools()) as unknown as Array<{ _getDeclaration(): unknown }>;
    expect(ours.map((tool) => tool.declaration() as FunctionDeclaration)).toEqual(theirs.map((tool) => jsonSchemaTypes(tool._getDeclaration())));
    expect(ours.map((tool) => tool.name)).toEqual(["list_skills", "load_skill", "load_skill_resource", "run_skill_script", "run_skill_inline_script"]);
  });

  it("runs Python, JavaScript and shell scripts of a skill folder with the skill's files and the arguments, answering ADK's keys", async () => {
    const outputDir = join(dir, "out-languages");
    const model = new ScriptedModel([
      functionCallsResponse({ name: "run_skill_script", args: { skill_name: "data-tools", script_path: "scripts/summarise.py", args: { unit: "km", verbose: true, filter: { min: 2 } } } }),
      functionCallsResponse({ name: "run_skill_script", args: { skill_name: "data-tools", script_path: "count.js", args: { n: 3 } } }),
      functionCallsResponse({ name: "run_skill_script", args: { skill_name: "data-tools", script_path: "scripts/units.mjs" } }),
      functionCallsResponse({ name: "run_skill_script", args: { skill_name: "data-tools", script_path: "scripts/greet.sh", args: { name: "Ada Lovelace" } } }),
      textResponse("Done."),
    ]);
    const toolset = new SkillToolset([dataTools], { codeExecutor: new UnsafeLocalCodeExecutor(), scriptOutputDir: outputDir });
    const { events } = await runTurn(new LlmAgent({ name: "analyst", model, tools: [toolset] }));
    const [python, js, mjs, shell] = responsesOf(events).map((response) => response.response!);

    expect(python).toEqual({
      stdout: "py metres [0, 1, 2, 255] ['--unit', 'km', '--verbose', 'true', '--filter', '{\"min\":2}']\n",
      stderr: "",
      outputFiles: [
        { name: "charts/chart.png", mimeType: "image/png", sizeBytes: 4 },
        { name: "summary.txt", content: "summary in metres\n", contentEncoding: "utf-8", mimeType: "text/plain" },
      ],
      outputDirectory: outputDir,
    });
    expect(js).toEqual({
      stdout: "js big.py,count.js,fail.py,greet.sh,notes.rb,summarise.py,units.mjs --n 3\n",
      stderr: "",
      outputFiles: [{ name: "count.json", content: '{"n":3}', contentEncoding: "utf-8", mimeType: "application/json" }],
      outputDirectory: outputDir,
    });
    expect(mjs).toMatchObject({ stdout: "mjs metres\n", stderr: "", outputFiles: [] });
    expect(shell).toMatchObject({ stdout: "sh --name Ada Lovelace 2\n", stderr: "", outputFiles: [{ name: "greeting.txt", content: "hello\n" }] });
    // The files are in the output folder, as named.
    expect(readFileSync(join(outputDir, "summary.txt"), "utf8")).toBe("summary in metres\n");
    expect([...readFileSync(join(outputDir, "charts/chart.png"))]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(readdirSync(outputDir).sort()).toEqual(["charts", "count.json", "greeting.txt", "summary.txt"]);
    // The instruction tells the model it can run scripts.
    expect(model.requests[0]!.systemInstruction).toContain("4. Use `run_skill_script` to run scripts");
    model.assertComplete();
  });

  it("runs scripts whose names hold quotes, spaces and $ (ADK pastes the path into its wrapper unquoted)", async () => {
    const quoted = await loadSkillFromDir(
      writeSkill(dir, "quoted", {
        "SKILL.md": skillMd("name: quoted\ndescription: Quoted names."),
        "scripts/it's here.sh": 'echo "sh ran $1"\n',
        "scripts/o'neil $HOME.py": "import sys\nprint('py ran', sys.argv[1:])\n",
        "scripts/a'b \"c\".js": "console.log('js ran', process.argv.slice(2).join(' '));\n",
      }),
    );
    const harness = await toolHarness();
    const run = toolNamed(await new SkillToolset([quoted], { codeExecutor: new UnsafeLocalCodeExecutor(), scriptOutputDir: join(dir, "out-quoted") }).getTools(), "run_skill_script");
    const call = (script_path: string) => harness.call(run, { skill_name: "quoted", script_path, args: { x: "1" } });
    expect(await call("scripts/it's here.sh")).toMatchObject({ stdout: "sh ran --x\n", stderr: "" });
    expect(await call("scripts/o'neil $HOME.py")).toMatchObject({ stdout: "py ran ['--x', '1']\n", stderr: "" });
    expect(await call('scripts/a\'b "c".js')).toMatchObject({ stdout: "js ran --x 1\n", stderr: "" });
  });

  it("never replaces a file in the output folder: a second run's files are written as name_2.ext, and named so", async () => {
    const outputDir = join(dir, "out-again");
    mkdirSync(outputDir);
    writeFileSync(join(outputDir, "summary.txt"), "the user's own file");
    const harness = await toolHarness();
    const run = toolNamed(await new SkillToolset([dataTools], { codeExecutor: new UnsafeLocalCodeExecutor(), scriptOutputDir: outputDir }).getTools(), "run_skill_script");
    const names = async () => ((await harness.call(run, { skill_name: "data-tools", script_path: "scripts/summarise.py" })).outputFiles as Array<{ name: string }>).map((file) => file.name);
    expect(await names()).toEqual(["charts/chart.png", "summary_2.txt"]);
    expect(await names()).toEqual(["charts/chart_2.png", "summary_3.txt"]);
    expect(readFileSync(join(outputDir, "summary.txt"), "utf8")).toBe("the user's own file");
    expect(readdirSync(join(outputDir, "charts")).sort()).toEqual(["chart.png", "chart_2.png"]);
  });

  it("keeps the output in a private temporary folder made once per toolset when no scriptOutputDir is given", async () => {
    const harness = await toolHarness();
    const run = toolNamed(await new SkillToolset([dataTools], { codeExecutor: new UnsafeLocalCodeExecutor() }).getTools(), "run_skill_script");
    const first = await harness.call(run, { skill_name: "data-tools", script_path: "scripts/greet.sh" });
    const second = await harness.call(run, { skill_name: "data-tools", script_path: "scripts/greet.sh" });
    const folder = String(first.outputDirectory);
    expect(second.outputDirectory).toBe(folder);
    expect(folder).toMatch(/toolsmith-skill-output-/);
    expect(resolve(folder)).not.toBe(resolve(process.cwd()));
    expect(readdirSync(folder).sort()).toEqual(["greeting.txt", "greeting_2.txt"]);
    rmSync(folder, { recursive: true });
  });

  it("gives a failing script's standard error as ADK does, names large and binary files without their content, and answers ADK's error codes", async () => {
    const harness = await toolHarness();
    const run = toolNamed(await new SkillToolset([dataTools], { codeExecutor: new UnsafeLocalCodeExecutor(), scriptOutputDir: join(dir, "out-errors") }).getTools(), "run_skill_script");
    const call = (args: Record<string, unknown>) => harness.call(run, { skill_name: "data-tools", ...args });
    expect(await call({ script_path: "scripts/fail.py" })).toMatchObject({ stdout: "partial\n", stderr: "bad input\n", outputFiles: [] });
    expect(await call({ script_path: "scripts/big.py" })).toMatchObject({ outputFiles: [{ name: "big.txt", mimeType: "text/plain", sizeBytes: 40000 }] });
    expect(await call({ script_path: "scripts/notes.rb" })).toEqual({
      error: "Script 'scripts/notes.rb' cannot be run: skills run scripts ending in .py, .js, .cjs, .mjs, .ts, .sh, .bash, .ps1, .bat, .cmd. Read it with load_skill_resource and follow it yourself.",
      error_code: "UNSUPPORTED_SCRIPT",
    });
    const scripts = "scripts/big.py, scripts/count.js, scripts/fail.py, scripts/greet.sh, scripts/notes.rb, scripts/summarise.py, scripts/units.mjs";
    expect(await call({ script_path: "scripts/missing.py" })).toEqual({ error: `Script 'scripts/missing.py' not found in skill 'data-tools'. Its scripts: ${scripts}.`, error_code: "SCRIPT_NOT_FOUND" });
    // Only the skill's scripts run: not a reference reached through "..", nor a member of Object.prototype.
    for (const script_path of ["scripts/../references/units.md", "__proto__", "scripts/constructor", "../data-tools/scripts/greet.sh"]) expect(await call({ script_path })).toMatchObject({ error_code: "SCRIPT_NOT_FOUND" });
    expect(await harness.call(run, { skill_name: "pdf", script_path: "scripts/x.py" })).toEqual({ error: "Skill 'pdf' not found. Available skills: data-tools.", error_code: "SKILL_NOT_FOUND" });
    expect(await harness.call(run, { skill_name: "", script_path: "scripts/x.py" })).toEqual({ error: "Skill name is required.", error_code: "MISSING_SKILL_NAME" });
    expect(await call({ script_path: "" })).toEqual({ error: "Script path is required.", error_code: "MISSING_SCRIPT_PATH" });

    const broken = new (class extends BaseCodeExecutor {
      async executeCode(): Promise<CodeExecutionResult> {
        throw new Error("the sandbox is down");
      }
    })();
    const runBroken = toolNamed(await new SkillToolset([dataTools], { codeExecutor: broken }).getTools(), "run_skill_script");
    expect(await harness.call(runBroken, { skill_name: "data-tools", script_path: "greet.sh" })).toEqual({ error: "Failed to execute script 'scripts/greet.sh': the sandbox is down", error_code: "EXECUTION_ERROR" });
  });

  it("runs scripts through the calling agent's code executor when the toolset has none, and offers the script tools only then", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "run_skill_script", args: { skill_name: "data-tools", script_path: "scripts/greet.sh", args: { a: 1 } } }), textResponse("Greeted.")]);
    const toolset = new SkillToolset([dataTools], { allowInlineScripts: true, scriptOutputDir: join(dir, "out-agent") });
    const { events } = await runTurn(new LlmAgent({ name: "greeter", model, codeExecutor: new UnsafeLocalCodeExecutor(), tools: [toolset] }));
    expect(responsesOf(events)[0]!.response).toMatchObject({ stdout: "sh --a 1 2\n", stderr: "", outputFiles: [{ name: "greeting.txt" }] });
    expect(model.requests[0]!.functionDeclarations.map((declaration) => declaration.name)).toEqual(["list_skills", "load_skill", "load_skill_resource", "run_skill_script", "run_skill_inline_script"]);
    expect(model.requests[0]!.systemInstruction).toContain("Use `run_skill_script`");

    // An agent with no executor, or with Gemini's (which cannot be given a skill's files), is offered neither script tool.
    const names = async (agent: LlmAgent) => (await toolset.getTools(contextOf(agent))).map((tool) => tool.name);
    expect(await names(new LlmAgent({ name: "plain" }))).toEqual(["list_skills", "load_skill", "load_skill_resource"]);
    expect(await names(new LlmAgent({ name: "gemini", codeExecutor: new BuiltInCodeExecutor() }))).toEqual(["list_skills", "load_skill", "load_skill_resource"]);
    const plainModel = new ScriptedModel([textResponse("No scripts here.")]);
    await runTurn(new LlmAgent({ name: "plain", model: plainModel, tools: [toolset] }));
    expect(plainModel.requests[0]!.functionDeclarations.map((declaration) => declaration.name)).toEqual(["list_skills", "load_skill", "load_skill_resource"]);
    expect(plainModel.requests[0]!.systemInstruction).not.toContain("run_skill_script");
  });

  it("answers NO_CODE_EXECUTOR, asking no one, when a script tool is called for an agent that has no executor", async () => {
    const harness = await toolHarness(); // its agent has no code executor
    const tools = await new SkillToolset([dataTools], { allowInlineScripts: true }).getTools(contextOf(new LlmAgent({ name: "runner", codeExecutor: new UnsafeLocalCodeExecutor() })));
    expect(await harness.call(toolNamed(tools, "run_skill_script"), { skill_name: "data-tools", script_path: "scripts/greet.sh" })).toEqual({ error: "No code executor configured.", error_code: "NO_CODE_EXECUTOR" });
    const context = harness.context();
    expect(await toolNamed(tools, "run_skill_inline_script").run({ script_content: "echo hi", language: "shell" }, context)).toEqual({ error: "No code executor configured.", error_code: "NO_CODE_EXECUTOR" });
    expect(context.actions.requestedToolConfirmations).toEqual({});
    // ADK answers the same code (under `errorCode`) for an agent with no executor.
    const adkTool = new adk.RunSkillScriptTool(new adk.SkillToolset([dataTools as unknown as adk.Skill]));
    expect(await adkTool.runAsync({ args: { skill_name: "data-tools", script_path: "scripts/greet.sh" }, toolContext: { invocationContext: { agent: {} } } as never })).toEqual({ error: "No code executor configured.", errorCode: "NO_CODE_EXECUTOR" });
  });

  it("writes output files only inside the output folder, whatever names the executor gives (fuzzed), never through a link, never over a file", async () => {
    const jail = mkdtempSync(join(dir, "jail-"));
    const outputDir = join(jail, "out");
    const outside = join(jail, "outside");
    mkdirSync(outputDir);
    mkdirSync(outside);
    symlinkSync(outside, join(outputDir, "link"));
    writeFileSync(join(outputDir, "taken.txt"), "kept");
    const executor = new FilesExecutor();
    const harness = await toolHarness();
    const run = toolNamed(await new SkillToolset([dataTools], { codeExecutor: executor, scriptOutputDir: outputDir }).getTools(), "run_skill_script");
    const segment = fc.constantFrom("..", ".", "", "a", "b.txt", "taken.txt", "link", "etc", "passwd", "~", "\0", "x/..", "../out", "/", "\\..\\", "%2e%2e", "outside", "a b", "é.md");
    const name = fc.oneof(
      fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join("/")),
      fc.constantFrom("/etc/passwd", `${outside}/abs.txt`, "../../x", "link/through.txt", "taken.txt", "../outside/x"),
      fc.string({ maxLength: 20 }),
    );
    const tally = { cases: 0, written: 0, refused: 0, leaving: 0, throughLinkOrFile: 0, renamed: 0 };
    let expectedFiles = 1;
    await fc.assert(
      fc.asyncProperty(fc.array(name, { minLength: 1, maxLength: 4 }), async (names) => {
        tally.cases++;
        executor.files = names.map((file, index) => ({ name: file, content: `file ${index}`, contentEncoding: FileContentEncoding.UTF8, mimeType: "text/plain" }));
        const result = await harness.call(run, { skill_name: "data-tools", script_path: "scripts/greet.sh" });
        const written = result.outputFiles as Array<{ name: string; content: string }>;
        const refused = (result.refusedOutputFiles ?? []) as Array<{ name: string; error: string }>;
        for (const file of refused) {
          if (file.error.startsWith("The name leaves the output folder")) tally.leaving++;
          else if (file.error.endsWith("is not a folder (a link or a file), so nothing is written through it.")) tally.throughLinkOrFile++;
          else throw new Error(`refused for another reason: ${file.error}`);
        }
        expect(written.length + refused.length).toBe(names.length);
        // The names kept, in order: those not refused (refused ones are listed in the order given).
        const pending = refused.map((file) => file.name);
        const kept = names.filter((file) => (pending[0] === file ? (pending.shift(), false) : true));
        written.forEach((file, index) => {
          const path = resolve(outputDir, file.name);
          expect(path.startsWith(outputDir + sep)).toBe(true);
          expect(readFileSync(path, "utf8")).toBe(file.content);
          if (path !== resolve(outputDir, kept[index]!)) {
            tally.renamed++;
            expect(file.name).toMatch(/_\d+(\.[^/.]*)?$/);
          }
        });
        tally.written += written.length;
        tally.refused += refused.length;
        expectedFiles += written.length;
      }),
      { numRuns: 400 },
    );
    console.log(`output file fuzz: ${tally.cases} runs, ${tally.written} files written inside the folder (${tally.renamed} renamed to keep an existing one), ${tally.refused} refused (${tally.leaving} leaving the folder, ${tally.throughLinkOrFile} through a link or a file)`);
    const filesUnder = (folder: string): string[] =>
      readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(folder, entry.name)) : entry.isSymbolicLink() ? [] : [relative(outputDir, join(folder, entry.name))]));
    expect(filesUnder(outputDir)).toHaveLength(expectedFiles);
    expect(readdirSync(outside)).toEqual([]);
    expect(readdirSync(jail).sort()).toEqual(["out", "outside"]);
    expect(readFileSync(join(outputDir, "taken.txt"), "utf8")).toBe("kept");
    expect(tally.refused).toBeGreaterThan(0);
    expect(tally.renamed).toBeGreaterThan(0);
    // The names that try to leave, one by one.
    executor.files = ["../../x", "/etc/x", `${outside}/x`, "link/x", "a\0b", "ok.txt"].map((file) => ({ name: file, content: "x", contentEncoding: FileContentEncoding.UTF8, mimeType: "text/plain" }));
    const result = await harness.call(run, { skill_name: "data-tools", script_path: "scripts/greet.sh" });
    expect((result.refusedOutputFiles as Array<{ name: string }>).map((file) => file.name)).toEqual(["../../x", "/etc/x", `${outside}/x`, "link/x", "a\0b"]);
    expect((result.outputFiles as Array<{ name: string }>).map((file) => file.name)).toEqual([expect.stringMatching(/^ok(_\d+)?\.txt$/)]);
    expect(existsSync(join(jail, "x"))).toBe(false);
  });
});

describe("run_skill_inline_script", () => {
  const answer = (id: string, confirmed: boolean) => ({ role: "user", parts: [{ functionResponse: { id, name: REQUEST_CONFIRMATION, response: { confirmed } } }] });
  const confirmationCall = (events: readonly Event[]) => events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CONFIRMATION)!.functionCall!;

  async function start(counter: string) {
    const script = `echo ran >> '${counter}'\necho "ran with $1"`;
    const model = new ScriptedModel([functionCallsResponse({ name: "run_skill_inline_script", args: { script_content: script, language: "shell", args: ["first arg"] } }), textResponse("Finished.")]);
    const toolset = new SkillToolset([dataTools], { codeExecutor: new UnsafeLocalCodeExecutor(), allowInlineScripts: true, scriptOutputDir: join(dir, "out-inline") });
    return { script, model, ...(await runTurn(new LlmAgent({ name: "coder", model, tools: [toolset] }))) };
  }
  const runs = (counter: string) => (existsSync(counter) ? readFileSync(counter, "utf8").split("\n").filter(Boolean).length : 0);

  it("waits for a person's confirmation, showing the code, then runs once; a replayed confirmation runs nothing", async () => {
    const counter = join(dir, "inline-yes.count");
    const { events, send, script } = await start(counter);
    expect(runs(counter)).toBe(0);
    const request = confirmationCall(events);
    expect(request.args!.toolConfirmation).toEqual({
      hint: `Confirmation is required before executing an inline skill script. The agent requested to run the following shell script in the code executor. Only approve if you trust its contents:\n\n${script}`,
      payload: { language: "shell", scriptContent: script },
      confirmed: false,
    });
    expect(responsesOf(events)[0]!.response).toMatchObject({ status: "paused", waitingFor: "confirmation" });

    const after = await send(answer(request.id!, true));
    expect(runs(counter)).toBe(1);
    expect(responsesOf(after)[0]!.response).toMatchObject({ stdout: "ran with first arg\n", stderr: "", outputFiles: [] });
    expect(after.at(-1)!.content!.parts![0]!.text).toBe("Finished.");

    await expect(send(answer(request.id!, true))).rejects.toMatchObject({ code: "REQUEST_ALREADY_ANSWERED" });
    expect(runs(counter)).toBe(1);
  });

  it("runs nothing after a no, and answers ADK's CONFIRMATION_REJECTED", async () => {
    const counter = join(dir, "inline-no.count");
    const { events, send } = await start(counter);
    const after = await send(answer(confirmationCall(events).id!, false));
    expect(responsesOf(after)[0]!.response).toEqual({ error: "Inline script execution was not confirmed and was rejected.", error_code: "CONFIRMATION_REJECTED" });
    expect(runs(counter)).toBe(0);
  });

  it("asks again, and runs nothing, when called by hand without a confirmation; answers ADK's missing-argument codes", async () => {
    const counter = join(dir, "inline-hand.count");
    const harness = await toolHarness();
    const inline = toolNamed(await new SkillToolset([dataTools], { codeExecutor: new UnsafeLocalCodeExecutor(), allowInlineScripts: true }).getTools(), "run_skill_inline_script");
    const context = harness.context();
    expect(await inline.run({ script_content: `echo ran >> '${counter}'`, language: "shell" }, context)).toEqual({ partial: "This tool call needs external confirmation before completion." });
    expect(Object.values(context.actions.requestedToolConfirmations)).toHaveLength(1);
    expect(runs(counter)).toBe(0);
    expect(await inline.run({ script_content: "", language: "shell" }, harness.context())).toEqual({ error: "Script content is required.", error_code: "MISSING_SCRIPT_CONTENT" });
    expect(await harness.call(inline, { script_content: "print(1)", language: "ruby" })).toMatchObject({ status: "error" });
  });
});
