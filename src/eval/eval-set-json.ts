import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { Content, FunctionCall, Part } from "../content/content.js";
import { setOwnField } from "../content/own-field.js";
import { loadOptionalPeer } from "../platform/load-optional-peer.js";
import { argumentShapeIssues } from "../tools/argument-limits.js";
import { EvalError } from "./eval-error.js";
import type { EvalCase, EvalSet, Invocation } from "./eval-set.js";
import { endSentence } from "../errors/sentence.js";

/**
 * Reading and writing eval sets as ADK does. ADK's pydantic models take both
 * spellings of every field (`eval_set_id` and `evalSetId`) and write
 * snake_case; so do these functions. Python writes `null` for absent
 * optional fields, read here as absent. Tool arguments, tool results and
 * session state are the developer's data: their keys are never renamed.
 */

/** Keys whose values are the developer's data, kept exactly as written. */
const PAYLOAD_KEYS = new Set(["args", "response", "state", "partial_args", "partialArgs", "tool_input", "toolInput", "mock_tool_output", "mockToolOutput"]);

function toCamel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

function toSnake(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** Deeper than this outside payloads, a document is refused rather than walked: an eval set nests about ten levels. */
const MAX_DEPTH = 64;

/** Every key renamed and skipped values left out, except inside payloads, which are copied as they are. */
function renamedKeys(value: unknown, rename: (key: string) => string, skip: (inner: unknown) => boolean, depth = 0): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) throw new EvalError("EVAL_SET_INVALID", `it nests more than ${MAX_DEPTH} levels deep outside tool arguments and state; an eval set needs about ten.`);
  if (Array.isArray(value)) return value.map((item) => renamedKeys(item, rename, skip, depth + 1));
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (skip(inner)) continue;
    setOwnField(result, rename(key), PAYLOAD_KEYS.has(key) ? checkedPayload(key, inner) : renamedKeys(inner, rename, skip, depth + 1));
  }
  return result;
}

/** Tool arguments, results and state are held to the limits of tool arguments (depth, size, no `__proto__` key), so no copy or comparison of them can overflow. */
function checkedPayload(key: string, value: unknown): unknown {
  const [issue] = argumentShapeIssues(value);
  if (issue) throw new EvalError("EVAL_SET_INVALID", `its ${key}${issue.field ? ` field ${issue.field}` : ""} ${issue.problem}.`);
  return value;
}

/** Every key in camelCase and every `null` dropped, except inside payloads (tool arguments and results, state). */
export function camelized(value: unknown): unknown {
  return renamedKeys(value, toCamel, (inner) => inner === null);
}

/** Every key in snake_case and absent fields left out, except inside payloads (tool arguments and results, state). */
export function snakeCased(value: unknown): unknown {
  return renamedKeys(value, toSnake, (inner) => inner === undefined);
}

type Zod = typeof import("zod");

async function loadZod(): Promise<Zod> {
  return loadOptionalPeer({ load: () => import("zod"), packageName: "zod", neededFor: "Reading eval sets" });
}

let schemas: ReturnType<typeof buildSchemas> | undefined;

/** The eval set's schema, in camelCase (input is camelized first), built once zod is loaded. */
function buildSchemas(z: Zod) {
  const record = z.record(z.string(), z.unknown());
  const functionCall = z.object({ id: z.string().optional(), name: z.string(), args: record.optional() });
  const part = z.looseObject({ text: z.string().optional(), functionCall: functionCall.optional() });
  const content = z.object({ role: z.string().optional(), parts: z.array(part).default([]) });
  const intermediateData = z.object({
    toolUses: z.array(functionCall).default([]),
    intermediateResponses: z.array(z.tuple([z.string(), z.array(part)])).default([]),
  });
  // Newer ADK writes the events of the turn instead; the tool calls are read from them.
  const invocationEvents = z.object({ invocationEvents: z.array(z.object({ author: z.string().default(""), content: content.optional() })) });
  const invocation = z.object({
    invocationId: z.string().default(""),
    userContent: content,
    finalResponse: content.optional(),
    intermediateData: z.union([intermediateData.strict(), invocationEvents]).optional(),
    creationTimestamp: z.number().default(0),
  });
  const sessionInput = z.object({ appName: z.string(), userId: z.string(), state: record.default({}) });
  const evalCase = z.object({
    evalId: z.string().min(1),
    conversation: z.array(invocation),
    sessionInput: sessionInput.optional(),
    creationTimestamp: z.number().default(0),
  });
  const evalSet = z.object({
    evalSetId: z.string().min(1),
    name: z.string().optional(),
    description: z.string().optional(),
    evalCases: z.array(evalCase),
    creationTimestamp: z.number().default(0),
  });
  const oldToolUse = z.object({ toolName: z.string(), toolInput: record.default({}) });
  const oldTurn = z.object({
    query: z.string(),
    expectedToolUse: z.array(oldToolUse).default([]),
    expectedIntermediateAgentResponses: z.array(z.object({ author: z.string(), text: z.string() })).default([]),
    reference: z.string().default(""),
  });
  const oldFile = z.array(oldTurn);
  // ADK's JSON form of a whole set before EvalSet: [{name, data: [turns], initial_session: {app_name, user_id, state}}].
  const oldSet = z.array(z.object({ name: z.string().min(1), data: oldFile, initialSession: z.object({ appName: z.string().default(""), userId: z.string().default(""), state: record.default({}) }).optional() }));
  return { evalSet, evalCase, oldFile, oldSet };
}

