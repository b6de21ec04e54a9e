import { ConfigurationError } from "../../errors/toolsmith-error.js";
import { appendInstructions, leavesContentsAlone } from "../../models/llm-request.js";
import { BaseToolset } from "../base-toolset.js";
import { FunctionTool } from "../function-tool.js";
import { isToolset, type JsonSchema, type Tool, type ToolUnion } from "../tool.js";
import type { ReadonlyContext } from "../../agents/readonly-context.js";
import { CodeExecutionLanguage, type BaseCodeExecutor } from "../code-executors/base-code-executor.js";
import type { ToolContext } from "../tool-context.js";
import { checkSkillToolsetOptions, type SkillToolsetOptions } from "./skill-toolset-options.js";
import { formatSkillsAsXml } from "./format-skills-as-xml.js";
import { scriptArguments, scriptLanguage, SCRIPT_ENDINGS, type ScriptRunner } from "./script-runner.js";
import type { Skill } from "./skill.js";
import { agentCodeExecutor, executeKeepingFiles, NO_CODE_EXECUTOR, runInlineScript, ScriptOutputFolder } from "./skill-code-execution.js";
import { findSkillResource, listResources, skillFiles } from "./skill-resource.js";
import { executorArguments, executorLanguageOf, EXECUTOR_SCRIPT_ENDINGS, skillInputFiles, wrapperCode } from "./skill-script-code.js";

export type { SkillToolsetOptions } from "./skill-toolset-options.js";


/** The state key ADK's `load_skill` records an agent's loaded skills under (so ADK's sessions read the same). */
export const activatedSkillsKey = (agentName: string): string => `_adk_activated_skill_${agentName}`;

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
 * again. `run_skill_script` runs a skill's script through the
 * {@link ScriptRunner} given, or, as in ADK, through a code executor (the
 * toolset's `codeExecutor`, else the calling agent's); it is offered only
 * when one of them can run it. `allowInlineScripts` adds
 * `run_skill_inline_script`, which runs the model's own code once a person
 * confirms it. Works in any `LlmAgent`'s tools.
 *
 * @example
 * ```ts
 * const skills = await loadAllSkillsInDir("./skills");
 * const agent = new LlmAgent({
 *   name: "assistant",
 *   model: "gemini-2.5-flash",
 *   tools: [new SkillToolset(skills, { codeExecutor: new UnsafeLocalCodeExecutor(), scriptOutputDir: "./out" })],
 * });
 * ```
 */
export class SkillToolset extends BaseToolset {
  /** The skills, by name. */
  readonly skills: Readonly<Record<string, Skill>>;
  /** The code executor given (ADK's field); when `undefined`, the calling agent's runs scripts. */
  readonly codeExecutor: BaseCodeExecutor | undefined;
  /** The folder given for scripts' output files (ADK's field); `undefined` means a private temporary one. */
  readonly scriptOutputDir: string | undefined;
  /** The tools skills may ask for (ADK's `additionalTools`). */
  readonly additionalTools: readonly ToolUnion[];

  /** `list_skills`, `load_skill` and `load_skill_resource`: always offered. */
  private readonly tools: Tool[];
  readonly #runScriptTool: Tool;
  readonly #inlineScriptTool: Tool | undefined;
  readonly #scriptRunner: ScriptRunner | undefined;
  readonly #outputFolder: ScriptOutputFolder;

