import { ConfigurationError } from "../../errors/toolsmith-error.js";
import { unhonouredOption } from "../../errors/unhonoured-option.js";
import { appendInstructions } from "../../models/llm-request.js";
import { BaseToolset } from "../base-toolset.js";
import { FunctionTool } from "../function-tool.js";
import { isToolset, type JsonSchema, type Tool, type ToolUnion } from "../tool.js";
import type { ReadonlyContext } from "../../agents/readonly-context.js";
import { CodeExecutionLanguage, isBaseCodeExecutor, type BaseCodeExecutor } from "../code-executors/base-code-executor.js";
import type { ToolContext } from "../tool-context.js";
import { formatSkillsAsXml } from "./format-skills-as-xml.js";
import { scriptArguments, scriptLanguage, SCRIPT_ENDINGS, type ScriptRunner } from "./script-runner.js";
import type { Skill } from "./skill.js";
import { agentCodeExecutor, executeKeepingFiles, NO_CODE_EXECUTOR, runInlineScript, ScriptOutputFolder } from "./skill-code-execution.js";
import { findSkillResource, listResources, skillFiles } from "./skill-resource.js";
import { executorArguments, executorLanguageOf, EXECUTOR_SCRIPT_ENDINGS, skillInputFiles, wrapperCode } from "./skill-script-code.js";

/** Options of {@link SkillToolset}. */
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

/** ADK's options that toolsmith's skill toolset does not have: taken when left out or false, else refused with what to do instead. */
const ADK_ONLY_OPTIONS: Record<string, { behavesAs: false; why: string }> = {
  registry: { behavesAs: false, why: "toolsmith has no skill registry: load the skills (loadAllSkillsInDir, loadSkillFromDir) and give them to SkillToolset" },
};
const OPTIONS = ["runScript", "codeExecutor", "scriptOutputDir", "allowInlineScripts", "additionalTools"];

/** The state key ADK's `load_skill` records an agent's loaded skills under (so ADK's sessions read the same). */
export const activatedSkillsKey = (agentName: string): string => `_adk_activated_skill_${agentName}`;

