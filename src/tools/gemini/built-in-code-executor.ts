import { leavesContentsAlone } from "../../models/llm-request.js";
import type { LlmRequest } from "../../models/llm-request.js";
import { GeminiBuiltInTool } from "./gemini-built-in-tool.js";
import { brandAsCodeExecutor } from "../code-executors/base-code-executor.js";

/**
 * Gemini's code execution: the model writes Python, Gemini runs it in its
 * sandbox and answers with the result. The answer's content carries the code
 * (`executableCode` parts) and what it printed (`codeExecutionResult` parts).
 * Pass it as an agent's `codeExecutor`, as in ADK; it changes the request the
 * way a tool does. Gemini models only; with another provider the first model
 * call ends in a `GEMINI_TOOL_UNSUPPORTED` error.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({ name: "calculator", model: "gemini-2.5-flash", codeExecutor: new BuiltInCodeExecutor() });
 * ```
 */
export class BuiltInCodeExecutor extends GeminiBuiltInTool {
  // Its processLlmRequest changes no content of the request in place: a request only it sees is not copied.
  static {
    leavesContentsAlone(BuiltInCodeExecutor.prototype.processLlmRequest);
  }

  constructor() {
    super({ name: "code_execution", description: "Gemini's built-in code execution", key: "codeExecution" });
    // A code executor as ADK's is (isBaseCodeExecutor, instanceof BaseCodeExecutor), though it extends a tool.
    brandAsCodeExecutor(this);
  }

  /** Adds code execution to the request: given `{ llmRequest }` as a tool is, or the request itself as ADK's code executor is. */
  override processLlmRequest(given: { llmRequest: LlmRequest } | LlmRequest): void {
    super.processLlmRequest("llmRequest" in given ? given : { llmRequest: given });
  }
}
