import { ConfigurationError } from "../errors/toolsmith-error.js";
import { LlmAgent, type InstructionProvider } from "../llm-agent/llm-agent.js";
import type { Model } from "../models/model.js";
import { isToolset, type Tool, type Toolset, type ToolUnion } from "../tools/tool.js";
import { mapToolUnions } from "../tools/toolset-wrappers.js";
import { loadSkillSources, type SkillSource } from "../tools/skills/load-skills.js";
import { SkillToolset } from "../tools/skills/skill-toolset.js";
import { createShellScriptRunner } from "../tools/builtin/shell/shell-script-runner.js";
import type { Backend } from "../tools/builtin/filesystem/backend.js";
import { createFilesystemTools } from "../tools/builtin/filesystem/filesystem-tools.js";
import type { RipgrepSetting } from "../tools/builtin/filesystem/ripgrep-binary.js";
import { StateBackend } from "../tools/builtin/filesystem/state-backend.js";
import { askingTool, type InterruptOn } from "../tools/builtin/interrupt-on.js";
import { offloadLargeResults } from "../tools/builtin/large-results.js";
import { createExecuteTool, type ExecuteToolOptions } from "../tools/builtin/shell/execute-tool.js";
import { createWasmExecution, type WasmExecution, type WasmExecutionOptions } from "../tools/builtin/wasm/wasm-execution.js";
import { loadOptionalPeer } from "../platform/load-optional-peer.js";
import type { McpHeaders } from "../mcp/mcp-connection.js";
import { createSubAgentTools, createTaskTool, type SubAgentSpec, type TaskToolOptions } from "../tools/builtin/task-tool.js";
import type { Agent } from "../agents/agent.js";
import { createTodoTools } from "../tools/builtin/todo-tools.js";
import type { BaseContextCompactor } from "../llm-agent/compaction/token-based-context-compactor.js";
import { refuseUnhonouredOptions } from "../errors/unhonoured-option.js";

/** An MCP server that runs code, started as a command (stdio) or reached at a URL; see {@link DeepAgentOptions.execution}. */
export type McpExecutionServer =
  | { command: string; args?: readonly string[]; env?: Record<string, string>; cwd?: string }
  | { url: string; type?: "http" | "sse"; headers?: McpHeaders };

/** What {@link DeepAgentOptions.execution} accepts. */
export type DeepAgentExecution = "local" | "sandbox" | "wasm" | boolean | Omit<ExecuteToolOptions, "backend"> | { wasm: Omit<WasmExecutionOptions, "backend"> } | McpExecutionServer;

/** What {@link createDeepAgent} takes. */
const DEEP_AGENT_OPTIONS = ["name", "description", "model", "instruction", "tools", "subagents", "taskTool", "backend", "execution", "interruptOn", "skills", "largeResultChars", "maxSubagentDepth", "ripgrep", "contextCompactors"] as const;

/** Options of {@link createDeepAgent}. */
export interface DeepAgentOptions {
  /** Default `"deep_agent"`. */
  name?: string;
  description?: string;
  model: Model | string;
  /** Your instruction; the deep agent's own guidance on planning, files and sub-agents follows it. */
  instruction?: string | InstructionProvider;
  /** Your tools, added to the built-in ones. */
  tools?: readonly ToolUnion[];
  /**
   * Specialists the agent can hand work to, specs or agents made already. As seed 002 has it, each becomes an
   * agent tool named after it, taking `request`, and `general_purpose` (with the main agent's tools) is added
   * unless you define one named so.
   */
  subagents?: ReadonlyArray<SubAgentSpec | Agent>;
  /**
   * Offer the sub-agents through one `task(description, subagent_type)` tool instead, as LangChain's deepagents
   * does (the general one is then `general-purpose`). Default false.
   */
  taskTool?: boolean;
  /** Where the files live; default a {@link StateBackend} (files in session state). */
  backend?: Backend;
  /**
   * How the agent runs code; none by default.
   * - `"local"` (or `true`): the `execute` tool, running shell commands on the host in the backend's directory
   *   (a `FilesystemBackend`; another backend is refused when the agent is made). No isolation. Its result is
   *   seed 002's `{status, output, exit_code, truncated}`, with a 120 s limit and 100,000 bytes of output.
   * - `"sandbox"`: the same `execute` tool under bubblewrap (Linux): only the workspace is writable, no network.
   *   An options object (`{ sandbox: true, limits, timeoutMs, … }`) sets its limits.
   * - `"wasm"`: `execute_python` (Pyodide in a worker thread), `execute_bash` (just-bash) and `install_packages`,
   *   over the backend's files (any backend), the same on every OS; `{ wasm: { timeoutMs, memoryBytes, … } }`
   *   sets its limits. Needs the optional packages `pyodide` and `just-bash`.
   * - An MCP server, `{ command, args, env }` (stdio) or `{ url }` (Streamable HTTP; `type: "sse"` for SSE), such
   *   as Heimdall: its tools are offered to the agent. Needs `@modelcontextprotocol/sdk`. The server keeps its own
   *   files: point it at the backend's folder (Heimdall's `HEIMDALL_WORKSPACE`) for both to see the same ones.
   */
  execution?: DeepAgentExecution;
  /** Tool name → ask a person first, such as `{ write_file: true, execute: true }`. */
  interruptOn?: InterruptOn;
  /**
   * Skills the agent loads on demand: skill folders, folders of skill folders,
   * `.zip` files, or skills loaded already. Each is checked when the agent is
   * made; the model sees their names and descriptions and has ADK's skill
   * tools. With `execution` `"local"`, `"sandbox"` or an options object,
   * `run_skill_script` runs their scripts the way `execute` runs commands (in
   * the sandbox when there is one); with `"wasm"` it runs Python scripts in
   * the WebAssembly sandbox; with an MCP server it is not offered, so a script
   * never runs on the host.
   */
  skills?: readonly SkillSource[];
  /** Tool results longer than this many characters are saved to the backend and previewed; default 40,000; `false` keeps them whole. */
  largeResultChars?: number | false;
  /** How deep sub-agents may nest; default 2. */
  maxSubagentDepth?: number;
  /** How grep and glob find ripgrep; default `"auto"`. */
  ripgrep?: RipgrepSetting;
  /**
   * Keeps a long run within the model's context, as on {@link LlmAgent}: such as
   * `[new TokenBasedContextCompactor({ tokenThreshold: 200_000, eventRetentionSize: 20 })]`, which summarises
   * older turns with the agent's model. Results already saved to files stay there: the summary keeps their paths.
   */
  contextCompactors?: readonly BaseContextCompactor[];
}

