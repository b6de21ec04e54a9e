import type { Agent } from "../agents/agent.js";
import { deriveInvocationContext } from "../agents/invocation-context.js";
import { BaseTool, type RunAsyncToolRequest } from "./base-tool.js";
import { isPause } from "../agents/workflow-agent.js";
import { getText, type Content } from "../content/content.js";
import { createEvent } from "../events/event.js";
import { agentToolBranch } from "../agents/branch.js";
import type { ArgumentsCheck, FunctionDeclaration, JsonSchema } from "./tool.js";
import type { ToolContext } from "./tool-context.js";
import { FunctionTool } from "./function-tool.js";
import type { ToolParameters } from "./tool-parameters.js";
import { refuseNonObjectOptions, refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { isAgentLike } from "../agents/agent-tree.js";
import { markKind } from "../platform/kind.js";

/** Options of {@link AgentTool}. */
export interface AgentToolOptions {
  agent: Agent;
  /** The tool's arguments; default the agent's `inputSchema`, else `{ request: string }`. Other shapes than `{ request }` reach the agent as JSON. */
  parameters?: ToolParameters;
  /** Make the agent's answer the caller's final response, with no further model call in the caller's turn. */
  skipSummarization?: boolean;
  /** Ask a person before the agent runs. */
  requireConfirmation?: boolean | ((args: Record<string, unknown>, context: ToolContext) => boolean | Promise<boolean>);
}

/** ADK's name for {@link AgentToolOptions}. */
export type AgentToolConfig = AgentToolOptions;

/**
 * ADK's arguments of an agent tool, and of a node tool whose input is not an object: one `request` string,
 * undescribed (the agent's or node's description says what it does).
 */
export const REQUEST_SCHEMA: JsonSchema = {
  type: "object",
  properties: { request: { type: "string" } },
  required: ["request"],
};

/**
 * An agent offered to another agent as a tool. Each call runs the agent in a
 * branch of its own (`caller.agent@<callId>`) of the same session: it sees
 * only the request, its events stream to the caller marked with that branch
 * and are stored, its state and artifact changes reach the caller's event,
 * and its final answer is the tool's result. A confirmation or credential the
 * agent asks for pauses the caller too, and the agent resumes where it was.
 *
 * @example
 * ```ts
 * const researcher = new LlmAgent({ name: "researcher", description: "Finds facts.", model, tools: [search] });
 * const writer = new LlmAgent({ name: "writer", model, tools: [new AgentTool({ agent: researcher })] });
 * ```
 */
export class AgentTool extends BaseTool {
  // Known as an AgentTool by every copy of toolsmith loaded beside this one (platform/kind.ts).
  static {
    markKind(this, "AgentTool");
  }

  readonly agent: Agent;
  readonly #options: AgentToolOptions;
  /** The arguments' schema: the tool's `parameters`, else the agent's `inputSchema` (as in ADK); none means `{ request }`. */
  readonly #parameters: ToolParameters | undefined;
  /** Schema, argument checking and the confirmation rule work exactly as for a function tool. */
  readonly #tool: FunctionTool<JsonSchema>;

  constructor(options: AgentToolOptions) {
    refuseNonObjectOptions("AgentTool", options, () => "new AgentTool({ agent: helper })");
    if (!isAgentLike(options.agent)) {
      throw new ConfigurationError("INVALID_TOOL", `AgentTool needs the agent it runs: new AgentTool({ agent: helper }); it got ${options.agent === undefined ? "no agent" : "something that is no agent"}.`);
    }
    if (new.target === AgentTool) refuseUnhonouredOptions(`AgentTool of "${options.agent?.name ?? ""}"`, options, ["agent", "parameters", "skipSummarization", "requireConfirmation"]);
    super({ name: options.agent.name, description: options.agent.description || `Runs the agent "${options.agent.name}".` });
    this.agent = options.agent;
    this.#options = options;
    this.#parameters = options.parameters ?? (options.agent as { inputSchemaSource?: ToolParameters }).inputSchemaSource;
    this.#tool = new FunctionTool<JsonSchema>({
      name: this.name,
      description: this.description,
      // A zod schema is recognised at run time; the cast only fixes the argument type to a plain record.
      parameters: (this.#parameters ?? REQUEST_SCHEMA) as JsonSchema,
      requireConfirmation: options.requireConfirmation,
      execute: (args, context) => this.#runAgent(args, context),
    });
  }

  override declaration(): FunctionDeclaration {
    return this.#tool.declaration();
  }

  /** ADK's name for {@link AgentTool.declaration}. */
  override _getDeclaration(): FunctionDeclaration {
    return this.#tool.declaration();
  }

  /** ADK's way to run the tool; the same as {@link AgentTool.run}. */
  runAsync({ args, toolContext }: RunAsyncToolRequest): Promise<unknown> {
    return this.run(args, toolContext);
  }

  /** ADK's name for {@link AgentTool.requiresConfirmation}. */
  override async checkRequireConfirmation(args: Record<string, unknown>, toolContext: ToolContext): Promise<boolean> {
    return this.requiresConfirmation(args, toolContext);
  }

  checkArguments(args: Record<string, unknown>): ArgumentsCheck {
    return this.#tool.checkArguments(args);
  }

  override requiresConfirmation(args: Record<string, unknown>, context: ToolContext): boolean | Promise<boolean> {
    return this.#tool.requiresConfirmation(args, context);
  }

  override run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    return this.#tool.run(args, context);
  }

  async #runAgent(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    const invocation = context.invocationContext;
    const branch = agentToolBranch(invocation.branch, invocation.agent.name, this.agent.name, context.functionCallId);
    const request: Content = { role: "user", parts: [{ text: !this.#parameters && typeof args.request === "string" ? args.request : JSON.stringify(args) }] };
    const childContext = deriveInvocationContext(invocation, { agent: this.agent, branch, historyRoot: branch, userContent: request, resumeAgent: undefined });
    if (!invocation.session.events.some((event) => event.branch === branch)) {
      await context.emitEvent(createEvent({ invocationId: invocation.invocationId, author: "user", branch, content: request }));
    }
    let answer = "";
    let paused = false;
    for await (const event of this.agent.runAsync(childContext)) {
      await context.emitEvent(event);
      if (event.partial) continue;
      Object.assign(context.actions.stateDelta, event.actions.stateDelta);
      Object.assign(context.actions.artifactDelta, event.actions.artifactDelta);
      if (isPause(event)) paused = true;
      const text = getText(event.content);
      if (text) answer = text;
    }
    if (paused) {
      context.pausedForClient = true;
      return { status: "paused" };
    }
    if (this.#options.skipSummarization) context.actions.skipSummarization = true;
    return (this.agent as { outputSchema?: unknown }).outputSchema ? parsedAnswer(answer) : answer;
  }
}

/**
 * An agent with an `outputSchema` answers in JSON, which the caller gets parsed, as in ADK. The agent checked
 * its answer against the schema already; an answer that is not JSON (the check failed) goes back as text.
 */
function parsedAnswer(answer: string): unknown {
  try {
    return JSON.parse(answer);
  } catch {
    return answer;
  }
}
