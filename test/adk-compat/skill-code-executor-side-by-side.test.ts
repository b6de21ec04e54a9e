import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as adk from "@google/adk";
import { afterAll, describe, expect, it } from "vitest";
import { loadSkillFromDir, SkillToolset } from "../../src/tools/builtin/index.js";
import { call, drain, runOnBoth, runTurn, text, type Framework } from "./side-by-side.js";

/**
 * ADK's `SkillToolset({ codeExecutor, scriptOutputDir, allowInlineScripts })` with `UnsafeLocalCodeExecutor`, run on
 * `@google/adk` 2.0 and on toolsmith with the same scripted model over the same skill folder (each loaded by its
 * own `loadSkillFromDir`): the same tools declared, and `run_skill_script`'s answers compared key by key. Each
 * framework writes into its own output folder, shown here as `<outputDirectory>`. What differs, deliberately, is
 * asserted as such below.
 */

const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolsmith-skill-sbs-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const skillFolder = join(dir, "data-tools");
for (const [path, content] of Object.entries({
  "SKILL.md": "---\nname: data-tools\ndescription: Summarises data. Use for summaries.\n---\nRun scripts/summarise.py.\n",
  "references/units.md": "metres\n",
  "scripts/summarise.py": "import os, sys\nunit = open('references/units.md').read().strip()\nprint('py', unit, sys.argv[1:])\nopen('summary.txt', 'w').write('summary in ' + unit + '\\n')\nos.makedirs('charts', exist_ok=True)\nopen('charts/chart.png', 'wb').write(bytes([0x89, 0x50, 0x4e, 0x47]))\n",
  "scripts/count.js": "const fs = require('fs');\nconsole.log('js', fs.readdirSync('scripts').sort().join(','), process.argv.slice(2).join(' '));\nfs.writeFileSync('count.json', JSON.stringify({ n: 3 }));\n",
  "scripts/greet.sh": 'echo "sh $1 $2 $#"\necho hello > greeting.txt\n',
  "scripts/fail.py": "print('partial')\nraise SystemExit('bad input')\n",
})) {
  mkdirSync(dirname(join(skillFolder, path)), { recursive: true });
  writeFileSync(join(skillFolder, path), content);
}

type Response = Record<string, unknown>;

/** The function responses of a run, in order, by tool name. */
const functionResponses = (events: unknown[]) =>
  (events as Array<{ content?: { parts?: Array<{ functionResponse?: { name: string; response: Response } }> } }>)
    .flatMap((event) => event.content?.parts ?? [])
    .flatMap((part) => (part.functionResponse ? [{ name: part.functionResponse.name, response: part.functionResponse.response }] : []));

/** A response with its output folder shown as `<outputDirectory>` and its output files sorted by name (ADK lists them in the order the folder is read). */
function normalise(response: Response, outputDir: string): Response {
  const copy: Response = { ...response };
  if (typeof copy.outputDirectory === "string") copy.outputDirectory = copy.outputDirectory === outputDir ? "<outputDirectory>" : `unexpected: ${copy.outputDirectory}`;
  if (Array.isArray(copy.outputFiles)) copy.outputFiles = [...(copy.outputFiles as Array<{ name: string }>)].sort((a, b) => a.name.localeCompare(b.name));
  return copy;
}

/** The skill folder, loaded by the framework's own loader. */
const loadSkillOn = (f: Framework): Promise<unknown> => (f === adk ? adk.loadSkillFromDir(skillFolder) : loadSkillFromDir(skillFolder));

function skillToolsetOn(f: Framework, skill: unknown, options: Record<string, unknown>) {
  return f === adk ? new adk.SkillToolset([skill as adk.Skill], options as never) : new SkillToolset([skill as never], options);
}

