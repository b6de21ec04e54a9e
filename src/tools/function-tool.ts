import type { z } from "zod";
import { checkToolArguments } from "./argument-limits.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { runByHand } from "./run-by-hand.js";
import type { ArgumentsCheck, FunctionDeclaration, JsonSchema } from "./tool.js";
import { BaseTool, type RunAsyncToolRequest } from "./base-tool.js";
import type { ToolContext } from "./tool-context.js";
import { createArgumentsCheck, parametersToJsonSchema, type ToolParameters } from "./tool-parameters.js";
import { refuseNonObjectOptions, refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import { markKind } from "../platform/kind.js";

/** What `new FunctionTool(…)` takes (ADK's options and toolsmith's `timeoutMs`). */
const FUNCTION_TOOL_OPTIONS = ["name", "description", "parameters", "execute", "isLongRunning", "requireConfirmation", "timeoutMs"] as const;

/** The arguments `execute` receives: the zod output type (zod 4, or zod 3's `_output`), or a record for JSON Schema. */
export type ToolArguments<P> = P extends z.ZodType ? z.output<P> : P extends { _def: unknown; _output: infer O } ? O : Record<string, unknown>;

/** Options of {@link FunctionTool}. */
export interface FunctionToolOptions<P extends ToolParameters | undefined> {
  /** The name the model calls; letters, digits, `_` and `-`. Defaults to the function's name. */
  name?: string;
  description: string;
  /** A zod schema or a JSON Schema object for the arguments; none means no arguments. */
  parameters?: P;
  /** Does the work. Any return value becomes a function response: an object as is, an array as `{results}`, nothing as `{}`, else `{result: x}`. */
  execute: (args: ToolArguments<P>, context: ToolContext) => unknown;
  /** The tool returns before its work is done; the run pauses until the client sends the result. */
  isLongRunning?: boolean;
  /** Ask a person before running: always, or when the function says so for these arguments. */
  requireConfirmation?: boolean | ((args: ToolArguments<P>, context: ToolContext) => boolean | Promise<boolean>);
  /** Abort through `context.abortSignal` and answer with a timeout error after this long. */
  timeoutMs?: number;
}

/** ADK's name for what a {@link FunctionTool} takes as parameters: a zod schema, a JSON Schema, or none. */
export type ToolInputParameters = ToolParameters | undefined;
/** ADK's name for {@link FunctionToolOptions}. */
export type ToolOptions<P extends ToolInputParameters = undefined> = FunctionToolOptions<P>;
/** ADK's name for {@link ToolArguments}: what `execute` receives. */
export type ToolExecuteArgument<P extends ToolInputParameters> = ToolArguments<P>;
/** ADK's name for the type of `execute`. */
export type ToolExecuteFunction<P extends ToolInputParameters> = FunctionToolOptions<P>["execute"];
/** ADK's name for the type of `requireConfirmation`: always, or a rule for the arguments. */
export type RequireConfirmation<P extends ToolInputParameters> = NonNullable<FunctionToolOptions<P>["requireConfirmation"]>;

/**
 * Appended to a `LongRunningFunctionTool`'s description (after a blank line),
 * so the model waits instead of calling again; ADK's words.
 */
export const LONG_RUNNING_NOTE = "NOTE: This is a long-running operation. Do not call this tool again if it has already returned some intermediate or pending status.";

const TOOL_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$/;

/**
 * A tool made from a function and a schema. Arguments are checked before the
 * function runs, and bad ones go back to the model as an error it can correct.
 *
 * @example
 * ```ts
 * const getWeather = new FunctionTool({
 *   name: "get_weather_report",
 *   description: "Retrieves the current weather report for a specified city.",
 *   parameters: z.object({ city: z.string().describe("The city name") }),
 *   execute: async ({ city }) => ({ status: "success", report: `Sunny in ${city}` }),
 * });
 * ```
 */
export class FunctionTool<P extends ToolParameters | undefined = undefined> extends BaseTool {
  // Known as a FunctionTool by every copy of toolsmith loaded beside this one (platform/kind.ts).
  static {
    markKind(this, "FunctionTool");
  }

  readonly timeoutMs?: number;
  /**
   * Whether `execute` is an async generator function: a streaming tool, which a live run keeps running while the
   * conversation goes on, each value it yields sent to the model (ADK Python's streaming tools). Outside live runs
   * such a tool cannot answer, and a call ends the run with `STREAMING_TOOL_NOT_LIVE`.
   */
  readonly isStreaming: boolean;
  // Held with the parameters' type erased, so that a FunctionTool of any parameters is assignable to
  // `FunctionTool` (as in ADK, where programs type a field `FunctionTool` and store a zod-typed tool in it).
  readonly #options: FunctionToolOptions<ToolParameters | undefined>;
  readonly #declaration: FunctionDeclaration;
  #check: ((args: Record<string, unknown>) => ArgumentsCheck) | undefined;

  constructor(options: FunctionToolOptions<P>) {
    refuseNonObjectOptions("FunctionTool", options, () => 'new FunctionTool({ name: "lookup_order", description: "…", parameters, execute: async (args) => … })');
    if (typeof options.execute !== "function") {
      throw new ConfigurationError("INVALID_TOOL", `FunctionTool "${String(options.name ?? "")}" needs execute: the function the tool runs, given the checked arguments and the tool context; it got ${options.execute === undefined ? "nothing" : `a ${typeof options.execute}`}.`);
    }
    if (options.parameters !== undefined && (typeof options.parameters !== "object" || options.parameters === null)) {
      throw new ConfigurationError("INVALID_TOOL_SCHEMA", `FunctionTool "${String(options.name ?? options.execute.name)}": parameters is a zod schema or a JSON Schema object; it got ${options.parameters === null ? "null" : `a ${typeof options.parameters}`}${typeof options.parameters === "string" ? " (parse JSON text with JSON.parse first)" : ""}.`);
    }
    // toolsmith's own classes check their options; a subclass of yours may take more.
    if (new.target === FunctionTool || new.target === LongRunningFunctionTool) refuseUnhonouredOptions(`FunctionTool "${options.name ?? options.execute?.name ?? ""}"`, options, FUNCTION_TOOL_OPTIONS);
    const name = options.name ?? options.execute.name;
    if (!name || !TOOL_NAME.test(name)) {
      throw new ConfigurationError(
        "INVALID_TOOL_NAME",
        `Tool name ${JSON.stringify(name)} is not valid. Use 1 to 128 letters, digits, "_", ".", ":" or "-", starting with a letter or "_".`,
      );
    }
    super({ name, description: options.description, isLongRunning: options.isLongRunning });
    this.timeoutMs = options.timeoutMs;
    this.isStreaming = Object.prototype.toString.call(options.execute) === "[object AsyncGeneratorFunction]";
    this.#options = options as FunctionToolOptions<ToolParameters | undefined>;
    this.#declaration = { name, description: options.description, parameters: parametersToJsonSchema(options.parameters, name) as JsonSchema };
  }

  override declaration(): FunctionDeclaration {
    return this.#declaration;
  }

  /** ADK's name for {@link FunctionTool.declaration}. */
  override _getDeclaration(): FunctionDeclaration {
    return this.#declaration;
  }

  /**
   * ADK's way to run the tool by hand, doing what ADK's does before the function runs (the run loop does the
   * same itself, then calls {@link FunctionTool.run}): the arguments are checked against the parameters, with
   * their defaults filled in, and refused with an `InvalidArgumentsError` (`INVALID_ARGUMENTS`) that lists what is
   * wrong; a call that `requireConfirmation` holds asks `toolContext` for a confirmation and answers
   * `{ error }` without running, as ADK's, until the confirmation comes, and is refused when it was declined.
   */
  async runAsync({ args, toolContext }: RunAsyncToolRequest): Promise<unknown> {
    return runByHand(this, args, toolContext as ToolContext | undefined);
  }

  /** ADK's name for {@link FunctionTool.requiresConfirmation}; the arguments are checked (defaults filled) first, as in ADK. */
  override async checkRequireConfirmation(args: Record<string, unknown>, toolContext?: ToolContext): Promise<boolean> {
    const checked = checkToolArguments(this, args ?? {});
    return this.requiresConfirmation(checked.ok ? checked.value : args, toolContext as ToolContext);
  }

  /**
   * Checks arguments against the parameters. A JSON Schema is compiled on the
   * first call, not in the constructor, so that defining an agent never loads
   * the validator; a schema that does not compile throws a
   * `ConfigurationError` (`INVALID_TOOL_SCHEMA`) from that first call.
   */
  checkArguments(args: Record<string, unknown>): ArgumentsCheck {
    this.#check ??= createArgumentsCheck(this.#options.parameters, this.name);
    return this.#check(args);
  }

  /** The `requireConfirmation` option's answer: at once for `true`/`false` (or none), as its function gives it otherwise. */
  override requiresConfirmation(args: Record<string, unknown>, context: ToolContext): boolean | Promise<boolean> {
    const rule = this.#options.requireConfirmation;
    if (typeof rule === "function") return rule(args, context);
    return rule ?? false;
  }

  override async run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    return this.#options.execute(args, context);
  }
}

/**
 * A function tool whose work finishes after it returns: it answers at once
 * with a pending status, and the client later sends the result as a
 * `functionResponse` with the call's id. Its declaration tells the model not
 * to call it again while it is pending ({@link LONG_RUNNING_NOTE}), as ADK's
 * does; a `FunctionTool` with `isLongRunning: true` has no such note, in ADK
 * either.
 */
export class LongRunningFunctionTool<P extends ToolParameters | undefined = undefined> extends FunctionTool<P> {
  constructor(options: Omit<FunctionToolOptions<P>, "isLongRunning">) {
    super({ ...options, isLongRunning: true });
  }

  override declaration(): FunctionDeclaration {
    const declaration = super.declaration();
    return { ...declaration, description: declaration.description ? `${declaration.description}\n\n${LONG_RUNNING_NOTE}` : LONG_RUNNING_NOTE };
  }

  override _getDeclaration(): FunctionDeclaration {
    return this.declaration();
  }
}
