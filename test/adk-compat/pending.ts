/**
 * Programs that cannot run on toolsmith yet, each with the ADK features toolsmith
 * lacks (measured by running them: see the report of issue 14). Their run is an
 * `it.todo` naming the features, and their toolsmith.ts is left out of
 * tsconfig.json's type check (a test keeps the two lists equal). Remove an entry
 * once the features land and the program passes.
 *
 * Every program needs ADK's identity instruction: ADK starts each agent's system
 * instruction with `You are an agent. Your internal name is "<name>".` and, when
 * the agent has a description, `The description about you is "<description>"`.
 */
const IDENTITY = "ADK's identity instruction (agent name and description before the system instruction)";

export const PENDING: Readonly<Record<string, string>> = {
  "01-function-tool-zod": `${IDENTITY}; stringifyContent`,
  "02-callback-basic": `${IDENTITY}; callbacks typed with Context, LlmRequest, LlmResponse`,
  "03-before-agent-callback": `${IDENTITY}; beforeAgentCallback(context) returning Content skips the agent; util.inspect of State as ADK prints it`,
  "04-after-agent-callback": `${IDENTITY}; afterAgentCallback(context) returning Content replaces the output`,
  "05-before-model-callback": "beforeModelCallback({context, request}) with request.config.systemInstruction (genai-shaped LlmRequest)",
  "06-after-model-callback": `${IDENTITY}; afterModelCallback({context, response})`,
  "07-before-tool-callback": `${IDENTITY}; beforeToolCallback({tool, args, context}) with BaseTool`,
  "08-after-tool-callback": `${IDENTITY}; afterToolCallback({tool, args, context, response}) with BaseTool`,
  "09-output-schema-capital": `${IDENTITY}; outputSchema (genai Schema) with outputKey storing the parsed object`,
  "10-sequential-code-pipeline": `${IDENTITY}; {key} instruction templating`,
  "11-parallel-web-research": `${IDENTITY}; GOOGLE_SEARCH built-in tool`,
  "12-loop-exit-tool": `${IDENTITY}; includeContents 'none'; {{key}} templating; FunctionTool execute(input, context) with context.actions.escalate`,
  "13-custom-agent-storyflow": `${IDENTITY}; BaseAgent with runAsyncImpl(ctx: InvocationContext)`,
  "14-agent-as-tool": `${IDENTITY}; AgentTool's declaration as ADK makes it (request without description)`,
  "15-long-running-tool": `${IDENTITY}; stringifyContent; LongRunningFunctionTool as ADK runs it`,
  "16-confirmation-boolean": `${IDENTITY}; toolContext.requestConfirmation as ADK stores it (no paused function response event)`,
  "17-confirmation-advanced": `${IDENTITY}; toolContext.requestConfirmation as ADK stores it (no paused function response event)`,
  "18-memory-load": `${IDENTITY}; LOAD_MEMORY tool`,
  "19-get-started-multi-tool": `${IDENTITY}`,
  "20-sample-agent-with-tool": `${IDENTITY}`,
  "21-sample-loop-agent": `${IDENTITY}; a FunctionTool without parameters and returning undefined answered as ADK does`,
  "22-sample-parallel-agent": `${IDENTITY}; GOOGLE_SEARCH built-in tool`,
  "23-sample-sequential-agent": `${IDENTITY}`,
  "24-sample-agent-as-tool": `${IDENTITY}; AgentTool's declaration as ADK makes it (request without description)`,
  "25-sample-google-search-agent": `${IDENTITY}; GOOGLE_SEARCH built-in tool`,
};
