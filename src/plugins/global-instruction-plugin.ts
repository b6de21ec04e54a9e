import { leavesContentsAlone } from "../models/llm-request.js";
import type { Context } from "../agents/context.js";
import { injectState } from "../agents/inject-state.js";
import { ReadonlyContext } from "../agents/readonly-context.js";
import type { LlmRequest } from "../models/llm-request.js";
import { BasePlugin } from "./base-plugin.js";

/**
 * ADK's global instruction: one instruction put before every agent's own, for
 * every model call of the runner (ADK 2's replacement for `globalInstruction`
 * on the root agent). A string has `{key}` filled from state; a function of
 * the read-only context is used as it returns.
 */
export class GlobalInstructionPlugin extends BasePlugin {
  // Its beforeModelCallback changes no content of the request in place: a request only it sees is not copied.
  static {
    leavesContentsAlone(GlobalInstructionPlugin.prototype.beforeModelCallback);
  }

  /** Nothing is added when it is left out or empty, as in ADK. */
  readonly globalInstruction: string | ((context: ReadonlyContext) => string | Promise<string>) | undefined;

  constructor(globalInstruction?: string | ((context: ReadonlyContext) => string | Promise<string>), name = "global_instruction") {
    super(name);
    this.globalInstruction = globalInstruction;
  }

  override async beforeModelCallback({ callbackContext, llmRequest }: { callbackContext: Context; llmRequest: LlmRequest }): Promise<undefined> {
    if (!this.globalInstruction) return undefined;
    const readonlyContext = new ReadonlyContext(callbackContext.invocationContext);
    const instruction = typeof this.globalInstruction === "string" ? await injectState(this.globalInstruction, readonlyContext) : await this.globalInstruction(readonlyContext);
    if (!instruction) return undefined;
    llmRequest.systemInstruction = llmRequest.systemInstruction ? `${instruction}\n\n${llmRequest.systemInstruction}` : instruction;
    return undefined;
  }
}
