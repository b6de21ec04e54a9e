import { deriveInvocationContext, forAgent, type Agent, type InvocationContext } from "../agents/invocation-context.js";
import type { Content } from "../content/content.js";
import { getFunctionCalls, getFunctionResponses } from "../content/content.js";
import { FINISH_TASK_SUCCESS_RESULT, FINISH_TASK_TOOL_NAME } from "../tools/finish-task-tool.js";
import { createEvent, type Event } from "../events/event.js";
import { LlmAgent } from "../llm-agent/llm-agent.js";
import { BaseNode, isContentValue, type BaseNodeConfig, type NodeContext } from "./node.js";
import { isLlmAgent } from "../llm-agent/agent-kinds.js";

/** Whether a value is an agent toolsmith can run: a name, sub-agents and `runAsync`. */
export function isAgent(value: unknown): value is Agent {
  if (typeof value !== "object" || value === null) return false;
  const agent = value as Partial<Agent>;
  return typeof agent.name === "string" && typeof agent.runAsync === "function" && Array.isArray(agent.subAgents);
}

/**
 * An agent run as a workflow node, as ADK runs one. An `LlmAgent` gets the node's input as a user message (stored
 * in the session), sees only that turn unless its `includeContents` was given, and its final answer is the node's
 * output (parsed as JSON with `outputSchema`). In `mode: "task"` it sees the whole conversation instead, gets no
 * input message, and its output is what it gives `finish_task`; until it calls it the node waits (its
 * `waitForOutput`). Any other agent runs on the invocation as it is and has no output. The agent's own
 * `waitForOutput` and `isolationScope` are the node's unless the node's config gives them.
 */
export class AgentNode extends BaseNode {
  /** The agent the node runs: for an `LlmAgent` without `includeContents`, a copy that sees only its turn. */
  readonly agent: Agent;

  constructor(agent: Agent, config: Partial<BaseNodeConfig> = {}) {
    const llmAgent = isLlmAgent(agent) ? agent : undefined;
    super({
      ...config,
      name: config.name ?? agent.name,
      description: config.description ?? agent.description,
      // As ADK's: an agent that waited runs again when resumed, and its loop takes up the answered calls.
      rerunOnResume: config.rerunOnResume ?? true,
      waitForOutput: config.waitForOutput ?? llmAgent?.waitForOutput,
      isolationScope: config.isolationScope ?? llmAgent?.isolationScope,
    });
    // ADK sets includeContents "none" on the agent itself; a copy leaves the developer's agent as it was. A task
    // agent works with the user over turns: it sees the conversation.
    this.agent = llmAgent && llmAgent.mode !== "task" && !llmAgent.includeContentsExplicit ? llmAgent.clone({ includeContents: "none" }) : agent;
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<unknown, void, void> {
    if (!isLlmAgent(this.agent)) {
      const context = forAgent(ctx.getInvocationContext(), this.agent);
      for await (const event of this.agent.runAsync(context)) yield event;
      return;
    }
    // Its instruction may read the node's input (`{input.field}`) and earlier nodes' outputs (`<x.field from node>`).
    const context = deriveInvocationContext(ctx.getInvocationContext(), { agent: this.agent, workflowInstructionScope: { input, outputsByNode: outputsByNode(ctx) } });
    if (this.agent.mode === "task") {
      yield* runTask(this.agent, context);
      return;
    }
    // Run again after it waited, it has had its input: the answer it waited for is the turn now.
    if (input !== null && input !== undefined && !ctx.resuming) {
      const userEvent = createEvent({ author: "user", invocationId: ctx.invocationId, branch: ctx.branch, content: toUserContent(input) });
      if (ctx.isolationScope !== undefined) userEvent.isolationScope = ctx.isolationScope;
      await context.sessionService.appendEvent({ session: context.session, event: userEvent });
    }
    for await (const event of this.agent.runAsync(context)) {
      setOutput(this.agent, event);
      yield event;
    }
  }
}

/**
 * A task agent's run (ADK's task mode): once `finish_task` accepts a call, the arguments of that call (checked, with
 * the schema's defaults) are the node's output, stored under `outputKey`, and the agent stops there, without
 * another model call. A run that ends before leaves the node without output.
 */
async function* runTask(agent: LlmAgent, context: InvocationContext): AsyncGenerator<Event, void, void> {
  const finishTool = agent.finishTaskTool;
  let finishArgs: Record<string, unknown> | undefined;
  for await (const event of agent.runAsync(context)) {
    const finishCall = getFunctionCalls(event.content).find((call) => call.name === FINISH_TASK_TOOL_NAME);
    if (finishCall) {
      finishArgs = { ...finishCall.args };
      yield event;
      continue;
    }
    if (finishArgs !== undefined && acceptsFinish(event)) {
      const checked = finishTool.checkArguments(finishArgs);
      const output = finishTool.extractOutput(checked.ok ? checked.value : finishArgs);
      event.output = output;
      event.nodeInfo = { ...event.nodeInfo, messageAsOutput: true };
      if (agent.outputKey && output !== undefined) event.actions.stateDelta[agent.outputKey] = output;
      yield event;
      return;
    }
    yield event;
  }
}

/** Whether an event holds `finish_task`'s acceptance of a call. */
function acceptsFinish(event: Event): boolean {
  return getFunctionResponses(event.content).some((response) => response.name === FINISH_TASK_TOOL_NAME && response.response?.result === FINISH_TASK_SUCCESS_RESULT);
}

/** The outputs of this invocation's nodes so far, by node name (the last output of each), as ADK collects them. */
function outputsByNode(ctx: NodeContext): Record<string, unknown> {
  const outputs: Record<string, unknown> = {};
  for (const event of ctx.session.events) {
    const path = event.nodeInfo?.path;
    if (event.invocationId !== ctx.invocationId || event.output === undefined || !path) continue;
    const leaf = path.slice(path.lastIndexOf(".") + 1);
    outputs[leaf] = event.output;
  }
  return outputs;
}

/** The node's input as the user's message: text as text, `Content` as it is, anything else as JSON text. */
function toUserContent(input: unknown): Content {
  if (isContentValue(input)) return { ...input, role: "user" };
  return { role: "user", parts: [{ text: typeof input === "string" ? input : JSON.stringify(input) }] };
}

/** ADK's reading of an agent node's output: a complete model answer without calls, its text (JSON with `outputSchema`). */
function setOutput(agent: LlmAgent, event: Event): void {
  if (event.partial || event.errorCode || getFunctionCalls(event.content).length > 0) return;
  const content = event.content;
  if (!content || content.role !== "model" || !content.parts) return;
  const text = content.parts.filter((part) => part.text && !part.thought).map((part) => part.text).join("");
  let output: unknown = text;
  if (agent.outputSchema && text.trim()) {
    try {
      output = JSON.parse(text);
    } catch {
      output = text;
    }
  }
  event.output = output;
  event.nodeInfo = { ...event.nodeInfo, messageAsOutput: true };
}
