/**
 * Argument validation tried as a fuzzer would (issue 15): generated JSON Schemas, generated arguments (valid,
 * random and hostile: non-finite numbers, `__proto__` keys, deep nesting), each call made by the scripted model
 * through a real Runner. Every run must end without throwing, and a tool must never receive arguments an
 * independent validator (ajv) refuses, nor anything but what the stored event records. The figures are printed.
 */
import { Ajv } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FunctionTool, LlmAgent, Runner, type JsonSchema } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { argumentShapeIssues, checkToolArguments, MAX_ARGUMENT_DEPTH } from "../../src/tools/argument-limits.js";

const ajv = new Ajv({ strict: false, allErrors: false });

/** A leaf schema: string, number, integer or boolean, with the constraints tools use. */
const leafSchema = fc.oneof(
  fc.record({ type: fc.constant("string"), minLength: fc.option(fc.nat(3), { nil: undefined }), maxLength: fc.option(fc.integer({ min: 3, max: 8 }), { nil: undefined }) }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("string"), enum: fc.uniqueArray(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 3 }) }),
  fc.record({ type: fc.constantFrom("number", "integer"), minimum: fc.option(fc.integer({ min: -5, max: 0 }), { nil: undefined }), maximum: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }) }, { requiredKeys: ["type"] }),
  fc.constant({ type: "boolean" }),
);

/** An object schema whose properties are leaves, arrays of leaves or (up to depth 2) objects. */
const objectSchema: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  object: fc
    .tuple(
      fc.dictionary(fc.constantFrom("a", "b", "name", "count", "constructor", "prototype", "items"), fc.oneof({ depthSize: "small" }, leafSchema, fc.record({ type: fc.constant("array"), items: leafSchema }), tie("object")), { maxKeys: 4 }),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([properties, strict, requireAll]) => ({ type: "object", properties, ...(requireAll ? { required: Object.keys(properties) } : {}), ...(strict ? { additionalProperties: false } : {}) })),
})).object as fc.Arbitrary<Record<string, unknown>>;

/** Arguments: random JSON, values a hostile model might send, and plausible ones. */
const hostileValue = fc.constantFrom<unknown>(Infinity, -Infinity, NaN, -0, 1e308 * 10, "", "\u0000", [], {}, null);
const argumentsFor = fc.oneof(
  fc.dictionary(fc.constantFrom("a", "b", "name", "count", "constructor", "prototype", "items", "extra"), fc.oneof(fc.jsonValue({ maxDepth: 3 }), hostileValue), { maxKeys: 5 }),
  fc.constantFrom("__proto__", "constructor").chain((key) => fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(`{"a": 1, "${key}": ${JSON.stringify(value) ?? "null"}}`) as Record<string, unknown>)),
  fc.nat(300).map((depth) => ({ a: nest(depth) })),
);

/** A copy whose objects have no prototype: ajv reads `data.constructor` of a plain {} as Object, the inherited function. */
function withoutPrototypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPrototypes);
  if (typeof value !== "object" || value === null) return value;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, inner] of Object.entries(value)) copy[key] = withoutPrototypes(inner);
  return copy;
}

function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

describe("tool arguments under fuzzing", () => {
  it("never crash a run, and never reach a tool unless valid, finite and as stored (2,000 generated schema and argument sets)", async () => {
    const figures = { sets: 0, crashed: 0, ran: 0, refused: 0, invalidReachedTool: 0, differedFromStored: 0 };
    await fc.assert(
      fc.asyncProperty(objectSchema, argumentsFor, async (schema, args) => {
        figures.sets++;
        let received: Record<string, unknown> | undefined;
        const tool = new FunctionTool({ name: "fuzzed", description: "x", parameters: schema as JsonSchema, execute: (value) => ((received = value), { ok: true }) });
        const model = new ScriptedModel([functionCallsResponse({ name: "fuzzed", args }), textResponse("done")]);
        const runner = new Runner({ appName: "fuzz", agent: new LlmAgent({ name: "fuzzer", model, tools: [tool] }) });
        const session = await runner.sessionService.createSession({ appName: "fuzz", userId: "u" });
        let events;
        try {
          events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
        } catch (error) {
          figures.crashed++;
          throw error;
        }
        expect(events.at(-1)!.errorCode).toBeUndefined();
        if (received === undefined) {
          figures.refused++;
          return;
        }
        figures.ran++;
        const valid = ajv.validate(schema, withoutPrototypes(received)) && argumentShapeIssues(received).length === 0;
        if (!valid) figures.invalidReachedTool++;
        expect(valid).toBe(true);
        const stored = events[0]!.content!.parts![0]!.functionCall!.args;
        if (JSON.stringify(stored) !== JSON.stringify(received)) figures.differedFromStored++;
        expect(received).toEqual(stored);
      }),
      { numRuns: 2_000, seed: 20261125 },
    );
    console.log(`argument fuzzing: ${figures.sets} sets, ${figures.ran} ran the tool, ${figures.refused} refused with an error result, ${figures.crashed} crashed, ${figures.invalidReachedTool} invalid reached a tool, ${figures.differedFromStored} differed from the stored call`);
    expect(figures).toMatchObject({ crashed: 0, invalidReachedTool: 0, differedFromStored: 0 });
    expect(figures.ran).toBeGreaterThan(100);
    expect(figures.refused).toBeGreaterThan(100);
  }, 120_000);

  it("refuse non-finite numbers, __proto__ keys and deep nesting with issues the model can read, and keep constructor as data", () => {
    expect(argumentShapeIssues({ x: Infinity, y: [1, -Infinity], z: NaN })).toEqual(
      expect.arrayContaining([
        { field: "x", problem: "must be a finite number, not Infinity" },
        { field: "y[1]", problem: "must be a finite number, not -Infinity" },
        { field: "z", problem: "must be a finite number, not NaN" },
      ]),
    );
    expect(argumentShapeIssues(JSON.parse('{"a": {"__proto__": {"admin": true}}}'))).toEqual([{ field: "a.__proto__", problem: "is not allowed as a field name" }]);
    expect(argumentShapeIssues({ a: nest(MAX_ARGUMENT_DEPTH + 5) })[0]!.problem).toBe(`is nested deeper than ${MAX_ARGUMENT_DEPTH} levels; send flatter data`);
    expect(argumentShapeIssues({ constructor: "Ada", prototype: 1 })).toEqual([]);
  });

  it("answers a tool whose schema cannot be compiled or copied with an error result, not an exception", () => {
    const tooDeep = nest(20_000) as Record<string, unknown>;
    let schema: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 20_000; level++) schema = { type: "object", properties: { a: schema } };
    const deepTool = new FunctionTool({ name: "deep", description: "x", parameters: schema as JsonSchema, execute: () => 1 });
    const outcome = checkToolArguments(deepTool, { a: 1 });
    expect(outcome).toMatchObject({ ok: false, result: { status: "error", code: "INVALID_TOOL_SCHEMA", error: expect.stringMatching(/^Tool "deep" cannot check its arguments, so it cannot be used now/) } });
    expect(checkToolArguments(deepTool, tooDeep)).toMatchObject({ ok: false, result: { invalidArguments: [{ problem: expect.stringContaining("nested deeper") }] } });
    const dangling = new FunctionTool({ name: "dangling", description: "x", parameters: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } } as JsonSchema, execute: () => 1 });
    expect(checkToolArguments(dangling, { a: 1 })).toMatchObject({ ok: false, result: { code: "INVALID_TOOL_SCHEMA" } });
  });
});
