import { leavesContentsAlone } from "../models/llm-request.js";
import type { Context } from "../agents/context.js";
import type { Content } from "../content/content.js";
import { appendInstructions } from "../models/llm-request.js";
import { BaseTool, type RunAsyncToolRequest, type ToolProcessLlmRequest } from "./base-tool.js";

/** The text of a memory's content, its text parts joined by a space (as ADK reads memories). */
function memoryText(content: Content): string {
  return (content.parts ?? []).map((part) => part.text ?? "").join(" ");
}

/**
 * ADK's `load_memory`: the model searches the user's long-term memory with a
 * query and gets `{memories: [{content, author, timestamp}]}`. While a memory
 * service is configured, it also tells the model it has memory, in ADK's words.
 */
export class LoadMemoryTool extends BaseTool {
  // Its processLlmRequest changes no content of the request in place: a request only it sees is not copied.
  static {
    leavesContentsAlone(LoadMemoryTool.prototype.processLlmRequest);
  }

  constructor() {
    super({ name: "load_memory", description: "Loads the memory for the current user.\n\nNOTE: Currently this tool only uses text part from the memory." });
  }

  override _getDeclaration() {
    return {
      name: this.name,
      description: this.description,
      parameters: { type: "OBJECT", properties: { query: { type: "STRING", description: "The query to load the memory for." } }, required: ["query"] },
    };
  }

  async runAsync({ args, toolContext }: RunAsyncToolRequest): Promise<unknown> {
    const { memories } = await toolContext.searchMemory(String(args.query));
    return { memories: memories.map((memory) => ({ content: memoryText(memory.content), author: memory.author, timestamp: memory.timestamp })) };
  }

  override async processLlmRequest({ toolContext, llmRequest }: ToolProcessLlmRequest): Promise<void> {
    if (!toolContext.invocationContext.memoryService) return;
    appendInstructions(llmRequest, ["You have memory. You can use it to answer questions. If any questions need\nyou to look up the memory, you should call load_memory function with a query."]);
  }
}

/**
 * ADK's `preload_memory`: never called by the model; before each model call
 * it searches memory with the user's message and adds what it finds to the
 * instruction, in ADK's words. Without a memory service it adds nothing.
 */
export class PreloadMemoryTool extends BaseTool {
  // Its processLlmRequest changes no content of the request in place: a request only it sees is not copied.
  static {
    leavesContentsAlone(PreloadMemoryTool.prototype.processLlmRequest);
  }

  constructor() {
    super({ name: "preload_memory", description: "preload_memory" });
  }

  async runAsync(): Promise<unknown> {
    throw new Error("PreloadMemoryTool should not be called by model");
  }

  override async processLlmRequest({ toolContext, llmRequest }: ToolProcessLlmRequest): Promise<void> {
    const query = toolContext.userContent?.parts?.[0]?.text;
    if (!query || !toolContext.invocationContext.memoryService) return;
    let memories;
    try {
      ({ memories } = await toolContext.searchMemory(query));
    } catch {
      return;
    }
    const lines: string[] = [];
    for (const memory of memories) {
      if (memory.timestamp) lines.push(`Time: ${memory.timestamp}`);
      const text = memoryText(memory.content);
      if (text) lines.push(memory.author ? `${memory.author}: ${text}` : text);
    }
    if (lines.length === 0) return;
    appendInstructions(llmRequest, [
      `The following content is from your previous conversations with the user.\nThey may be useful for answering the user's current query.\n<PAST_CONVERSATIONS>\n${lines.join("\n")}\n</PAST_CONVERSATIONS>\n`,
    ]);
  }
}

/**
 * ADK's `exit_loop`: ends the enclosing `LoopAgent`. The call escalates and
 * its response is the last of the turn (no model call follows it).
 */
export class ExitLoopTool extends BaseTool {
  constructor() {
    super({ name: "exit_loop", description: "Exits the loop.\n\nCall this function only when you are instructed to do so." });
  }

  override _getDeclaration() {
    return { name: this.name, description: this.description };
  }

  async runAsync({ toolContext }: { args: Record<string, unknown>; toolContext: Context }): Promise<unknown> {
    toolContext.actions.escalate = true;
    toolContext.actions.skipSummarization = true;
    return "";
  }
}

/** ADK's instance of {@link LoadMemoryTool}. */
export const LOAD_MEMORY = new LoadMemoryTool();
/** ADK's instance of {@link PreloadMemoryTool}. */
export const PRELOAD_MEMORY = new PreloadMemoryTool();
/** ADK's instance of {@link ExitLoopTool}. */
export const EXIT_LOOP = new ExitLoopTool();
