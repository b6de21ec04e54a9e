import { deriveInvocationContext, forAgent, type Agent } from "../agents/invocation-context.js";
import type { Content } from "../content/content.js";
import { getFunctionCalls } from "../content/content.js";
import { createEvent, type Event } from "../events/event.js";
import { LlmAgent } from "../llm-agent/llm-agent.js";
import { BaseNode, isContentValue, type BaseNodeConfig, type NodeContext } from "./node.js";

/** Whether a value is an agent toolsmith can run: a name, sub-agents and `runAsync`. */
export function isAgent(value: unknown): value is Agent {
  if (typeof value !== "object" || value === null) return false;
  const agent = value as Partial<Agent>;
  return typeof agent.name === "string" && typeof agent.runAsync === "function" && Array.isArray(agent.subAgents);
}

/**
 * An agent run as a workflow node, as ADK runs one. An `LlmAgent` gets the node's input as a user message (stored
 * in the session), sees only that turn unless its `includeContents` was given, and its final answer is the node's
 * output (parsed as JSON with `outputSchema`). Any other agent runs on the invocation as it is and has no output.
 */
export class AgentNode extends BaseNode {
  /** The agent the node runs: for an `LlmAgent` without `includeContents`, a copy that sees only its turn. */
  readonly agent: Agent;

  constructor(agent: Agent, config: Partial<BaseNodeConfig> = {}) {
    // As ADK's: an agent that waited runs again when resumed, and its loop takes up the answered calls.
    super({ ...config, name: config.name ?? agent.name, description: config.description ?? agent.description, rerunOnResume: config.rerunOnResume ?? true });
    // ADK sets includeContents "none" on the agent itself; a copy leaves the developer's agent as it was.
    this.agent = agent instanceof LlmAgent && !agent.includeContentsExplicit ? agent.clone({ includeContents: "none" }) : agent;
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<unknown, void, void> {
    if (!(this.agent instanceof LlmAgent)) {
      const context = forAgent(ctx.getInvocationContext(), this.agent);
      for await (const event of this.agent.runAsync(context)) yield event;
      return;
    }
    // Its instruction may read the node's input (`{input.field}`) and earlier nodes' outputs (`<x.field from node>`).
    const context = deriveInvocationContext(ctx.getInvocationContext(), { agent: this.agent, workflowInstructionScope: { input, outputsByNode: outputsByNode(ctx) } });
    // Run again after it waited, it has had its input: the answer it waited for is the turn now.
    if (input !== null && input !== undefined && !ctx.resuming) {
      const userEvent = createEvent({ author: "user", invocationId: ctx.invocationId, branch: ctx.branch, content: toUserContent(input) });
      await context.sessionService.appendEvent({ session: context.session, event: userEvent });
    }
    for await (const event of this.agent.runAsync(context)) {
      setOutput(this.agent, event);
      yield event;
    }
  }
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
