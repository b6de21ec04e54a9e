import { pluginsFor, type InvocationContext, type PluginHooks } from "../agents/invocation-context.js";
import { injectState, type ArtifactLoader } from "../agents/inject-state.js";
import type { LlmAgentSettings } from "./llm-agent-settings.js";
import { ReadonlyContext } from "../agents/readonly-context.js";
import { CallbackContext } from "../agents/callback-context.js";
import { Context } from "../agents/context.js";
import { PluginError } from "../plugins/plugin-manager.js";
import { appendInstructions, createLlmRequest, detachContents, mayChangeContents, type LlmRequest } from "../models/llm-request.js";
import type { Model } from "../models/model.js";
import { resolveTools } from "../tools/resolve-tools.js";
import { isToolset, type Tool, type ToolUnion } from "../tools/tool.js";
import type { Event } from "../events/event.js";
import type { EventActions } from "../events/event-actions.js";
import { BaseToolset } from "../tools/base-toolset.js";
import { BaseTool } from "../tools/base-tool.js";
import { createEventActions } from "../events/event-actions.js";
import { ToolContext } from "../tools/tool-context.js";
import { transferToolFor } from "./transfer-to-agent-tool.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { FINISH_TASK_TOOL_NAME } from "../tools/finish-task-tool.js";
import { buildContents, isVisible, type HistoryScope } from "./build-contents.js";
import { getFunctionCalls, getFunctionResponses } from "../content/content.js";
import { compactedView } from "./compaction/active-history.js";
import { historyWithCodeAsText } from "./run-model-code.js";
import type { BaseContextCompactor } from "./compaction/token-based-context-compactor.js";
import { runProcessors, type BaseLlmRequestProcessor } from "./llm-processors.js";
import { emittedBy } from "./event-channel.js";

/** A model call being prepared: what goes to the model, and the runnable tools behind its declarations. */
export interface PreparedRequest {
  request: LlmRequest;
  /** The tools the model may call in its answer, by name; the model itself sees only their declarations. */
  toolsByName: ReadonlyMap<string, Tool>;
  /** What preparing the request recorded (state written in `processLlmRequest`), for the model call's event. */
  actions: EventActions;
}

/**
 * The request for this agent's next model call: history, instruction (with
 * state filled in), and the tools resolved afresh, each given the chance to
 * change the request. Given at once (no promise) when nothing in it waits: an instruction without placeholders,
 * tools known from an earlier call, nothing that changes requests; the loop then awaits nothing.
 */
export function buildLlmRequest(agent: LlmAgentSettings, context: InvocationContext, model: Model): PreparedRequest | Promise<PreparedRequest> {
  const request = historyRequest(agent, context, model);
  const fixed = fixedInstruction(agent, context);
  const known = knownAgentTools(agent);
  // Plugins may narrow the tools of each call (beforeToolSelection), which is awaited.
  if (fixed === undefined || !known || pluginsFor(context, "beforeToolSelection")) return withInstructionAndTools(agent, context, request, fixed, known);
  appendInstructions(request, [fixed]);
  return offerTools(request, known, context, createEventActions());
}

/**
 * {@link buildLlmRequest} for an agent with request processors (ADK's `requestProcessors`): they change the request
 * once the agent's own steps made it (history, instruction, output schema, the transfer instruction), and before
 * the tools declare themselves and change it, as in ADK. The events they yield are yielded as they come, each
 * stored before the processor goes on. `undefined` when the run was cancelled meanwhile.
 */
export function processedRequest(agent: LlmAgentSettings, context: InvocationContext, model: Model, processors: readonly BaseLlmRequestProcessor[]): AsyncGenerator<Event, PreparedRequest | undefined, undefined> {
  return emittedBy((emit) => buildProcessedRequest(agent, context, model, processors, emit));
}

async function buildProcessedRequest(
  agent: LlmAgentSettings,
  context: InvocationContext,
  model: Model,
  processors: readonly BaseLlmRequestProcessor[],
  emit: (event: Event) => Promise<void>,
): Promise<PreparedRequest | undefined> {
  const request = historyRequest(agent, context, model);
  const { tools, actions } = await instructedRequest(agent, context, request, fixedInstruction(agent, context), knownAgentTools(agent));
  if (tools.transferInstruction) appendInstructions(request, [tools.transferInstruction]);
  detachContents(request);
  if (!(await runProcessors(processors, "requestProcessors", context, request, emit))) return undefined;
  return offerTools(request, { ...tools, transferInstruction: undefined }, context, actions);
}