async function schemasLoaded(): Promise<ReturnType<typeof buildSchemas>> {
  schemas ??= buildSchemas(await loadZod());
  return schemas;
}

interface ZodIssueLike {
  path: PropertyKey[];
  message: string;
}

function describeIssues(issues: readonly ZodIssueLike[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map((step) => (typeof step === "number" ? `[${step}]` : `.${toSnake(String(step))}`)).join("").replace(/^\./, "") || "(top)"}: ${issue.message}`)
    .join("; ");
}

function partFromJson(part: Record<string, unknown>): Part {
  return part as Part;
}

function contentFromJson(content: { role?: string; parts: Array<Record<string, unknown>> } | undefined): Content | undefined {
  if (!content) return undefined;
  return { ...(content.role === undefined ? {} : { role: content.role }), parts: content.parts.map(partFromJson) };
}

function toolCallsOf(events: Array<{ content?: { parts: Array<Record<string, unknown>> } }>): FunctionCall[] {
  return events.flatMap((event) => (event.content?.parts ?? []).flatMap((part) => (part.functionCall ? [part.functionCall as FunctionCall] : [])));
}

/**
 * An eval set from parsed JSON: ADK's `EvalSet` (either spelling), or ADK's
 * older `.test.json` list of `{query, expected_tool_use, reference}` turns,
 * which becomes one eval case named after `source`, as ADK's
 * `AgentEvaluator` converts it. Throws an {@link EvalError} naming the first
 * fields that are wrong.
 */
export async function parseEvalSet(json: unknown, source = "eval set"): Promise<EvalSet> {
  const { evalSet, oldFile, oldSet } = await schemasLoaded();
  let input: unknown;
  try {
    input = camelized(json);
  } catch (error) {
    throw new EvalError("EVAL_SET_INVALID", `${source} is refused: ${(error as Error).message}`);
  }
  if (Array.isArray(input) && input.length > 0 && input.every((item) => item && typeof item === "object" && "data" in item)) {
    const parsed = oldSet.safeParse(input);
    if (!parsed.success) throw new EvalError("EVAL_SET_INVALID", `${source} is not an eval set in ADK's older JSON format (a list of {name, data, initial_session}): ${describeIssues(parsed.error.issues)}.`);
    const id = basename(source).replace(/\.evalset\.json$|\.json$/, "");
    const cases = parsed.data.map((entry) => {
      const [evalCase] = fromOldFormat(entry.data, entry.name).evalCases;
      const session = entry.initialSession;
      return { ...evalCase!, ...(session && (session.appName || session.userId || Object.keys(session.state).length) ? { sessionInput: session } : {}) };
    });
    return { evalSetId: id, name: id, evalCases: cases, creationTimestamp: 0 };
  }
  if (Array.isArray(input)) {
    const parsed = oldFile.safeParse(input);
    if (!parsed.success) throw new EvalError("EVAL_SET_INVALID", `${source} is not an eval set in ADK's older .test.json format (a list of {query, expected_tool_use, reference}): ${describeIssues(parsed.error.issues)}.`);
    return fromOldFormat(parsed.data, source);
  }
  const parsed = evalSet.safeParse(input);
  if (!parsed.success) throw new EvalError("EVAL_SET_INVALID", `${source} is not an ADK eval set (eval_set_id, eval_cases[{eval_id, conversation}]): ${describeIssues(parsed.error.issues)}.`);
  const data = parsed.data;
  return {
    evalSetId: data.evalSetId,
    ...(data.name === undefined ? {} : { name: data.name }),
    ...(data.description === undefined ? {} : { description: data.description }),
    creationTimestamp: data.creationTimestamp,
    evalCases: data.evalCases.map((evalCase) => ({
      evalId: evalCase.evalId,
      creationTimestamp: evalCase.creationTimestamp,
      ...(evalCase.sessionInput ? { sessionInput: evalCase.sessionInput } : {}),
      conversation: evalCase.conversation.map((turn): Invocation => {
        const intermediate = turn.intermediateData;
        return {
          invocationId: turn.invocationId,
          userContent: contentFromJson(turn.userContent)!,
          ...(turn.finalResponse ? { finalResponse: contentFromJson(turn.finalResponse) } : {}),
          ...(intermediate === undefined
            ? {}
            : "invocationEvents" in intermediate
              ? { intermediateData: { toolUses: toolCallsOf(intermediate.invocationEvents), intermediateResponses: [] } }
              : { intermediateData: { toolUses: intermediate.toolUses as FunctionCall[], intermediateResponses: intermediate.intermediateResponses.map(([author, parts]) => [author, parts.map(partFromJson)] as [string, Part[]]) } }),
          creationTimestamp: turn.creationTimestamp,
        };
      }),
    })),
  };
}

