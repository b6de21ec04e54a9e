import type { InvocationContext } from "../agents/invocation-context.js";
import { injectState, type ArtifactLoader } from "../agents/inject-state.js";
import type { LlmAgentSettings } from "./llm-agent-settings.js";
import { ReadonlyContext } from "../agents/readonly-context.js";
import { CallbackContext } from "../agents/callback-context.js";
import { appendInstructions, createLlmRequest, type LlmRequest } from "../models/llm-request.js";
import type { Model } from "../models/model.js";
import { resolveTools } from "../tools/resolve-tools.js";
import type { Tool } from "../tools/tool.js";
import type { Event } from "../events/event.js";
import { BaseToolset } from "../tools/base-toolset.js";
import { ToolContext } from "../tools/tool-context.js";
import { transferToolFor } from "./transfer-to-agent-tool.js";
import { buildContents } from "./build-contents.js";

/** A model call being prepared: what goes to the model, and the runnable tools behind its declarations. */
export interface PreparedRequest {
  request: LlmRequest;
  /** The tools the model may call in its answer, by name; the model itself sees only their declarations. */
  toolsByName: ReadonlyMap<string, Tool>;
}

/**
 * The request for this agent's next model call: history, instruction (with
 * state filled in), and the tools resolved afresh, each given the chance to
 * change the request.
 */
export async function buildLlmRequest(agent: LlmAgentSettings, context: InvocationContext, model: Model): Promise<PreparedRequest> {
  const readonlyContext = new ReadonlyContext(context);
  const history = agent.includeContents === "none" ? currentTurn(context.session.events) : context.session.events;
  const request = createLlmRequest({ model: model.name, contents: buildContents(history, agent.name, context), config: agent.generateContentConfig });
  if (agent.outputSchema) Object.assign(request.config, { responseMimeType: "application/json", responseJsonSchema: agent.outputSchema });
  appendInstructions(request, identityInstructions(agent));
  if (typeof agent.instruction === "string") appendInstructions(request, [await injectState(agent.instruction, readonlyContext, artifactLoader(context))]);
  else if (agent.instruction) appendInstructions(request, [await agent.instruction(readonlyContext)]);

  const tools = await resolveTools(agent.tools, readonlyContext, agent.name);
  const transfer = transferToolFor(agent);
  if (transfer) {
    tools.push(transfer.tool);
    appendInstructions(request, [transfer.instruction]);
  }
  const toolsByName = new Map<string, Tool>();
  for (const tool of tools) {
    toolsByName.set(tool.name, tool);
    const declaration = tool.declaration();
    if (declaration) request.functionDeclarations.push(declaration);
  }
  // As in ADK, toolsets change the request before their tools do.
  for (const entry of agent.tools) if (entry instanceof BaseToolset) await entry.processLlmRequest(new ToolContext({ invocation: context }), request);
  for (const tool of tools) {
    if (tool.processLlmRequest) await tool.processLlmRequest({ toolContext: new ToolContext({ invocation: context }), llmRequest: request });
  }
  return { request, toolsByName };
}

/**
 * ADK's identity lines, which open every system instruction: the agent's name
 * and description, so a model in a team of agents knows which one it is. As
 * in ADK, an agent that can transfer nowhere (no sub-agents, transfers to
 * parent and peers disallowed) gets none.
 */
export function identityInstructions(agent: LlmAgentSettings): string[] {
  if (agent.disallowTransferToParent && agent.disallowTransferToPeers && agent.subAgents.length === 0) return [];
  const lines = [`You are an agent. Your internal name is "${agent.name}".`];
  if (agent.description) lines.push(`The description about you is "${agent.description}"`);
  return lines;
}

/**
 * The current turn, for `includeContents: "none"`: the events from the
 * user's latest message on (what the agent was asked now, and the calls and
 * results since), without the earlier conversation.
 */
export function currentTurn(events: readonly Event[]): readonly Event[] {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index]!;
    if (event.author === "user" && event.content?.parts?.some((part) => part.text !== undefined)) return events.slice(index);
  }
  return events;
}

/** Loads the session's artifacts for `{artifact.name}` in instructions; `undefined` without an artifact service. */
export function artifactLoader(context: InvocationContext): ArtifactLoader | undefined {
  if (!context.artifactService) return undefined;
  // The context is made only when an instruction names an artifact, not for every model call.
  return (filename) => new CallbackContext(context).loadArtifact(filename);
}