/** The request with the history and the generation settings: what every model call starts from. */
function historyRequest(agent: LlmAgentSettings, context: InvocationContext, model: Model): LlmRequest {
  const events = context.session.events;
  // An agent that compacts sends its latest summary and what followed it; the session keeps every event.
  const history = agent.includeContents === "none" ? currentTurn(events, agent.name, context) : agent.contextCompactors ? compactedHistory(agent.contextCompactors, events, agent.name, context) : events;
  const contents = buildContents(history, agent.name, context, history === events ? context.memo : undefined);
  // An agent that runs code itself shows its model the code and results as text (a new list: the built one is kept).
  const request = createLlmRequest({ model: model.name, contents: agent.localCodeExecutor ? historyWithCodeAsText(contents, agent.localCodeExecutor) : contents, config: agent.generateContentConfig });
  // In task mode the output schema shapes finish_task's arguments, not the answers (the agent may ask the user).
  if (agent.outputSchema && agent.mode !== "task") Object.assign(request.config, { responseMimeType: "application/json", responseJsonSchema: agent.outputSchema });
  return request;
}

/** What an agent with compactors sends its model: its latest summary and what followed, then each compactor's view. */
function compactedHistory(compactors: readonly BaseContextCompactor[], events: readonly Event[], agentName: string, context: InvocationContext): readonly Event[] {
  let history = compactedView(events, agentName, context.branch, context.isolationScope);
  for (const compactor of compactors) if (compactor.view) history = compactor.view(history, context);
  return history;
}

/** {@link buildLlmRequest} for the rest: an instruction made at each call, or tools still to resolve. */
async function withInstructionAndTools(agent: LlmAgentSettings, context: InvocationContext, request: LlmRequest, fixed: string | undefined, known: AgentTools | undefined): Promise<PreparedRequest> {
  const { tools, actions } = await instructedRequest(agent, context, request, fixed, known);
  return offerTools(request, tools, context, actions);
}

/** Adds the instruction to the request, and gives the tools this call offers (as plugins selected them) and what selecting recorded. */
async function instructedRequest(agent: LlmAgentSettings, context: InvocationContext, request: LlmRequest, fixed: string | undefined, known: AgentTools | undefined): Promise<{ tools: AgentTools; actions: EventActions }> {
  if (fixed !== undefined) appendInstructions(request, [fixed]);
  else {
    appendInstructions(request, identityInstructions(agent));
    const readonlyContext = new ReadonlyContext(context);
    if (typeof agent.instruction === "string") appendInstructions(request, [await injectState(agent.instruction, readonlyContext, artifactLoader(context))]);
    else if (agent.instruction) appendInstructions(request, [await agent.instruction(readonlyContext)]);
  }
  const tools = known ?? (await resolveAgentTools(agent, context));
  // What a plugin writes to the state while it selects is stored with the model call's event, as the tools' writes are.
  const actions = createEventActions();
  const selecting = pluginsFor(context, "beforeToolSelection");
  return { tools: selecting ? await selectedTools(tools, context, selecting, actions) : tools, actions };
}

/**
 * The tools the plugins keep for this call (ADK 2's `beforeToolSelection`): given the agent's tools by name (the
 * transfer tool aside, which stays), the first plugin that answers names the ones to keep; the others are neither
 * declared nor run if the model calls them. With no plugin answering, or no tools, they all stay.
 */
async function selectedTools(agentTools: AgentTools, context: InvocationContext, plugins: PluginHooks, actions: EventActions): Promise<AgentTools> {
  const offered: Record<string, Tool> = {};
  for (const tool of agentTools.tools) if (tool !== agentTools.transferTool) offered[tool.name] = tool;
  if (Object.keys(offered).length === 0) return agentTools;
  const kept = await plugins.runBeforeToolSelection({ callbackContext: new Context({ invocation: context, actions }), tools: offered });
  if (kept === undefined) return agentTools;
  if (kept === null || typeof kept !== "object" || Array.isArray(kept)) {
    throw new PluginError("PLUGIN_FAILED", `A plugin's beforeToolSelection returned ${Array.isArray(kept) ? "a list" : JSON.stringify(kept)}: return the tools to keep as a record by name (as it was given), or undefined to keep them all.`);
  }
  const keeps = (tool: Tool) => tool === agentTools.transferTool || Object.hasOwn(kept, tool.name);
  const tools = agentTools.tools.filter(keeps);
  return { ...agentTools, tools, toolsByName: new Map(tools.map((tool) => [tool.name, tool])), processors: agentTools.processors.filter(keeps) };
}

