import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as adk from "@google/adk";
import { afterAll, describe, expect, it } from "vitest";
import { loadSkillFromDir, RunSkillInlineScriptErrorCode, SkillToolset } from "../../src/tools/builtin/index.js";
import { call, runOnBoth, runTurn, text, type Framework } from "./side-by-side.js";

/**
 * ADK's `RunSkillInlineScriptErrorCode`, on `@google/adk` 2.0 and on toolsmith (`toolsmith/tools`): the enum, and
 * the codes `run_skill_inline_script` answers with when a scripted model calls it through a `SkillToolset` with
 * `allowInlineScripts` and a code executor.
 */

const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolsmith-inline-codes-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "notes"));
writeFileSync(join(dir, "notes", "SKILL.md"), "---\nname: notes\ndescription: Takes notes. Use for notes.\n---\nWrite notes.\n");

/** What `run_skill_inline_script` answered, when the model called it with `args`. */
async function inlineAnswers(args: Record<string, unknown>) {
  const { adk: onAdk, toolsmith: onToolsmith } = await runOnBoth([call("run_skill_inline_script", args), text("ok")], async (f: Framework, model) => {
    const skill = f === adk ? await adk.loadSkillFromDir(join(dir, "notes")) : await loadSkillFromDir(join(dir, "notes"));
    const options = { allowInlineScripts: true, codeExecutor: new f.UnsafeLocalCodeExecutor() };
    const toolset = f === adk ? new adk.SkillToolset([skill as adk.Skill], options as never) : new SkillToolset([skill as never], options);
    return runTurn(f, new f.LlmAgent({ name: "writer", model, tools: [toolset] }), "go");
  });
  const answerOf = (events: unknown[]) =>
    (events as Array<{ content?: { parts?: Array<{ functionResponse?: { response: Record<string, unknown> } }> } }>).flatMap((event) => event.content?.parts ?? []).find((part) => part.functionResponse)!.functionResponse!.response;
  return { adk: answerOf(onAdk.events), toolsmith: answerOf(onToolsmith.events) };
}

describe("RunSkillInlineScriptErrorCode, side by side with @google/adk 2.0", () => {
  it("has ADK's five codes, by the same names and values", () => {
    expect({ ...RunSkillInlineScriptErrorCode }).toEqual({ ...adk.RunSkillInlineScriptErrorCode });
    expect(Object.keys(RunSkillInlineScriptErrorCode)).toEqual(["MISSING_SCRIPT_CONTENT", "MISSING_LANGUAGE", "NO_CODE_EXECUTOR", "EXECUTION_ERROR", "CONFIRMATION_REJECTED"]);
  });

  it("is the code both answer for a script with no content, under errorCode in ADK and error_code in toolsmith", async () => {
    const answers = await inlineAnswers({ script_content: "", language: "python" });
    expect(answers.adk).toEqual({ error: "Script content is required.", errorCode: adk.RunSkillInlineScriptErrorCode.MISSING_SCRIPT_CONTENT });
    expect(answers.toolsmith).toEqual({ error: "Script content is required.", error_code: RunSkillInlineScriptErrorCode.MISSING_SCRIPT_CONTENT });
  });

  it("a script with no language: ADK answers MISSING_LANGUAGE; toolsmith's argument check refuses it first, as for any tool", async () => {
    const answers = await inlineAnswers({ script_content: "print(1)", language: "" });
    expect(answers.adk).toEqual({ error: "Language is required.", errorCode: RunSkillInlineScriptErrorCode.MISSING_LANGUAGE });
    expect(answers.toolsmith).toMatchObject({ status: "error", invalidArguments: [{ field: "language" }] });
  });
});
