import { forAgent } from "../agents/invocation-context.js";
import { getFunctionResponses, getText } from "../content/content.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { executeFunctionCalls } from "../llm-agent/execute-function-calls.js";
import { LlmAgent } from "../llm-agent/llm-agent.js";
import { isBaseTool } from "../tools/base-tool.js";
import type { Tool } from "../tools/tool.js";
import { BaseNode, isContentValue, type BaseNodeConfig, type NodeContext } from "./node.js";

/** Options of a {@link ToolNode} (ADK's `ToolNodeConfig`): a node's, with the name the tool's by default. */
export type ToolNodeConfig = Partial<BaseNodeConfig>;

/** Whether a value is a tool: a `BaseTool`, or an object with a name, a declaration and `run`. */
export function isTool(value: unknown): value is Tool {
  if (isBaseTool(value)) return true;
  if (typeof value !== "object" || value === null) return false;
  const tool = value as Partial<Tool>;
  return typeof tool.name === "string" && typeof tool.declaration === "function" && typeof tool.run === "function";
}

/**
 * A tool run as a workflow node (ADK's `ToolNode`): the node's input is the call's arguments (an object, JSON
 * text, or nothing for none), checked against the tool's parameters as a model's call is; the tool runs through
 * the same path as in an agent (plugins' tool hooks, state recorded on the event), and its result is the node's
 * output. A result the model would read as an error (bad arguments, a tool that threw) is the output too, as in
 * ADK. A long-running tool is refused, as in ADK: its result comes later, and a workflow waits only for what it
 * asks the person.
 */
export class ToolNode extends BaseNode {
  readonly tool: Tool;
  /** An agent of the node's name that holds the tool: the path a model's call takes needs one (it has no callbacks). */
  private readonly carrier: LlmAgent;

  constructor(tool: Tool, config: ToolNodeConfig = {}) {
    super({ ...config, name: config.name ?? tool.name, description: config.description ?? tool.description });
    if (tool.isLongRunning) {
      throw new ConfigurationError("INVALID_WORKFLOW", `Tool "${tool.name}" is long-running, and a ToolNode cannot wait for its result (a workflow waits only for what it asks the person). Give it to an agent node, or run its work in a function node.`);
    }
    this.tool = tool;
    this.carrier = new LlmAgent({ name: validAgentName(this.name), tools: [tool] });
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<unknown, void, void> {
    const args = this.validateInput(toolArguments(this.name, input)) as Record<string, unknown>;
    const call = { id: `${ctx.nodePath}:${ctx.runId}`, name: this.tool.name, args };
    const result = await executeFunctionCalls(this.carrier, forAgent(ctx.getInvocationContext(), this.carrier), [call], new Map([[this.tool.name, this.tool]]), { emit: (event) => ctx.emit(event) });
    if (!result) return;
    const event = result.responseEvent;
    event.author = this.name;
    const response = getFunctionResponses(event.content)[0];
    if (response) event.output = response.response;
    yield event;
    // A call that waits for a confirmation or a credential asks the person, and the node waits (see ToolNode).
    if (result.clientRequest) yield result.clientRequest;
  }
}

/** The call's arguments from the node's input, as ADK reads them: an object, JSON text of one, or nothing. */
function toolArguments(nodeName: string, input: unknown): Record<string, unknown> {
  let args = isContentValue(input) ? getText(input) : input;
  if (typeof args === "string") {
    const text = args.trim();
    if (!text) args = undefined;
    else {
      try {
        args = JSON.parse(text);
      } catch {
        // Text that is not JSON is refused below, as any other value that is not an object.
      }
    }
  }
  if (args === null || args === undefined) return {};
  if (typeof args !== "object" || Array.isArray(args)) {
    throw new ConfigurationError("INVALID_ARGUMENTS", `Tool node "${nodeName}" got ${Array.isArray(args) ? "an array" : `a ${typeof args}`} as its input, but a tool's arguments are an object (or JSON text of one, or nothing). Make the node before it output the arguments.`);
  }
  return args as Record<string, unknown>;
}

/** An agent name from a node's (letters, digits and `_`), for the carrier agent the tool's context names. */
function validAgentName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}