/** Declares the tools on the request and lets toolsets and tools change it (awaited only when one does). */
function offerTools(request: LlmRequest, agentTools: AgentTools, context: InvocationContext, actions: EventActions): PreparedRequest | Promise<PreparedRequest> {
  const { tools, toolsByName, transferInstruction, toolsets, processors } = agentTools;
  if (transferInstruction) appendInstructions(request, [transferInstruction]);
  for (const tool of tools) {
    const declaration = tool.declaration();
    if (declaration) request.functionDeclarations.push(declaration);
  }
  // As in ADK, toolsets change the request before their tools do. They share one context, so what one
  // writes to the state the next reads, and the writes are stored with the model call's event. With nothing to
  // call, no context is made.
  if (toolsets.length === 0 && processors.length === 0) return { request, toolsByName, actions };
  if (toolsets.some((toolset) => mayChangeContents(toolset.processLlmRequest)) || processors.some((tool) => mayChangeContents(tool.processLlmRequest))) detachContents(request);
  const toolContext = new ToolContext({ invocation: context, actions });
  const changes = [...toolsets.map((toolset) => () => toolset.processLlmRequest(toolContext, request) as Promise<void> | void), ...processors.map((tool) => () => tool.processLlmRequest!({ toolContext, llmRequest: request }))];
  return inOrder(changes, () => ({ request, toolsByName, actions: toolContext.actions }));
}

/**
 * Runs `steps` one after another, then gives `done`'s value: at once when no step returns a promise, so an agent
 * whose tools change requests synchronously reaches the model as soon as one whose tools do not.
 */
function inOrder<T>(steps: ReadonlyArray<() => Promise<void> | void>, done: () => T, from = 0): T | Promise<T> {
  for (let index = from; index < steps.length; index++) {
    const pending = steps[index]!();
    if (pending) return pending.then(() => inOrder(steps, done, index + 1));
  }
  return done();
}

/**
 * The agent's identity lines and instruction as one text, when that text is the same at every model call: the
 * instruction is a string without a `{placeholder}` (nor, in a workflow's agent node, a `<x.field from node>`). Made
 * once per agent (and instruction) instead of at every call.
 */
function fixedInstruction(agent: LlmAgentSettings, context: InvocationContext): string | undefined {
  const instruction = agent.instruction;
  if (typeof instruction === "function" || instruction?.includes("{") || (context.workflowInstructionScope && instruction?.includes("<"))) return undefined;
  const known = fixedInstructions.get(agent);
  if (known && known.instruction === instruction) return known.text;
  const text = [...identityInstructions(agent), instruction ?? ""].filter((line) => line.length > 0).join("\n\n");
  fixedInstructions.set(agent, { instruction, text });
  return text;
}

const fixedInstructions = new WeakMap<LlmAgentSettings, { instruction: string | undefined; text: string }>();

const NO_TOOL_PROCESSING = BaseTool.prototype.processLlmRequest;
const NO_TOOLSET_PROCESSING = BaseToolset.prototype.processLlmRequest;

/**
 * The agent's tools as they stand now (toolsets resolved afresh), with the
 * transfer tool when it can transfer, by name for running the model's calls.
 * Changes no request and runs no `processLlmRequest`: a resumed run uses it to
 * finish the calls that waited.
 */
export async function agentTools(agent: LlmAgentSettings, context: InvocationContext): Promise<AgentTools> {
  return knownAgentTools(agent) ?? resolveAgentTools(agent, context);
}

/** The agent's tools as made at an earlier call, when its list has not changed since and has no toolset. */
function knownAgentTools(agent: LlmAgentSettings): AgentTools | undefined {
  const known = fixedTools.get(agent);
  return known && sameEntries(known.entries, agent.tools) ? known : undefined;
}