const DEEP_AGENT_GUIDANCE = `## Planning
For work with several steps, keep a plan with write_todos: one item in_progress at a time, mark items completed as soon as they are done. read_todos shows the plan.

## Files
You have a filesystem; paths are absolute, such as /notes/plan.md. Use ls, glob and grep to find files, read_file to read them (in pages, with offset and limit), write_file to create a file and edit_file to change one. Save long material to files instead of keeping it in the conversation. A tool result too large to show is saved to a file you can read the same way.

## Sub-agents
`;

/** The guidance on sub-agents, for the way they are offered. */
function subagentGuidance(taskTool: boolean): string {
  const how = taskTool ? "The task tool hands" : "Your sub-agent tools (general_purpose and the specialists) each hand";
  const parallel = taskTool ? "Call task several times" : "Call several";
  return `${how} a self-contained piece of work to a sub-agent that sees none of this conversation and returns only its final report. Give it the full task as its request. ${parallel} in one response to work in parallel. Do small tasks yourself.`;
}

/**
 * An agent ready for long, multi-step work, in the manner of adk-deepagents:
 * a todo list, filesystem tools over a backend, optional shell execution,
 * sub-agents behind a `task` tool, large results saved to files, and
 * confirmation before the tools you name.
 *
 * @example
 * ```ts
 * const agent = createDeepAgent({
 *   model: "gemini-2.5-flash",
 *   instruction: "You are a careful research assistant.",
 *   backend: new FilesystemBackend({ rootDirectory: "./workspace" }),
 *   execution: { sandbox: true },
 *   subagents: [{ name: "critic", description: "Reviews a draft.", systemPrompt: "Critique the draft in /draft.md." }],
 *   interruptOn: { execute: true },
 * });
 * ```
 */
