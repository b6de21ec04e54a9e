import { FunctionTool } from "./function-tool.js";

/** The tool's name, as ADK's. */
export const CONSOLIDATE_CONTEXT_TOOL_NAME = "consolidate_context";
/** The state key the tool sets to `true` for the coming model call (`temp:`: it lasts for the invocation), as ADK's. */
export const CONSOLIDATE_CONTEXT_STATE_KEY = "temp:consolidate_context";
/** The state key holding what the model asked the summary to focus on, as ADK's. */
export const CONSOLIDATE_CONTEXT_DETAIL_STATE_KEY = "temp:consolidate_context_detail";

const PARAMETERS = {
  type: "object",
  properties: {
    detail: {
      type: "string",
      description: "Optional description of what has been accomplished so far. This detail will be used to guide the summarization of the history.",
    },
  },
} as const;

/**
 * ADK 2's `consolidate_context` tool: the model asks for its history to be summarised once a subtask is done,
 * optionally saying what to focus on. The call only records the request in the state; an
 * `AgentControlledContextCompactor` among the agent's `contextCompactors` summarises the history before the
 * agent's next model call. Its name, description, parameter and result are ADK's.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({
 *   name: "worker",
 *   model: "gemini-2.5-flash",
 *   tools: [new ConsolidateContextTool()],
 *   contextCompactors: [new AgentControlledContextCompactor()],
 * });
 * ```
 */
export class ConsolidateContextTool extends FunctionTool<typeof PARAMETERS> {
  constructor() {
    super({
      name: CONSOLIDATE_CONTEXT_TOOL_NAME,
      description: "Requests context consolidation (compaction) to manage history size. Use this when a subtask is complete and you want to summarize progress and clear detailed history.",
      parameters: PARAMETERS,
      execute: ({ detail }, context) => {
        context.state.set(CONSOLIDATE_CONTEXT_STATE_KEY, true);
        if (detail !== undefined) context.state.set(CONSOLIDATE_CONTEXT_DETAIL_STATE_KEY, detail);
        return { status: "success", message: "Context consolidation requested." };
      },
    });
  }
}
