import { ConfigurationError } from "../../errors/toolsmith-error.js";
import { unhonouredOption } from "../../errors/unhonoured-option.js";
import { isBaseCodeExecutor, type BaseCodeExecutor } from "../code-executors/base-code-executor.js";
import type { ToolUnion } from "../tool.js";
import type { ScriptRunner } from "./script-runner.js";

/** Options of `SkillToolset`. */
export interface SkillToolsetOptions {
  /**
   * Runs skills' scripts (`run_skill_script`) where the agent runs its
   * commands; `createDeepAgent` gives one running through its `execution`.
   * Not with `codeExecutor`: give one or the other.
   */
  runScript?: ScriptRunner;
  /**
   * ADK's: runs skills' scripts (`run_skill_script`) through this code
   * executor (`new UnsafeLocalCodeExecutor()`, `SandboxedCodeExecutor` from
   * `toolsmith/tools`, or your own `BaseCodeExecutor`), with the skill's
   * `references/`, `assets/` and `scripts/` beside the script, and answers with
   * ADK's `{ stdout, stderr, outputFiles, outputDirectory }`. Left out, the
   * calling agent's `codeExecutor` runs them (unless it is Gemini's
   * `BuiltInCodeExecutor`, which cannot be given a skill's files); with no
   * executor and no `runScript`, `run_skill_script` is not offered.
   */
  codeExecutor?: BaseCodeExecutor;
  /**
   * ADK's: the folder the files a script writes are copied into (made when
   * missing); an existing file is never replaced (`chart.png` taken, the new
   * one is `chart_2.png`), and a name leaving the folder is refused. Default: a
   * private temporary folder, made on the first run, kept after it.
   */
  scriptOutputDir?: string;
  /**
   * ADK's: also offers `run_skill_inline_script`, which runs code the model
   * writes (Python, JavaScript, shell, …) through the code executor, each call
   * only after a person confirmed it, seeing the code (ADK's confirmation:
   * the run pauses with `adk_request_confirmation`). Default false.
   */
  allowInlineScripts?: boolean;
  /**
   * Tools (or toolsets) offered only once a skill asks for them, as in ADK: a skill whose SKILL.md lists tool
   * names under `metadata.adk_additional_tools` makes those of these tools available to the agent from the step
   * after it loaded the skill (`load_skill`), for the rest of the session. A name none of them has is left out.
   */
  additionalTools?: readonly ToolUnion[];
}

/**
 * Refuses, with `UNSUPPORTED_OPTION` and what to do instead, the options a {@link SkillToolsetOptions} would
 * otherwise pass over (ADK's `registry`, unknown ones) and script options that cannot be honoured as given.
 */
export function checkSkillToolsetOptions(options: SkillToolsetOptions): void {
  checkKnownOptions(options);
  checkScriptOptions(options);
}

/** ADK's options that toolsmith's skill toolset does not have: taken when left out or false, else refused with what to do instead. */
const ADK_ONLY_OPTIONS: Record<string, { behavesAs: false; why: string }> = {
  registry: { behavesAs: false, why: "toolsmith has no skill registry: load the skills (loadAllSkillsInDir, loadSkillFromDir) and give them to SkillToolset" },
};
const OPTIONS = ["runScript", "codeExecutor", "scriptOutputDir", "allowInlineScripts", "additionalTools"];

/** Refuses an option toolsmith would otherwise pass over: ADK's it lacks (left out or false is fine), and unknown ones. */
function checkKnownOptions(options: SkillToolsetOptions): void {
  const unhonoured = unhonouredOption(options, OPTIONS, ADK_ONLY_OPTIONS);
  if (!unhonoured) return;
  const { key, adkOnly } = unhonoured;
  throw new ConfigurationError(
    "UNSUPPORTED_OPTION",
    adkOnly ? `SkillToolset got ADK's ${key}, which toolsmith does not take: ${adkOnly.why}.` : `SkillToolset got an unknown option ${JSON.stringify(key)}. Its options: ${OPTIONS.join(", ")}.`,
  );
}

/** Refuses script options that cannot be honoured together or are not what they should be. */
function checkScriptOptions(options: SkillToolsetOptions): void {
  const refuse = (message: string): never => {
    throw new ConfigurationError("UNSUPPORTED_OPTION", message);
  };
  const { codeExecutor, runScript, scriptOutputDir, allowInlineScripts } = options;
  if (codeExecutor !== undefined) {
    if (!isBaseCodeExecutor(codeExecutor)) refuse(`SkillToolset's codeExecutor takes a code executor (new UnsafeLocalCodeExecutor(), SandboxedCodeExecutor from toolsmith/tools, or a class extending BaseCodeExecutor); it got ${codeExecutor === null ? "null" : typeof codeExecutor === "object" ? "an object that is no code executor" : `a ${typeof codeExecutor}`}.`);
    if (typeof (codeExecutor as { executeCode?: unknown }).executeCode !== "function") {
      refuse("SkillToolset's codeExecutor cannot be Gemini's BuiltInCodeExecutor: it runs the model's code on Google's side and cannot be given a skill's files. Give new UnsafeLocalCodeExecutor(), SandboxedCodeExecutor (toolsmith/tools), or your own BaseCodeExecutor.");
    }
    if (runScript !== undefined) {
      refuse("SkillToolset got both runScript and codeExecutor, and skills' scripts can run through only one. Give runScript to run them where the agent runs its commands (a deep agent's execution), or codeExecutor to run them as ADK does.");
    }
  }
  if (runScript !== undefined && typeof runScript !== "function") refuse(`SkillToolset's runScript takes a function (createShellScriptRunner gives one); it got ${typeof runScript}.`);
  if (scriptOutputDir !== undefined) {
    if (typeof scriptOutputDir !== "string" || scriptOutputDir === "") refuse(`SkillToolset's scriptOutputDir takes a folder's path; it got ${JSON.stringify(scriptOutputDir)}.`);
    if (runScript !== undefined && allowInlineScripts !== true) {
      refuse("SkillToolset got scriptOutputDir with runScript: scripts run through runScript leave their files where it runs them (a deep agent's workspace), so nothing would be written there. Leave scriptOutputDir out, or give codeExecutor instead of runScript.");
    }
  }
  if (allowInlineScripts !== undefined && typeof allowInlineScripts !== "boolean") refuse(`SkillToolset's allowInlineScripts takes true or false; it got ${JSON.stringify(allowInlineScripts)}.`);
}