export function createDeepAgent(options: DeepAgentOptions): LlmAgent {
  // A misspelt interruptOn or execution would leave commands unapproved or unsandboxed: refused by name instead.
  refuseUnhonouredOptions("createDeepAgent", options, DEEP_AGENT_OPTIONS);
  const backend = options.backend ?? new StateBackend();
  const ripgrep = options.ripgrep;
  const builtins: Tool[] = [...createTodoTools(), ...createFilesystemTools({ backend, ripgrep })];
  const execution = options.execution ? executionTools(options.execution, backend) : undefined;
  if (execution && !isToolset(execution)) builtins.push(execution);
  // Skills' scripts run the way the agent runs code: as execute runs commands (in the sandbox when there is one),
  // or in the WebAssembly sandbox. An MCP server offers no way to run a skill's files, so run_skill_script is not
  // offered there: a script never runs on the host instead.
  const shell = options.execution ? shellExecution(options.execution, backend) : undefined;
  const runScript = shell ? createShellScriptRunner(shell) : execution && isWasmExecution(execution) ? execution.runScript : undefined;
  const prepare = (tool: Tool): Tool => {
    // Tools that bound their own output give the model what seed 002 says they give; the others are offloaded.
    const offloaded = options.largeResultChars === false || SELF_LIMITED_TOOLS.has(tool.name) ? tool : offloadLargeResults(tool, { backend, maxChars: options.largeResultChars });
    return askingTool(offloaded, options.interruptOn);
  };
  const executionToolsets = execution && isToolset(execution) ? mapToolUnions([execution], prepare) : [];
  const defaultTools: ToolUnion[] = [...builtins.map(prepare), ...executionToolsets];
  const skills = options.skills?.length ? [new SkillToolset(loadSkillSources(options.skills), { runScript })] : [];
  const userTools = mapToolUnions([...(options.tools ?? []), ...skills], prepare);
  // The general-purpose sub-agent gets the main agent's tools, task included; the list is completed below.
  const mainTools: ToolUnion[] = [];
  const subagentOptions: TaskToolOptions = {
    subagents: (options.subagents ?? []).map((entry) => (isSubAgentSpec(entry) ? { ...entry, tools: entry.tools && mapToolUnions(entry.tools, prepare) } : entry)),
    model: options.model,
    defaultTools,
    generalPurposeTools: [{ getTools: async () => mainTools.flatMap((entry) => (isToolset(entry) ? [] : [entry])), close: async () => undefined }, ...executionToolsets, ...userTools.filter(isToolset)],
    maxDepth: options.maxSubagentDepth,
    runScript,
    prepareTool: prepare,
  };
  const subagentTools = options.taskTool ? [createTaskTool(subagentOptions)] : createSubAgentTools(subagentOptions);
  mainTools.push(...defaultTools, ...userTools, ...subagentTools.map(prepare));
  const guidance = DEEP_AGENT_GUIDANCE + subagentGuidance(options.taskTool === true);
  const instruction = options.instruction;
  return new LlmAgent({
    name: options.name ?? "deep_agent",
    description: options.description,
    model: options.model,
    instruction:
      typeof instruction === "function"
        ? async (context) => `${await instruction(context)}\n\n${guidance}`
        : instruction
          ? `${instruction}\n\n${guidance}`
          : guidance,
    tools: mainTools,
    contextCompactors: options.contextCompactors,
  });
}

/** Built-in tools that cap their own output (read_file pages, grep cuts at 80,000 characters, the execution tools at 100,000 bytes). */
const SELF_LIMITED_TOOLS = new Set(["read_file", "grep", "execute", "execute_python", "execute_bash"]);

/** The tool or toolset a deep agent's `execution` asks for. */
function executionTools(execution: DeepAgentExecution, backend: Backend): Tool | Toolset {
  const shell = shellExecution(execution, backend);
  if (shell) return createExecuteTool(shell);
  if (execution === "wasm") return createWasmExecution({ backend });
  if (typeof execution !== "object") {
    throw new ConfigurationError(
      "UNSUPPORTED_OPTION",
      `execution ${JSON.stringify(execution)} is not supported: use "local" (commands on the host, in the backend's directory), "sandbox" (the same under bubblewrap), "wasm" (Python and bash in WebAssembly), or an MCP server as { command, args } or { url }.`,
    );
  }
  if ("wasm" in execution) return createWasmExecution({ ...execution.wasm, backend });
  return mcpExecution(execution as McpExecutionServer);
}

function isWasmExecution(execution: Tool | Toolset): execution is WasmExecution {
  return typeof (execution as Partial<WasmExecution>).runScript === "function";
}

/** The `execute` tool's options when `execution` runs shell commands where the agent runs (`"local"`, `"sandbox"`, an options object); otherwise undefined. */
function shellExecution(execution: DeepAgentExecution, backend: Backend): ExecuteToolOptions | undefined {
  if (execution === true || execution === "local") return { backend };
  if (execution === "sandbox") return { backend, sandbox: true };
  if (typeof execution !== "object" || "wasm" in execution || "command" in execution || "url" in execution) return undefined;
  return { ...execution, backend };
}

/**
 * An MCP execution server as a toolset. The MCP client is loaded at the first
 * call, so a deep agent without one never needs `@modelcontextprotocol/sdk`.
 */
function mcpExecution(server: McpExecutionServer): Toolset {
  const connection = "url" in server ? { type: server.type ?? ("http" as const), url: server.url, headers: server.headers } : { command: server.command, args: server.args, env: server.env, cwd: server.cwd, stderr: "ignore" as const };
  let toolset: Promise<Toolset> | undefined;
  const open = () =>
    (toolset ??= loadOptionalPeer({ load: () => import("../mcp/mcp-toolset.js"), packageName: "@modelcontextprotocol/sdk", neededFor: "execution through an MCP server" }).then(
      ({ MCPToolset }) => new MCPToolset({ connection }),
    ));
  return {
    getTools: async (context) => (await open()).getTools(context),
    close: async () => {
      const opened = toolset;
      toolset = undefined;
      if (opened) await (await opened).close();
    },
  };
}

function isSubAgentSpec(entry: SubAgentSpec | Agent): entry is SubAgentSpec {
  return typeof (entry as Agent).runAsync !== "function";
}
