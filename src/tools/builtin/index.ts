/**
 * Built-in tools and deep agents: filesystem tools over pluggable backends,
 * todos, shell execution (optionally sandboxed with bubblewrap), memory and
 * artifact tools, sub-agent delegation, skills (ADK 2's `SkillToolset`), and
 * `createDeepAgent` tying them together. Kept out of the root entry because it brings child
 * processes and, when installed, ripgrep.
 *
 * @module toolsmith/tools
 */

// Deep agents
export { createDeepAgent, type DeepAgentOptions, type DeepAgentExecution, type McpExecutionServer } from "../../deep-agent/create-deep-agent.js";
export { createSubAgentTools, createTaskTool, GENERAL_PURPOSE, TASK_GENERAL_PURPOSE, type SubAgentSpec, type TaskToolOptions } from "./task-tool.js";

// Skills (ADK 2's skill toolset)
export { SkillToolset, type SkillToolsetOptions } from "../skills/skill-toolset.js";
export { RunSkillInlineScriptErrorCode } from "../skills/run-skill-inline-script-error-code.js";
export { loadAllSkillsInDir, loadAllSkillsInDirSync, loadSkillFromDir, loadSkillFromDirSync, validateSkillDir } from "../skills/load-skill-dir.js";
export { loadSkillFromZipBuffer, type ZipSkillOptions } from "../skills/load-skill-zip.js";
export { loadSkillSources, type SkillSource } from "../skills/load-skills.js";
export { parseSkillMdContent } from "../skills/parse-skill-md.js";
export { formatSkillsAsXml } from "../skills/format-skills-as-xml.js";
export { SKILL_LIMITS, SKILL_NAME_PATTERN, type Frontmatter, type Resources, type Script, type Skill } from "../skills/skill.js";
export type { ScriptLanguage, ScriptRunner, ScriptRunRequest } from "../skills/script-runner.js";
export { createShellScriptRunner } from "./shell/shell-script-runner.js";

// Backends
export {
  BackendError,
  type Backend,
  type BackendContext,
  type BackendErrorCode,
  type FileEntry,
  type PathRequest,
  type ReadLinesRequest,
  type ReadLinesResult,
  type WriteRequest,
} from "./filesystem/backend.js";
export { StateBackend, StoreBackend, storeBackend, type StateBackendOptions } from "./filesystem/state-backend.js";
export { FilesystemBackend, type FilesystemBackendOptions } from "./filesystem/filesystem-backend.js";
export { CompositeBackend, type CompositeBackendOptions } from "./filesystem/composite-backend.js";
export { normalizeAgentPath } from "./filesystem/agent-path.js";

// Filesystem tools
export { createFilesystemTools, type FilesystemToolsOptions } from "./filesystem/filesystem-tools.js";
export { createLsTool } from "./filesystem/ls-tool.js";
export { createReadFileTool } from "./filesystem/read-file-tool.js";
export { createWriteFileTool } from "./filesystem/write-file-tool.js";
export { createEditFileTool } from "./filesystem/edit-file-tool.js";
export { createGlobTool } from "./filesystem/glob-tool.js";
export { createGrepTool, GREP_MAX_OUTPUT_CHARS } from "./filesystem/grep-tool.js";
export { grepSearch, type GrepSearchRequest, type GrepFileResult, type GrepOutputMode } from "./filesystem/grep-search.js";
export { globFiles, type GlobFilesRequest } from "./filesystem/glob-files.js";
export { findRipgrep, type RipgrepSetting } from "./filesystem/ripgrep-binary.js";

// Other tools
export { createTodoTools, createWriteTodosTool, createReadTodosTool, TODOS_STATE_KEY, type Todo } from "./todo-tools.js";
export { createExecuteTool, type ExecuteToolOptions } from "./shell/execute-tool.js";
export { checkBubblewrap, type SandboxCheck } from "./shell/bubblewrap.js";
export type { SandboxLimits } from "./shell/sandbox-limits.js";
export { SandboxedCodeExecutor, type SandboxedCodeExecutorOptions } from "./shell/sandboxed-code-executor.js";
export { SandboxedEnvironment, type SandboxedEnvironmentOptions } from "./shell/sandboxed-environment.js";
export { offloadLargeResults, type LargeResultOptions } from "./large-results.js";
export { applyInterruptOn, applyInterruptOnToAll, type InterruptOn } from "./interrupt-on.js";
export { createLoadMemoryTool, createPreloadMemoryTool } from "./memory-tools.js";
export { createLoadArtifactsTool } from "./load-artifacts-tool.js";
export { exitLoop } from "../exit-loop-tool.js";

// WebAssembly execution (execute_python, execute_bash, install_packages); pyodide and just-bash load at first use
export { createWasmExecution, type WasmExecution, type WasmExecutionOptions } from "./wasm/wasm-execution.js";
export { WasmCodeExecutor, type WasmCodeExecutorOptions } from "./wasm/wasm-code-executor.js";
