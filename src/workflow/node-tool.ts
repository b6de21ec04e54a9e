import { branchSafeId } from "../agents/branch.js";
import { deriveInvocationContext } from "../agents/invocation-context.js";
import { ConfigurationError, isToolsmithError, ToolsmithError } from "../errors/toolsmith-error.js";
import { createEvent } from "../events/event.js";
import { BaseTool, type RunAsyncToolRequest } from "../tools/base-tool.js";
import { REQUEST_SCHEMA } from "../tools/agent-tool.js";
import { FunctionTool } from "../tools/function-tool.js";
import type { ArgumentsCheck, FunctionDeclaration, JsonSchema } from "../tools/tool.js";
import type { ToolContext } from "../tools/tool-context.js";
import type { BaseNode } from "./node.js";
import { nodeToolResume, type WorkflowResume } from "./resume.js";
import { runNodeForCall } from "./run-node.js";

const NODE_TOOL = Symbol.for("google.adk.workflow.nodeTool");

/** How deeply NodeTool calls may nest (ADK's bound). */
const MAX_NODE_TOOL_DEPTH = 8;

/** Whether a zod schema describes an object, so the tool's arguments are the node's input as they are. */
function isZodObject(schema: unknown): boolean {
  return (schema as { _zod?: { def?: { type?: unknown } } } | undefined)?._zod?.def?.type === "object";
}

/**
 * A graph workflow node offered to a model as a tool, as ADK 2's `NodeTool`: its arguments are the node's input
 * (its zod object `inputSchema`, or `{ request }` for another schema), checked before it runs, and its output is
 * the call's result (`{ result: null }` for none). The node's events are stored on a branch of their own
 * (`<tool>@<call id>`), as an agent run as a tool's are, and its state changes reach the caller's event. A node
 * that fails gives the model the failure as the call's result, as any tool that throws does.
 *
 * A node that asks the person (`RequestInput`) pauses the run: its question (`adk_request_input`) reaches the
 * caller, and the call holds a paused result. The person's answer (a function response to that question) runs the
 * call again: the nodes that finished are not run again, the node that asked gives the answer as its output (or
 * runs again on it with `rerunOnResume`), and the call's result is the node's output. A structured answer that
 * misses the question's `responseSchema` is refused with an `INTERRUPT_ANSWER_MISMATCH` error event, and the
 * question keeps waiting.
 */
export class NodeTool extends BaseTool {
  readonly [NODE_TOOL] = true;
  readonly node: BaseNode;
  readonly #tool: FunctionTool<JsonSchema>;

  constructor(node: BaseNode, name?: string, description?: string) {
    if (!node?.inputSchema) {
      throw new ConfigurationError("INVALID_TOOL", `Node '${node?.name}' does not have an inputSchema defined. NodeTool requires an explicit input schema on the wrapped node.`);
    }
    const toolName = name ?? node.name;
    const toolDescription = description || node.description || `Executes the node: ${node.name}`;
    super({ name: toolName, description: toolDescription, isLongRunning: true });
    this.node = node;
    const objectInput = isZodObject(node.inputSchema);
    this.#tool = new FunctionTool<JsonSchema>({
      name: toolName,
      description: toolDescription,
      // A zod schema is recognised at run time; the cast only fixes the argument type to a plain record.
      parameters: (objectInput ? node.inputSchema : REQUEST_SCHEMA) as JsonSchema,
      isLongRunning: true,
      execute: (args, context) => this.#runNode(objectInput ? args : args.request, context),
    });
  }

  override declaration(): FunctionDeclaration {
    return this.#tool.declaration();
  }

  /** ADK's name for {@link NodeTool.declaration}. */
  override _getDeclaration(): FunctionDeclaration {
    return this.#tool.declaration();
  }

  checkArguments(args: Record<string, unknown>): ArgumentsCheck {
    return this.#tool.checkArguments(args);
  }

  override run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    return this.#tool.run(args, context);
  }

  /** ADK's way to run the tool; the same as {@link NodeTool.run}. */
  runAsync({ args, toolContext }: RunAsyncToolRequest): Promise<unknown> {
    return this.run(args, toolContext);
  }

  async #runNode(input: unknown, context: ToolContext): Promise<unknown> {
    const outer = context.invocationContext;
    // A node that offers a tool running the node again (node → tool → node …) would recurse without end.
    if (outer.nodeToolDepth >= MAX_NODE_TOOL_DEPTH) {
      throw new ToolsmithError("NODE_TOOL_TOO_DEEP", `NodeTool "${this.name}" runs inside ${outer.nodeToolDepth} other NodeTool calls, past the most (${MAX_NODE_TOOL_DEPTH}): a node is likely offering itself as a tool. Answer without calling it.`);
    }
    const invocation = deriveInvocationContext(outer, { nodeToolDepth: outer.nodeToolDepth + 1 });
    const segment = `${this.name}@${branchSafeId(context.functionCallId)}`;
    const branch = invocation.branch ? `${invocation.branch}.${segment}` : segment;
    // The call runs again after it waited for the person: its node picks up where it stopped, with the answers.
    let resume: WorkflowResume | undefined;
    try {
      resume = outer.resumeMessage ? nodeToolResume(outer.session.events, branch, outer.resumeMessage) : undefined;
    } catch (error) {
      if (!(isToolsmithError(error) && error.code === "INTERRUPT_ANSWER_MISMATCH")) throw error;
      // The question stays open and the call waits on: the person is told what was wrong with the answer.
      await context.emitEvent(createEvent({ invocationId: outer.invocationId, author: outer.agent.name, branch: outer.branch, errorCode: error.code, errorMessage: error.message }));
      return this.#waiting(context);
    }
    const taken = resume?.take(this.node.name, this.node.rerunOnResume);
    if (taken && taken !== "rerun") return taken.interruptIds.length > 0 ? this.#waiting(context) : resultOf(taken.output);
    const child = await runNodeForCall(this.node, invocation, input, {
      runId: context.functionCallId,
      branch,
      resume,
      resuming: taken === "rerun",
      emit: async (event) => {
        Object.assign(context.actions.stateDelta, event.actions.stateDelta);
        await context.emitEvent(event);
      },
    });
    return child.interruptIds.length > 0 ? this.#waiting(context) : resultOf(child.output);
  }

  /** The call waits for the person's answers to its node's questions; an answer runs it again (see the class). */
  #waiting(context: ToolContext): undefined {
    context.pausedForClient = true;
    return undefined;
  }
}

/** The call's result: the node's output, or `{ result: null }` for none (as ADK). */
function resultOf(output: unknown): unknown {
  return output === undefined ? { result: null } : output;
}

/** Whether a value is a {@link NodeTool} (ADK's check, across copies of the package). */
export function isNodeTool(value: unknown): value is NodeTool {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[NODE_TOOL] === true;
}