interface OldTurn {
  query: string;
  expectedToolUse: Array<{ toolName: string; toolInput: Record<string, unknown> }>;
  expectedIntermediateAgentResponses: Array<{ author: string; text: string }>;
  reference: string;
}

function fromOldFormat(turns: OldTurn[], source: string): EvalSet {
  const id = basename(source).replace(/\.test\.json$|\.json$/, "");
  const conversation = turns.map(
    (turn, index): Invocation => ({
      invocationId: `${id}-${index + 1}`,
      userContent: { role: "user", parts: [{ text: turn.query }] },
      finalResponse: { role: "model", parts: [{ text: turn.reference }] },
      intermediateData: {
        // ADK ignores mock_tool_output: only names and arguments are expected.
        toolUses: turn.expectedToolUse.map((use) => ({ name: use.toolName, args: use.toolInput })),
        intermediateResponses: turn.expectedIntermediateAgentResponses.map((response) => [response.author, [{ text: response.text }]] as [string, Part[]]),
      },
      creationTimestamp: 0,
    }),
  );
  return { evalSetId: id, name: id, evalCases: [{ evalId: source, conversation, creationTimestamp: 0 }], creationTimestamp: 0 };
}

/** Reads an eval set file (`.evalset.json` or the older `.test.json`); errors name the file. */
export async function readEvalSetFile(path: string): Promise<EvalSet> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new EvalError("EVAL_SET_NOT_FOUND", `Could not read the eval set ${path}: ${endSentence((error as Error).message)} Name an .evalset.json or .test.json file.`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new EvalError("EVAL_SET_INVALID", `${path} is not JSON: ${endSentence((error as Error).message)}`, { cause: error });
  }
  return parseEvalSet(json, path);
}

/** An eval case from parsed JSON in either spelling (the body of ADK's update-eval endpoint). */
export async function parseEvalCase(json: unknown, source = "eval case"): Promise<EvalCase> {
  const wrapped = await parseEvalSet({ eval_set_id: "-", eval_cases: [json] }, source).catch((error: unknown) => {
    throw new EvalError("EVAL_SET_INVALID", (error as Error).message.replace(/eval_cases\[0\]\.?/g, ""));
  });
  return wrapped.evalCases[0]!;
}

/**
 * An eval case as ADK writes it: snake_case keys, absent fields left out.
 * Throws EVAL_SET_INVALID, naming the case, for what the reader would refuse
 * (a `__proto__` key in tool arguments, say), so no set is written that
 * cannot be read back.
 */
export function evalCaseToJson(evalCase: EvalCase): Record<string, unknown> {
  try {
    return caseToJson(evalCase);
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    throw new EvalError("EVAL_SET_INVALID", `Eval case ${evalCase.evalId} cannot be saved: ${error.message} Remove that field from the case, or leave out the turn that holds it.`, { cause: error });
  }
}

function caseToJson(evalCase: EvalCase): Record<string, unknown> {
  return snakeCased({
    evalId: evalCase.evalId,
    conversation: evalCase.conversation.map((turn) => ({
      invocationId: turn.invocationId,
      userContent: turn.userContent,
      finalResponse: turn.finalResponse,
      intermediateData: turn.intermediateData ? { toolUses: turn.intermediateData.toolUses, intermediateResponses: turn.intermediateData.intermediateResponses } : undefined,
      creationTimestamp: turn.creationTimestamp,
    })),
    sessionInput: evalCase.sessionInput,
    creationTimestamp: evalCase.creationTimestamp,
  }) as Record<string, unknown>;
}

/** An eval set as ADK writes it to `<id>.evalset.json`: snake_case keys, in ADK's order. */
export function evalSetToJson(evalSet: EvalSet): Record<string, unknown> {
  return {
    eval_set_id: evalSet.evalSetId,
    name: evalSet.name ?? evalSet.evalSetId,
    description: evalSet.description ?? null,
    eval_cases: evalSet.evalCases.map(evalCaseToJson),
    creation_timestamp: evalSet.creationTimestamp,
  };
}