describe("SkillToolset with a code executor, side by side with @google/adk 2.0", () => {
  it("declares the same five tools", async () => {
    const declarations = async (f: Framework) => {
      const skill = await loadSkillOn(f);
      const tools = await skillToolsetOn(f, skill, { codeExecutor: new f.UnsafeLocalCodeExecutor(), allowInlineScripts: true }).getTools();
      return (tools as Array<{ declaration?: () => unknown; _getDeclaration: () => unknown }>).map((tool) => (f === adk ? jsonSchemaTypes(tool._getDeclaration()) : tool.declaration!()));
    };
    const [theirs, ours] = [await declarations(adk), await declarations(await import("../../src/index.js"))];
    expect(ours).toEqual(theirs);
    expect((ours as Array<{ name: string }>).map((declaration) => declaration.name)).toEqual(["list_skills", "load_skill", "load_skill_resource", "run_skill_script", "run_skill_inline_script"]);
  });

  it("answers run_skill_script with the same stdout, stderr, output files and output folder, except where toolsmith deliberately differs", async () => {
    const script = [
      call("run_skill_script", { skill_name: "data-tools", script_path: "scripts/summarise.py", args: { unit: "km", verbose: true } }),
      call("run_skill_script", { skill_name: "data-tools", script_path: "scripts/count.js", args: { n: 3 } }),
      call("run_skill_script", { skill_name: "data-tools", script_path: "scripts/greet.sh", args: { name: "Ada" } }),
      call("run_skill_script", { skill_name: "data-tools", script_path: "scripts/fail.py" }),
      call("run_skill_script", { skill_name: "data-tools", script_path: "scripts/summarise.py" }),
      call("run_skill_script", { skill_name: "data-tools", script_path: "scripts/missing.py" }),
      call("run_skill_script", { skill_name: "data-tools", script_path: "greet.sh" }),
      call("run_skill_script", { skill_name: "data-tools", script_path: "scripts/summarise.py", args: { filter: { min: 2 } } }),
      text("Done."),
    ];
    const outputDirs = { adk: join(dir, "out-adk"), toolsmith: join(dir, "out-toolsmith") };
    const { adk: onAdk, toolsmith } = await runOnBoth(script, async (f: Framework, model) => {
      const outputDir = f === adk ? outputDirs.adk : outputDirs.toolsmith;
      const skill = await loadSkillOn(f);
      const agent = new f.LlmAgent({ name: "analyst", model, tools: [skillToolsetOn(f, skill, { codeExecutor: new f.UnsafeLocalCodeExecutor(), scriptOutputDir: outputDir })] });
      const { runner, events } = await runTurn(f, agent, "Summarise.");
      return { runner, events, output: functionResponses(events).map(({ response }) => normalise(response, outputDir)) };
    });
    const [theirs, ours] = [onAdk.output as Response[], toolsmith.output as Response[]];
    expect(toolsmith.requests.map((request) => request.tools)).toEqual(onAdk.requests.map((request) => request.tools));

    // The same: text output files with their content, the folder, stdout and stderr, name_2 for a name taken.
    const py = { stdout: "py metres ['--unit', 'km', '--verbose', 'true']\n", stderr: "", outputDirectory: "<outputDirectory>" };
    const summary = { name: "summary.txt", content: "summary in metres\n", contentEncoding: "utf-8", mimeType: "text/plain" };
    expect(theirs[0]).toEqual({ ...py, outputFiles: [{ name: "charts/chart.png", content: "iVBORw==", contentEncoding: "base64", mimeType: "image/png" }, summary] });
    // Differs: a binary file is named with its size, not put into the model's context in base64.
    expect(ours[0]).toEqual({ ...py, outputFiles: [{ name: "charts/chart.png", mimeType: "image/png", sizeBytes: 4 }, summary] });
    for (const index of [1, 2, 3]) expect(ours[index]).toEqual(theirs[index]);
    expect(ours[1]).toEqual({ stdout: "js count.js,fail.py,greet.sh,summarise.py --n 3\n", stderr: "", outputFiles: [{ name: "count.json", content: '{"n":3}', contentEncoding: "utf-8", mimeType: "application/json" }], outputDirectory: "<outputDirectory>" });
    expect(ours[2]).toMatchObject({ stdout: "sh --name Ada 2\n", outputFiles: [{ name: "greeting.txt", content: "hello\n" }] });
    expect(ours[3]).toEqual({ stdout: "partial\n", stderr: "bad input\n", outputFiles: [], outputDirectory: "<outputDirectory>" });
    // A second run: both write summary_2.txt and charts/chart_2.png beside the first ones.
    expect((theirs[4]!.outputFiles as Array<{ name: string }>).map((file) => file.name)).toEqual(["charts/chart_2.png", "summary_2.txt"]);
    expect((ours[4]!.outputFiles as Array<{ name: string }>).map((file) => file.name)).toEqual(["charts/chart_2.png", "summary_2.txt"]);

    // Differs: the error key is error_code, as in toolsmith's other skill tools, and the message lists the skill's scripts.
    expect(theirs[5]).toEqual({ error: "Script 'scripts/missing.py' not found in skill 'data-tools'.", errorCode: "SCRIPT_NOT_FOUND" });
    expect(ours[5]).toEqual({ error: "Script 'scripts/missing.py' not found in skill 'data-tools'. Its scripts: scripts/count.js, scripts/fail.py, scripts/greet.sh, scripts/summarise.py.", error_code: "SCRIPT_NOT_FOUND" });
    // Differs: a path without scripts/ is found by both, but ADK's wrapper then sources ./greet.sh, which is not there.
    expect(theirs[6]).toMatchObject({ stdout: "", stderr: expect.stringContaining("./greet.sh: No such file or directory"), outputFiles: [] });
    expect(ours[6]).toMatchObject({ stdout: "sh   0\n", stderr: "", outputFiles: [{ name: "greeting_2.txt" }] });
    // Differs: an argument that is an object is given as JSON; ADK's executor passes "[object Object]".
    expect(theirs[7]!.stdout).toBe("py metres ['--filter', '[object Object]']\n");
    expect(ours[7]!.stdout).toBe("py metres ['--filter', '{\"min\":2}']\n");
  });

  it("runs through the agent's executor when the toolset has none, and asks a person the same question before an inline script", async () => {
    const inline = "echo inline $1\necho done > inline.txt";
    const script = [
      call("run_skill_script", { skill_name: "data-tools", script_path: "scripts/greet.sh", args: { name: "Ada" } }),
      call("run_skill_inline_script", { script_content: inline, language: "shell", args: ["first"] }),
      text("Done."),
    ];
    const outputDirs = { adk: join(dir, "inline-adk"), toolsmith: join(dir, "inline-toolsmith") };
    const { adk: onAdk, toolsmith } = await runOnBoth(script, async (f: Framework, model) => {
      const outputDir = f === adk ? outputDirs.adk : outputDirs.toolsmith;
      const skill = await loadSkillOn(f);
      const agent = new f.LlmAgent({ name: "coder", model, codeExecutor: new f.UnsafeLocalCodeExecutor(), tools: [skillToolsetOn(f, skill, { allowInlineScripts: true, scriptOutputDir: outputDir })] });
      const { runner, events, session } = await runTurn(f, agent, "Greet, then run this.");
      const parts = (events as Array<{ content?: { parts?: Array<{ functionCall?: { id: string; name: string; args: Record<string, unknown> } }> } }>).flatMap((event) => event.content?.parts ?? []);
      const request = parts.find((part) => part.functionCall?.name === "adk_request_confirmation")!.functionCall!;
      const answer = { role: "user", parts: [{ functionResponse: { id: request.id, name: "adk_request_confirmation", response: { confirmed: true } } }] };
      let after: unknown[] = [];
      let failed: string | undefined;
      try {
        after = await drain((runner as { runAsync: (request: unknown) => AsyncIterable<unknown> }).runAsync({ userId: "u", sessionId: session.id, newMessage: answer }));
      } catch (error) {
        failed = (error as Error).message;
      }
      return {
        runner,
        events: [...events, ...after],
        output: {
          before: functionResponses(events).map(({ name, response }) => ({ name, response: normalise(response, outputDir) })),
          asked: request.args.toolConfirmation,
          after: functionResponses(after).map(({ name, response }) => ({ name, response: normalise(response, outputDir) })),
          failed,
          wroteInline: existsSync(join(outputDir, "inline.txt")),
        },
      };
    });
    type Output = { before: Array<{ name: string; response: Response }>; asked: unknown; after: Array<{ name: string; response: Response }>; failed?: string; wroteInline: boolean };
    const [theirs, ours] = [onAdk.output as Output, toolsmith.output as Output];
    // The script tools are offered at the first model call on both (ADK offers run_skill_script always; toolsmith because the agent has an executor).
    expect(toolsmith.requests[0]!.tools).toEqual(onAdk.requests[0]!.tools);
    // The agent's executor ran the skill's script on both, with the same answer.
    expect(ours.before[0]).toEqual(theirs.before[0]);
    expect(ours.before[0]!.response).toMatchObject({ stdout: "sh --name Ada 2\n", outputFiles: [{ name: "greeting.txt" }] });
    // The same question: ADK's hint, with the code, and ADK's payload; nothing ran before the answer.
    expect(ours.asked).toEqual(theirs.asked);
    expect(ours.asked).toMatchObject({ payload: { language: "shell", scriptContent: inline }, confirmed: false });
    // Differs: while it waits, ADK leaves the paused call without a response in the session; toolsmith answers it with its paused placeholder.
    expect(theirs.before.map((response) => response.name)).toEqual(["run_skill_script"]);
    expect(ours.before[1]).toMatchObject({ name: "run_skill_inline_script", response: { status: "paused", waitingFor: "confirmation" } });
    // Differs: answering yes as ADK documents makes ADK 2.0 throw (it finds no response to the call it asked about, so takes the
    // confirmation as unasked), and the script never runs; toolsmith runs it once and the turn goes on.
    expect(theirs.failed).toMatch(/confirmation_not_required/);
    expect(theirs.wroteInline).toBe(false);
    expect(ours.failed).toBeUndefined();
    expect(ours.wroteInline).toBe(true);
    expect(ours.after.find((response) => response.name === "run_skill_inline_script")!.response).toEqual({
      stdout: "inline first\n",
      stderr: "",
      outputFiles: [{ name: "inline.txt", content: "done\n", contentEncoding: "utf-8", mimeType: "text/plain" }],
      outputDirectory: "<outputDirectory>",
    });
  });
});

/** ADK's declaration with its `Type` values as JSON Schema spells them. */
function jsonSchemaTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonSchemaTypes);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === "type" && typeof inner === "string" ? inner.toLowerCase() : jsonSchemaTypes(inner)]));
}