async function resolveAgentTools(agent: LlmAgentSettings, context: InvocationContext): Promise<AgentTools> {
  const hasToolset = agent.tools.some(isToolset);
  const tools = hasToolset ? await resolveTools(agent.tools, new ReadonlyContext(context), agent.name) : [...(agent.tools as readonly Tool[])];
  if (agent.mode === "task" && agent.finishTaskTool) addBuiltInTool(tools, agent.finishTaskTool, agent.name);
  const transfer = transferToolFor(agent);
  if (transfer) addBuiltInTool(tools, transfer.tool, agent.name);
  const resolved: AgentTools = {
    tools,
    toolsByName: new Map(tools.map((tool) => [tool.name, tool])),
    transferTool: transfer?.tool,
    transferInstruction: transfer?.instruction,
    // BaseToolset's and BaseTool's own processLlmRequest do nothing: tools that keep them are not called.
    toolsets: agent.tools.filter((entry): entry is BaseToolset => entry instanceof BaseToolset && entry.processLlmRequest !== NO_TOOLSET_PROCESSING),
    processors: tools.filter((tool) => tool.processLlmRequest !== undefined && tool.processLlmRequest !== NO_TOOL_PROCESSING),
  };
  // Without toolsets the tools are the agent's own list: kept for its next model calls while that list stays the
  // same (a program may still change it between runs), instead of a new list and map at every call.
  if (!hasToolset) fixedTools.set(agent, { ...resolved, entries: [...agent.tools] });
  return resolved;
}

/**
 * Adds a tool toolsmith gives the agent (`transfer_to_agent`, `finish_task`), refusing one of the agent's own
 * tools with its name: the model would be offered two declarations of one name, which providers refuse, and every
 * call would reach the built-in one.
 */
function addBuiltInTool(tools: Tool[], builtIn: Tool, agentName: string): void {
  if (tools.some((tool) => tool.name === builtIn.name)) {
    throw new ConfigurationError(
      "DUPLICATE_TOOL_NAME",
      `Agent "${agentName}" has a tool named "${builtIn.name}", the name of the tool toolsmith gives it (as ADK does) for ${builtIn.name === FINISH_TASK_TOOL_NAME ? "ending its task" : "transferring to its sub-agents, parent and peers"}. Rename that tool, or give its toolset a prefix with prefixToolset(toolset, prefix).`,
    );
  }
  tools.push(builtIn);
}

/** An agent's tools, as {@link agentTools} hands them out; callers read them and change neither. */
export interface AgentTools {
  tools: readonly Tool[];
  toolsByName: ReadonlyMap<string, Tool>;
  /** The transfer tool among `tools`, when the agent can transfer. */
  transferTool?: Tool;
  transferInstruction?: string;
  /** The toolsets, and then the tools, whose `processLlmRequest` changes a request, in the order they run. */
  toolsets: readonly BaseToolset[];
  processors: readonly Tool[];
}

const fixedTools = new WeakMap<LlmAgentSettings, AgentTools & { entries: readonly ToolUnion[] }>();

function sameEntries(known: readonly ToolUnion[], current: readonly ToolUnion[]): boolean {
  if (known.length !== current.length) return false;
  for (let index = 0; index < known.length; index++) if (known[index] !== current[index]) return false;
  return true;
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
 * The current turn, for `includeContents: "none"`, as ADK takes it: from the
 * latest event this agent can see that came from the user or from another
 * agent (what it is being asked now, be that a person's message or the
 * previous agent's answer in a workflow), moved back to the calls whose
 * results arrive after it, so no result reaches the model without its call.
 */
export function currentTurn(events: readonly Event[], agentName: string, scope: HistoryScope): readonly Event[] {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index]!;
    if (!isVisible(event, scope) || event.author === agentName) continue;
    return events.slice(turnStart(events, index));
  }
  return [];
}

/** The earliest event at or before `anchor` holding a call answered at or after it. */
function turnStart(events: readonly Event[], anchor: number): number {
  const answered = new Set<string>();
  for (const event of events.slice(anchor)) for (const response of getFunctionResponses(event.content)) if (response.id) answered.add(response.id);
  let start = anchor;
  for (let index = anchor - 1; index >= 0; index--) {
    if (getFunctionCalls(events[index]!.content).some((call) => call.id !== undefined && answered.has(call.id))) start = index;
  }
  return start;
}

/** Loads the session's artifacts for `{artifact.name}` in instructions; `undefined` without an artifact service. */
export function artifactLoader(context: InvocationContext): ArtifactLoader | undefined {
  if (!context.artifactService) return undefined;
  // The context is made only when an instruction names an artifact, not for every model call.
  return (filename) => new CallbackContext(context).loadArtifact(filename);
}