  constructor(skills: Readonly<Record<string, Skill>> | readonly Skill[], options: SkillToolsetOptions = {}) {
    super([], "adk_skill_toolset");
    checkSkillToolsetOptions(options);
    this.additionalTools = [...(options.additionalTools ?? [])];
    this.codeExecutor = options.codeExecutor;
    this.scriptOutputDir = options.scriptOutputDir;
    this.#scriptRunner = options.runScript;
    this.#outputFolder = new ScriptOutputFolder(options.scriptOutputDir);
    this.skills = Array.isArray(skills) ? skillsByName(skills as readonly Skill[]) : { ...(skills as Record<string, Skill>) };
    const listed = Object.values(this.skills);
    const skillsXml = formatSkillsAsXml(listed);
    const instructions = { withScripts: [skillInstruction(true), skillsXml], withoutScripts: [skillInstruction(false), skillsXml] };
    this.tools = [
      skillTool("list_skills", "Lists all available skills with their names and descriptions.", {}, () => formatSkillsAsXml(listed)),
      Object.assign(
        skillTool("load_skill", "Loads the SKILL.md instructions for a given skill.", { name: text("The name of the skill to load.") }, (args, context) => this.loadSkill(String(args.name), context)),
        // The skills' list rides on load_skill, so it stays when the tools are wrapped (approval rules, filters).
        {
          processLlmRequest: leavesContentsAlone(({ toolContext, llmRequest }: { toolContext?: ToolContext; llmRequest: Parameters<typeof appendInstructions>[0] }) =>
            appendInstructions(llmRequest, this.#canRunScripts(agentOf(toolContext)) ? instructions.withScripts : instructions.withoutScripts)),
        },
      ),
      skillTool(
        "load_skill_resource",
        "Loads a resource file (from references/, assets/, or scripts/) from within a skill.",
        { skill_name: SKILL_NAME, path: text("The relative path to the resource (e.g., 'references/my_doc.md', 'assets/template.txt', or 'scripts/setup.sh').") },
        (args) => this.loadResource(String(args.skill_name), String(args.path)),
      ),
    ];
    this.#runScriptTool = skillTool(
      "run_skill_script",
      "Executes a script from a skill's scripts/ directory.",
      {
        skill_name: SKILL_NAME,
        script_path: text("The relative path to the script (e.g., 'scripts/setup.js')."),
        args: { type: "object", description: "Optional arguments to pass to the script as key-value pairs." },
      },
      (args, context) => this.runScript(String(args.skill_name ?? ""), String(args.script_path ?? ""), args.args as Record<string, unknown> | undefined, context),
    );
    this.#inlineScriptTool = options.allowInlineScripts
      ? Object.assign(
          skillTool(
            "run_skill_inline_script",
            "Executes an inline script provided directly in the request.",
            {
              script_content: text("The content of the script to execute."),
              language: { type: "string", description: "The language/type of the script.", enum: INLINE_LANGUAGES },
              args: { anyOf: [{ type: "object" }, { type: "array", items: { type: "string" } }], description: "Optional arguments to pass to the script as key-value pairs or an array of strings." },
            },
            (args, context) => runInlineScript({ args, context, executor: this.#executorFor(context), output: this.#outputFolder }),
          ),
          // The tool asks for its confirmation itself and must hear a "no" to answer ADK's CONFIRMATION_REJECTED.
          { runsWhenDeclined: true as const },
        )
      : undefined;
  }

  /**
   * The skill tools (the script tools only when something can run them: `runScript`, `codeExecutor`, or the
   * agent's code executor), and the additional tools the skills this agent loaded in the session ask for.
   */
  async getTools(context?: ReadonlyContext): Promise<Tool[]> {
    const agent = agentOf(context);
    const tools = [...this.tools];
    if (this.#canRunScripts(agent)) tools.push(this.#runScriptTool);
    if (this.#inlineScriptTool && (this.codeExecutor ?? agentCodeExecutor(agent))) tools.push(this.#inlineScriptTool);
    const wanted = context ? this.#wantedTools(context) : undefined;
    if (!wanted) return tools;
    const offered = new Set(tools.map((tool) => tool.name));
    for (const tool of await this.#additionalToolsByName(context!)) {
      if (wanted.has(tool.name) && !offered.has(tool.name)) {
        offered.add(tool.name);
        tools.push(tool);
      }
    }
    return tools;
  }

  /** Whether `run_skill_script` can run anything for this agent. */
  #canRunScripts(agent: unknown): boolean {
    return this.#scriptRunner !== undefined || this.codeExecutor !== undefined || agentCodeExecutor(agent) !== undefined;
  }

  /** The executor that runs scripts for this call: the toolset's, else the calling agent's. */
  #executorFor(context: ToolContext): BaseCodeExecutor | undefined {
    return this.codeExecutor ?? agentCodeExecutor(agentOf(context));
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

  /**
   * ADK's: the folder scripts' output files are written into (`scriptOutputDir`, made when missing, or the
   * toolset's private temporary folder, made on the first call).
   */
  async getScriptOutputDir(): Promise<string> {
    return (await this.#outputFolder.get()).shown;
  }

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

  /**
   * `run_skill_script`: the script found among the skill's own `scripts/` (any other path answers
   * `SCRIPT_NOT_FOUND`), run through `runScript` when given, else through the code executor with ADK's wrapper.
   */
  private async runScript(skillName: string, scriptPath: string, args: Record<string, unknown> | undefined, context: ToolContext): Promise<Record<string, unknown>> {
    if (skillName === "") return { error: "Skill name is required.", error_code: "MISSING_SKILL_NAME" };
    if (scriptPath === "") return { error: "Script path is required.", error_code: "MISSING_SCRIPT_PATH" };
    const skill = this.getSkill(skillName);
    if (!skill) return notFound(skillName, this.skills);
    const found = findSkillResource(skill, scriptPath.startsWith("scripts/") ? scriptPath : `scripts/${scriptPath}`);
    if (!found.ok || found.folder !== "scripts") {
      return { error: `Script '${scriptPath}' not found in skill '${skillName}'. Its scripts: ${listResources(skill).filter((path) => path.startsWith("scripts/")).join(", ") || "none"}.`, error_code: "SCRIPT_NOT_FOUND" };
    }
    if (this.#scriptRunner) return this.runThroughRunner(this.#scriptRunner, skillName, skill, found.path, args, context);
    const executor = this.#executorFor(context);
    if (!executor) return { ...NO_CODE_EXECUTOR };
    const language = executorLanguageOf(found.path);
    if (!language) return unsupportedScript(found.path, EXECUTOR_SCRIPT_ENDINGS);
    return executeKeepingFiles({
      executor,
      input: { code: wrapperCode(found.path, language), language, inputFiles: skillInputFiles(skill), args: executorArguments(args ?? {}) },
      context,
      output: this.#outputFolder,
      failure: `Failed to execute script '${found.path}'`,
    });
  }

  private async runThroughRunner(runScript: ScriptRunner, skillName: string, skill: Skill, scriptPath: string, args: Record<string, unknown> | undefined, context: ToolContext): Promise<Record<string, unknown>> {
    const language = scriptLanguage(scriptPath);
    if (!language) return unsupportedScript(scriptPath, SCRIPT_ENDINGS);
    try {
      const result = await runScript({ skillName, scriptPath, language, args: scriptArguments(args), files: skillFiles(skill), context });
      return { skill_name: skillName, script_path: scriptPath, ...result };
    } catch (error) {
      return { error: `Failed to execute script '${scriptPath}': ${(error as Error).message}`, error_code: "EXECUTION_ERROR" };
    }
  }
}

function unsupportedScript(scriptPath: string, endings: readonly string[]): Record<string, unknown> {
  return { error: `Script '${scriptPath}' cannot be run: skills run scripts ending in ${endings.join(", ")}. Read it with load_skill_resource and follow it yourself.`, error_code: "UNSUPPORTED_SCRIPT" };
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