/** Refuses an option toolsmith would otherwise pass over: ADK's it lacks (left out or false is fine), and unknown ones. */
function checkOptions(options: SkillToolsetOptions): void {
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
  const refuse = (message: string) => {
    throw new ConfigurationError("UNSUPPORTED_OPTION", message);
  };
  const { codeExecutor, runScript, scriptOutputDir, allowInlineScripts } = options;
  if (codeExecutor !== undefined) {
    if (!isBaseCodeExecutor(codeExecutor)) refuse(`SkillToolset's codeExecutor takes a code executor (new UnsafeLocalCodeExecutor(), SandboxedCodeExecutor from toolsmith/tools, or a class extending BaseCodeExecutor); it got ${codeExecutor === null ? "null" : typeof codeExecutor}.`);
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

/** The agent a context belongs to, when it is a run's context (a toolset may be asked for its tools with none). */
function agentOf(context: ReadonlyContext | ToolContext | undefined): unknown {
  return (context as { invocationContext?: { agent?: unknown } } | undefined)?.invocationContext?.agent;
}

/** What the model is told about skills, as ADK's skill toolset tells it (the script tool's line only when scripts can run). */
function skillInstruction(canRunScripts: boolean): string {
  return `You can use specialized 'skills' to help you with complex tasks. You MUST use the skill tools to interact with these skills.

Skills are folders of instructions and resources that extend your capabilities for specialized tasks. Each skill folder contains:
- **SKILL.md** (required): The main instruction file with skill metadata and detailed markdown instructions.
- **references/** (Optional): Additional documentation or examples for skill usage.
- **assets/** (Optional): Templates, scripts or other resources used by the skill.
- **scripts/** (Optional): Executable scripts that can be run via bash.

This is very important:

1. If a skill seems relevant to the current user query, you MUST use the \`load_skill\` tool with \`name="<SKILL_NAME>"\` to read its full instructions before proceeding.
2. Once you have read the instructions, follow them exactly as documented before replying to the user. For example, If the instruction lists multiple steps, please make sure you complete all of them in order.
3. The \`load_skill_resource\` tool is for viewing files within a skill's directory (e.g., \`references/*\`, \`assets/*\`, \`scripts/*\`). Do NOT use other tools to access these files.
${canRunScripts ? "4. Use `run_skill_script` to run scripts from a skill's `scripts/` directory. Use `load_skill_resource` to view script content first if needed.\n" : ""}`;
}

/** The languages `run_skill_inline_script` offers, as ADK lists them. */
const INLINE_LANGUAGES = Object.values(CodeExecutionLanguage).filter((language) => language !== CodeExecutionLanguage.UNSPECIFIED);

/**
 * ADK 2's skill toolset: the model sees each skill's name and description in
 * its instruction and loads a skill's instructions (`load_skill`) and files
 * (`load_skill_resource`) only when it needs them; `list_skills` lists them
 * again, and `run_skill_script` runs a skill's script through the
 * {@link ScriptRunner} given. Works in any `LlmAgent`'s tools.
 *
 * @example
 * ```ts
 * const skills = await loadAllSkillsInDir("./skills");
 * const agent = new LlmAgent({ name: "assistant", model: "gemini-2.5-flash", tools: [new SkillToolset(skills)] });
 * ```
 */
export class SkillToolset extends BaseToolset {
  /** The skills, by name. */
  readonly skills: Readonly<Record<string, Skill>>;
  private readonly tools: Tool[];

  /** The tools skills may ask for (ADK's `additionalTools`). */
  readonly additionalTools: readonly ToolUnion[];

  constructor(skills: Readonly<Record<string, Skill>> | readonly Skill[], options: SkillToolsetOptions = {}) {
    super([], "adk_skill_toolset");
    checkOptions(options);
    this.additionalTools = [...(options.additionalTools ?? [])];
    this.skills = Array.isArray(skills) ? skillsByName(skills as readonly Skill[]) : { ...(skills as Record<string, Skill>) };
    const listed = Object.values(this.skills);
    const instruction = [skillInstruction(options.runScript !== undefined), formatSkillsAsXml(listed)];
    this.tools = [
      skillTool("list_skills", "Lists all available skills with their names and descriptions.", {}, () => formatSkillsAsXml(listed)),
      Object.assign(
        skillTool("load_skill", "Loads the SKILL.md instructions for a given skill.", { name: text("The name of the skill to load.") }, (args, context) => this.loadSkill(String(args.name), context)),
        // The skills' list rides on load_skill, so it stays when the tools are wrapped (approval rules, filters).
        { processLlmRequest: ({ llmRequest }: { llmRequest: Parameters<typeof appendInstructions>[0] }) => appendInstructions(llmRequest, instruction) },
      ),
      skillTool(
        "load_skill_resource",
        "Loads a resource file (from references/, assets/, or scripts/) from within a skill.",
        { skill_name: SKILL_NAME, path: text("The relative path to the resource (e.g., 'references/my_doc.md', 'assets/template.txt', or 'scripts/setup.sh').") },
        (args) => this.loadResource(String(args.skill_name), String(args.path)),
      ),
    ];
    const runScript = options.runScript;
    if (runScript) {
      this.tools.push(
        skillTool(
          "run_skill_script",
          "Executes a script from a skill's scripts/ directory.",
          {
            skill_name: SKILL_NAME,
            script_path: text("The relative path to the script (e.g., 'scripts/setup.js')."),
            args: { type: "object", description: "Optional arguments to pass to the script as key-value pairs." },
          },
          (args, context) => this.runScript(runScript, String(args.skill_name), String(args.script_path), args.args as Record<string, unknown> | undefined, context),
        ),
      );
    }
  }

  /** The skill tools, and the additional tools the skills this agent loaded in the session ask for. */
  async getTools(context?: ReadonlyContext): Promise<Tool[]> {
    const wanted = context ? this.#wantedTools(context) : undefined;
    if (!wanted) return [...this.tools];
    const offered = new Set(this.tools.map((tool) => tool.name));
    const extra: Tool[] = [];
    for (const tool of await this.#additionalToolsByName(context!)) {
      if (wanted.has(tool.name) && !offered.has(tool.name)) {
        offered.add(tool.name);
        extra.push(tool);
      }
    }
    return [...this.tools, ...extra];
  }

  /** The tool names the skills this agent loaded ask for, if any. */
  #wantedTools(context: ReadonlyContext): Set<string> | undefined {
    // Without additional tools there is nothing to offer: the state is not read (each read makes a State).
    if (this.additionalTools.length === 0) return undefined;
    const loaded = context.state.get(activatedSkillsKey(context.agentName));
    if (!Array.isArray(loaded) || loaded.length === 0) return undefined;
    const wanted = new Set<string>();
    for (const name of loaded) {
      const names = typeof name === "string" ? this.getSkill(name)?.frontmatter.metadata?.["adk_additional_tools"] : undefined;
      if (Array.isArray(names)) for (const tool of names) if (typeof tool === "string") wanted.add(tool);
    }
    return wanted.size > 0 ? wanted : undefined;
  }

  /** Every additional tool, toolsets' tools listed; two of one name are refused, as ADK refuses them. */
  async #additionalToolsByName(context: ReadonlyContext): Promise<Tool[]> {
    const tools: Tool[] = [];
    for (const entry of this.additionalTools) tools.push(...(isToolset(entry) ? await entry.getTools(context) : [entry]));
    const seen = new Set<string>();
    for (const tool of tools) {
      if (seen.has(tool.name)) throw new ConfigurationError("DUPLICATE_TOOL_NAME", `SkillToolset's additionalTools have two tools named "${tool.name}". Give each tool its own name.`);
      seen.add(tool.name);
    }
    return tools;
  }

  async close(): Promise<void> {}

  /** A skill by name, as ADK's `getSkill`. */
  getSkill(name: string): Skill | undefined {
    return Object.hasOwn(this.skills, name) ? this.skills[name] : undefined;
  }

  private loadSkill(name: string, context: ToolContext): Record<string, unknown> {
    const skill = this.getSkill(name);
    if (!skill) return notFound(name, this.skills);
    // Recorded as ADK records it: the skills this agent loaded, whose additional tools it is then offered.
    const key = activatedSkillsKey(context.agentName);
    const loaded = context.state.get(key);
    const list = Array.isArray(loaded) ? (loaded as unknown[]) : [];
    if (!list.includes(name)) context.state.set(key, [...list, name]);
    return { skill_name: name, instructions: skill.instructions, frontmatter: skill.frontmatter, resources: listResources(skill) };
  }

  private loadResource(skillName: string, path: string): Record<string, unknown> {
    const skill = this.getSkill(skillName);
    if (!skill) return notFound(skillName, this.skills);
    const found = findSkillResource(skill, path);
    if (!found.ok) return { error: found.error, error_code: found.error_code };
    if (typeof found.content !== "string") {
      return { skill_name: skillName, path: found.path, status: `Binary file of ${found.content.byteLength} bytes; it cannot be shown as text. A script of the skill can read it at ${found.path}.` };
    }
    return { skill_name: skillName, path: found.path, content: found.content };
  }

  private async runScript(runScript: ScriptRunner, skillName: string, scriptPath: string, args: Record<string, unknown> | undefined, context: ToolContext): Promise<Record<string, unknown>> {
    const skill = this.getSkill(skillName);
    if (!skill) return notFound(skillName, this.skills);
    const found = findSkillResource(skill, scriptPath.startsWith("scripts/") ? scriptPath : `scripts/${scriptPath}`);
    if (!found.ok) return { error: `Script '${scriptPath}' not found in skill '${skillName}'. Its scripts: ${listResources(skill).filter((path) => path.startsWith("scripts/")).join(", ") || "none"}.`, error_code: "SCRIPT_NOT_FOUND" };
    const language = scriptLanguage(found.path);
    if (!language) return { error: `Script '${found.path}' cannot be run: skills run scripts ending in ${SCRIPT_ENDINGS.join(", ")}. Read it with load_skill_resource and follow it yourself.`, error_code: "UNSUPPORTED_SCRIPT" };
    try {
      const result = await runScript({ skillName, scriptPath: found.path, language, args: scriptArguments(args), files: skillFiles(skill), context });
      return { skill_name: skillName, script_path: found.path, ...result };
    } catch (error) {
      return { error: `Failed to execute script '${found.path}': ${(error as Error).message}`, error_code: "EXECUTION_ERROR" };
    }
  }
}

const text = (description: string): JsonSchema => ({ type: "string", description });
const SKILL_NAME = text("The name of the skill.");

/** A skill tool as ADK declares it: its text arguments required, `args` optional. */
function skillTool(name: string, description: string, properties: Record<string, JsonSchema>, execute: (args: Record<string, unknown>, context: ToolContext) => unknown): Tool {
  const required = Object.keys(properties).filter((key) => key !== "args");
  return new FunctionTool({ name, description, parameters: { type: "object", properties, ...(required.length > 0 ? { required } : {}) }, execute });
}

function notFound(name: string, skills: Readonly<Record<string, Skill>>): Record<string, unknown> {
  return { error: `Skill '${name}' not found. Available skills: ${Object.keys(skills).join(", ") || "none"}.`, error_code: "SKILL_NOT_FOUND" };
}

function skillsByName(skills: readonly Skill[]): Record<string, Skill> {
  const byName: Record<string, Skill> = {};
  for (const skill of skills) {
    if (Object.hasOwn(byName, skill.frontmatter.name)) throw new ConfigurationError("INVALID_SKILL", `Two skills are named ${JSON.stringify(skill.frontmatter.name)}. Give each skill its own name.`);
    byName[skill.frontmatter.name] = skill;
  }
  return byName;
}
