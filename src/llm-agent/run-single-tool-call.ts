import { createInvocationContext } from "../agents/invocation-context.js";
import type { LlmAgent } from "./llm-agent.js";
import { ReadonlyContext } from "../agents/readonly-context.js";
import type { ArtifactService } from "../artifacts/artifact-service.js";
import type { CredentialService } from "../auth/credential-service.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { FunctionResponse } from "../content/content.js";
import { createEvent, type Event } from "../events/event.js";
import { newId } from "../events/new-id.js";
import type { MemoryService } from "../memory/memory-service.js";
import type { Session } from "../sessions/session.js";
import type { SessionService } from "../sessions/session-service.js";
import { resolveTools } from "../tools/resolve-tools.js";
import { executeFunctionCalls } from "./execute-function-calls.js";

/** Options of {@link runSingleToolCall}. */
export interface RunSingleToolCallRequest {
  /** The agent whose tool runs; its toolsets are resolved against the session. */
  agent: LlmAgent;
  /** The session the call runs on; it is updated in place as the events are stored. */
  session: Session;
  sessionService: SessionService;
  artifactService?: ArtifactService;
  memoryService?: MemoryService;
  credentialService?: CredentialService;
  toolName: string;
  args: Record<string, unknown>;
  abortSignal?: AbortSignal;
}

/** What one direct tool call produced. */
export interface SingleToolCallResult {
  /** The tool's response, or an error result the model would have read. */
  response: Record<string, unknown>;
  stateDelta: Record<string, unknown>;
  artifactDelta: Record<string, number>;
  /** The stored events: the call, then its response. */
  events: Event[];
}

/**
 * Runs one tool call by hand, as a person would from a playground or the
 * command line: through the same path the runner uses (argument checks,
 * callbacks, state and artifact recording), on a real session, storing the
 * call and its response as events. The person calling is the one who would be
 * asked, so a tool that needs confirmation runs as confirmed.
 */
export async function runSingleToolCall(request: RunSingleToolCallRequest): Promise<SingleToolCallResult> {
  const { agent, session } = request;
  const context = createInvocationContext({
    agent,
    session,
    sessionService: request.sessionService,
    artifactService: request.artifactService,
    memoryService: request.memoryService,
    credentialService: request.credentialService,
    // The call itself makes no model call; an agent tool's agent does, under the usual limit.
    abortSignal: request.abortSignal,
  });
  const tools = await resolveTools(agent.tools, new ReadonlyContext(context), agent.name);
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  if (!toolsByName.has(request.toolName)) {
    throw new ConfigurationError(
      "UNKNOWN_TOOL",
      `Agent "${agent.name}" has no tool "${request.toolName}". Its tools: ${[...toolsByName.keys()].join(", ") || "none"}.`,
    );
  }
  const call = { id: newId("call-"), name: request.toolName, args: request.args };
  const callEvent = createEvent({ invocationId: context.invocationId, author: agent.name, content: { role: "model", parts: [{ functionCall: call }] } });
  const stored: Event[] = [await request.sessionService.appendEvent({ session, event: callEvent })];
  const answers = new Map([[call.id, { confirmation: { confirmed: true, hint: "Called by hand." } }]]);
  // Events a tool streams while it runs (an agent tool's) are stored as the runner would store them.
  const emit = async (event: Event) => {
    if (!event.partial) stored.push(await request.sessionService.appendEvent({ session, event }));
  };
  const result = await executeFunctionCalls(agent, context, [call], toolsByName, { answers, emit });
  const responseEvent = result?.responseEvent;
  // Then the response, and the request to the client when the call waits for one (a credential).
  for (const event of [responseEvent, result?.clientRequest]) if (event) stored.push(await request.sessionService.appendEvent({ session, event }));
  const response: FunctionResponse | undefined = responseEvent?.content?.parts?.find((part) => part.functionResponse?.id === call.id)?.functionResponse;
  return {
    response: response?.response ?? { status: "error", error: "The call was cancelled before it finished." },
    stateDelta: { ...responseEvent?.actions.stateDelta },
    artifactDelta: { ...responseEvent?.actions.artifactDelta },
    events: stored,
  };
}
