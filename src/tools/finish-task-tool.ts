import { leavesContentsAlone } from "../models/llm-request.js";
import type { Context } from "../agents/context.js";
import { appendInstructions } from "../models/llm-request.js";
import { checkToolArguments } from "./argument-limits.js";
import { BaseTool, type RunAsyncToolRequest, type ToolProcessLlmRequest } from "./base-tool.js";
import { compileArgumentsCheck } from "./json-schema-validator.js";
import type { ArgumentsCheck, FunctionDeclaration, JsonSchema } from "./tool.js";
import { schemaToJsonSchema, type ToolParameters } from "./tool-parameters.js";

/** The name of the tool an LLM agent in `mode: "task"` calls when its task is done (ADK's `FINISH_TASK_TOOL_NAME`). */
export const FINISH_TASK_TOOL_NAME = "finish_task";

/** What `finish_task` answers when its arguments are accepted (ADK's `FINISH_TASK_SUCCESS_RESULT`). */
export const FINISH_TASK_SUCCESS_RESULT = "Task completed.";

/** The task's output when the agent has no `outputSchema`: a summary, as ADK's default. */
const DEFAULT_TASK_OUTPUT_SCHEMA: JsonSchema = {
  type: "object",
  properties: { result: { type: "string", description: "A brief summary of what the agent accomplished." } },
  required: ["result"],
};

/** What the model is told about finishing, in ADK's words, after the agent's own instruction. */
const FINISH_TASK_INSTRUCTION =
  "Do NOT call `finish_task` prematurely. Use your available tools to fully complete every aspect of the task first. If the task is unclear, ask the user for clarification before proceeding. Once the task is fully complete, call `finish_task` by itself with no accompanying text output.";

/**
 * The tool an LLM agent in `mode: "task"` is given (ADK's `FinishTaskTool`): the model calls it, alone, once the
 * task is done, with the task's output as its arguments, shaped by the agent's `outputSchema` (an object schema is
 * the arguments themselves; another schema is wrapped as `{ result }`), or a `{ result }` summary without one.
 * The arguments are checked against that schema before the call is accepted, so a missing or mistyped field comes
 * back to the model as an error it can fix; an accepted call answers `"Task completed."`, and a workflow's agent
 * node takes the arguments as its output.
 *
 * @example
 * ```ts
 * const planner = new LlmAgent({ name: "planner", model, mode: "task", outputSchema: z.object({ city: z.string(), days: z.number() }) });
 * planner.finishTaskTool.declaration(); // finish_task({ city, days })
 * ```
 */
export class FinishTaskTool extends BaseTool {
  // Its processLlmRequest changes no content of the request in place: a request only it sees is not copied.
  static {
    leavesContentsAlone(FinishTaskTool.prototype.processLlmRequest);
  }

  /** The task's output schema, as JSON Schema. */
  readonly outputSchema: JsonSchema;
  /** `"result"` when the output schema is not an object: the output is then the argument of that name. */
  readonly wrapperKey: string | undefined;
  readonly #parameters: JsonSchema;

  /** @param outputSchema the task's output (zod, JSON Schema or a genai Schema); a `{ result }` summary when left out. */
  constructor(outputSchema?: ToolParameters | JsonSchema) {
    const schema = outputSchema === undefined ? DEFAULT_TASK_OUTPUT_SCHEMA : schemaToJsonSchema(outputSchema as ToolParameters, `${FINISH_TASK_TOOL_NAME} output`);
    let description = "Signal that this agent has completed its delegated task. Call this when you have finished your delegated task.";
    if (outputSchema !== undefined) description += " Pass the required output data in the parameters.";
    super({ name: FINISH_TASK_TOOL_NAME, description });
    this.outputSchema = schema;
    this.wrapperKey = isObjectSchema(schema) ? undefined : "result";
    this.#parameters = this.wrapperKey ? { type: "object", properties: { [this.wrapperKey]: schema }, required: [this.wrapperKey] } : schema;
  }

  override _getDeclaration(): FunctionDeclaration {
    return { name: this.name, description: this.description, parameters: this.#parameters };
  }

  override declaration(): FunctionDeclaration {
    return this._getDeclaration();
  }

  /** The arguments checked against the task's output schema, with its defaults filled in. */
  checkArguments(args: Record<string, unknown>): ArgumentsCheck {
    return compileArgumentsCheck(this.#parameters, this.name)(args);
  }

  /** Adds ADK's instruction on when to finish after the agent's own. */
  override processLlmRequest({ llmRequest }: ToolProcessLlmRequest): void {
    appendInstructions(llmRequest, [FINISH_TASK_INSTRUCTION]);
  }

  /**
   * The task's output from a `finish_task` call's arguments (ADK's `extractOutput`): the arguments, or their
   * `result` when the output schema is not an object.
   */
  extractOutput(args: Record<string, unknown>): unknown {
    return this.wrapperKey ? args[this.wrapperKey] : args;
  }

  /**
   * Accepts a call whose arguments the loop already checked (toolsmith's contract: {@link checkArguments} ran
   * first): `"Task completed."`, without checking them a second time.
   */
  override run(_args: Record<string, unknown>, _context: Context): Promise<unknown> {
    return Promise.resolve(FINISH_TASK_SUCCESS_RESULT);
  }

  /** ADK's entry, called with arguments nothing checked yet: `"Task completed."`, or the error result naming what does not match the schema. */
  async runAsync({ args }: RunAsyncToolRequest): Promise<unknown> {
    const checked = checkToolArguments(this, args);
    return checked.ok ? FINISH_TASK_SUCCESS_RESULT : checked.result;
  }
}

function isObjectSchema(schema: JsonSchema): boolean {
  const type = (schema as { type?: unknown }).type;
  return type === "object" || (type === undefined && typeof (schema as { properties?: unknown }).properties === "object");
}
