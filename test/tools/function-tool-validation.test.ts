/**
 * FunctionTool called directly: how its arguments are checked (zod and JSON
 * Schema), what the model reads when they are wrong, when the schema is
 * compiled, its name, confirmation rule and run. (How a thrown error or a bad
 * result reaches the model is in test/llm-agent.)
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError, FunctionTool, LongRunningFunctionTool } from "../../src/index.js";
import { LONG_RUNNING_NOTE } from "../../src/tools/function-tool.js";
import { createArgumentsCheck, isZodSchema, parametersToJsonSchema } from "../../src/tools/tool-parameters.js";
import { invalidArgumentsResult, isPlainObject, normalizeToolResult, toolErrorResult } from "../../src/tools/tool-result.js";
import { createToolContext } from "../support/tool-context.js";

describe("FunctionTool argument checks with zod parameters", () => {
  const book = new FunctionTool({
    name: "book_table",
    description: "Books a table.",
    parameters: z.object({
      people: z.number().int().min(1).max(12),
      guest: z.object({ name: z.string(), phone: z.string().optional() }),
      dishes: z.array(z.string()).optional(),
    }),
    execute: (args) => ({ booked: args.people }),
  });

  it("accepts arguments that match and hands back zod's parsed value", () => {
    expect(book.checkArguments({ people: 2, guest: { name: "Ada" } })).toEqual({ ok: true, value: { people: 2, guest: { name: "Ada" } } });
  });

  it("names a nested field with a dotted path and an array item with its index", () => {
    const result = book.checkArguments({ people: 2, guest: { name: 7 }, dishes: ["soup", 3] });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.issues.map((issue) => issue.field)).toEqual(["guest.name", "dishes[1]"]);
  });

  it("reports a number above the maximum with zod's own wording", () => {
    const result = book.checkArguments({ people: 40, guest: { name: "Ada" } });
    expect(result).toEqual({ ok: false, issues: [{ field: "people", problem: expect.stringMatching(/<=\s*12/) }] });
  });

  it("lists the fields a strict object does not allow, by name", () => {
    const strict = new FunctionTool({ name: "strict", description: "x", parameters: z.strictObject({ a: z.string() }), execute: () => ({}) });
    expect(strict.checkArguments({ a: "x", b: 1, c: 2 })).toEqual({ ok: false, issues: [{ field: "", problem: "has fields that are not allowed: b, c" }] });
  });

  it("drops unknown fields from what execute receives when the zod object strips them", () => {
    expect(book.checkArguments({ people: 1, guest: { name: "Ada" }, tip: 5 })).toEqual({ ok: true, value: { people: 1, guest: { name: "Ada" } } });
  });

  it("reports a refinement's message against the whole argument object", () => {
    const range = new FunctionTool({
      name: "range",
      description: "x",
      parameters: z.object({ from: z.number(), to: z.number() }).refine((value) => value.from <= value.to, "from must not be after to"),
      execute: () => ({}),
    });
    expect(range.checkArguments({ from: 5, to: 1 })).toEqual({ ok: false, issues: [{ field: "", problem: "from must not be after to" }] });
    expect(range.checkArguments({ from: 1, to: 5 }).ok).toBe(true);
  });

  it("shows the model the input shape of a schema with a transform, not its output", () => {
    const tool = new FunctionTool({
      name: "shout",
      description: "x",
      parameters: z.object({ word: z.string().transform((word) => word.length), times: z.number().default(1) }),
      execute: () => ({}),
    });
    const parameters = tool.declaration().parameters as { properties: Record<string, { type?: string }>; required?: string[] };
    expect(parameters.properties.word!.type).toBe("string");
    // With io: "input", a field with a default is optional for the model.
    expect(parameters.required ?? []).not.toContain("times");
  });

  it("throws INVALID_TOOL_SCHEMA naming the tool when zod parameters cannot be expressed as JSON Schema", () => {
    // A zod-like schema whose conversion fails, as a schema with an unsupported construct would.
    const throwing = { _zod: {}, toJSONSchema: () => { throw new Error("cannot convert"); } } as unknown as z.ZodType;
    expect(() => new FunctionTool({ name: "when", description: "x", parameters: throwing, execute: () => ({}) })).toThrow(
      expect.objectContaining({ code: "INVALID_TOOL_SCHEMA", message: expect.stringContaining('tool "when" cannot be expressed as JSON Schema: cannot convert') }),
    );
  });
});

describe("FunctionTool argument checks with JSON Schema parameters", () => {
  it("treats a tool without parameters as taking an empty object and accepts extra fields", () => {
    const tool = new FunctionTool({ name: "now", description: "The time.", execute: () => "12:00" });
    expect(tool.declaration()).toEqual({ name: "now", description: "The time.", parameters: { type: "object", properties: {} } });
    expect(tool.checkArguments({})).toEqual({ ok: true, value: {} });
    expect(tool.checkArguments({ stray: 1 })).toEqual({ ok: true, value: { stray: 1 } });
  });

  it("words type, range, length and pattern problems from the schema's own values", () => {
    const tool = new FunctionTool({
      name: "register",
      description: "x",
      parameters: {
        type: "object",
        properties: {
          age: { type: "integer", minimum: 18, exclusiveMaximum: 130 },
          handle: { type: "string", minLength: 3, maxLength: 8, pattern: "^[a-z]+$" },
          tags: { type: "array", maxItems: 2 },
          step: { type: "number", multipleOf: 5 },
          kind: { const: "person" },
        },
      },
      execute: () => ({}),
    });
    const problems = (args: Record<string, unknown>) => {
      const result = tool.checkArguments(args);
      return result.ok ? {} : Object.fromEntries(result.issues.map((issue) => [issue.field, issue.problem]));
    };
    expect(problems({ age: 12 })).toEqual({ age: "must be >= 18" });
    expect(problems({ age: 130 })).toEqual({ age: "must be < 130" });
    expect(problems({ age: "old" })).toEqual({ age: "must be integer" });
    expect(problems({ handle: "ab" })).toEqual({ handle: "must NOT have fewer than 3 characters" });
    expect(problems({ handle: "abcdefghij" })).toEqual({ handle: "must NOT have more than 8 characters" });
    expect(problems({ handle: "ABCD" })).toEqual({ handle: 'must match pattern "^[a-z]+$"' });
    expect(problems({ tags: [1, 2, 3] })).toEqual({ tags: "must NOT have more than 2 items" });
    expect(problems({ step: 7 })).toEqual({ step: "must be a multiple of 5" });
    expect(problems({ kind: "robot" })).toEqual({ kind: 'must be "person"' });
    expect(problems({ age: 30, handle: "ada", tags: [], step: 10, kind: "person" })).toEqual({});
  });

  it("lists both allowed types when a field may be one of two", () => {
    const tool = new FunctionTool({ name: "id", description: "x", parameters: { type: "object", properties: { id: { type: ["string", "integer"] } } }, execute: () => ({}) });
    expect(tool.checkArguments({ id: 1.5 })).toEqual({ ok: false, issues: [{ field: "id", problem: "must be string or integer" }] });
  });

  it("does not compile its JSON Schema until the first check, then reuses the compiled check", () => {
    const schema = { type: "object", properties: { id: { $ref: "#/$defs/nowhere" } } };
    // Defining the tool succeeds even though the schema is broken: nothing was compiled yet.
    const tool = new FunctionTool({ name: "lazy", description: "x", parameters: schema, execute: () => ({}) });
    expect(tool.declaration().parameters).toBe(schema);
    expect(() => tool.checkArguments({})).toThrow(ConfigurationError);
    expect(() => tool.checkArguments({})).toThrow(/tool "lazy" is not a valid JSON Schema/);
  });

  it("shares one compiled check between two tools given the same schema object", () => {
    const schema = { type: "object", properties: { n: { type: "integer", default: 4 } } };
    const first = createArgumentsCheck(schema, "first");
    const second = createArgumentsCheck(schema, "second");
    expect(second).toBe(first);
    expect(first({})).toEqual({ ok: true, value: { n: 4 } });
  });

  it("does not let a check's filled defaults leak into the next call's arguments", () => {
    const tool = new FunctionTool({
      name: "page",
      description: "x",
      parameters: { type: "object", properties: { options: { type: "object", default: { size: 10 } } } },
      execute: () => ({}),
    });
    const first = tool.checkArguments({});
    expect(first).toEqual({ ok: true, value: { options: { size: 10 } } });
    if (first.ok) (first.value.options as { size: number }).size = 99;
    expect(tool.checkArguments({})).toEqual({ ok: true, value: { options: { size: 10 } } });
  });
});

describe("FunctionTool declaration, confirmation and run", () => {
  it("accepts names with dots, colons and dashes and refuses ones that start with a digit or are too long", () => {
    for (const name of ["a", "_private", "fs.read", "mcp:search", "get-weather", "x".repeat(128)]) {
      expect(new FunctionTool({ name, description: "", execute: () => 1 }).name).toBe(name);
    }
    for (const name of ["1st", "", "x".repeat(129), "with/slash", "ünicode"]) {
      expect(() => new FunctionTool({ name, description: "", execute: () => 1 }), name).toThrow(expect.objectContaining({ code: "INVALID_TOOL_NAME" }));
    }
  });

  it("refuses an anonymous function without a name, telling what a valid name is", () => {
    expect(() => new FunctionTool({ description: "", execute: (() => () => 1)() })).toThrow(/Tool name "" is not valid\. Use 1 to 128 letters/);
  });

  it("tells the model a long-running tool must not be called again, in the declaration only", () => {
    const tool = new LongRunningFunctionTool({ name: "approve", description: "Asks a manager.", execute: () => ({ status: "pending" }) });
    expect(tool.isLongRunning).toBe(true);
    expect(tool.description).toBe("Asks a manager.");
    expect(tool.declaration().description).toBe(`Asks a manager.\n\n${LONG_RUNNING_NOTE}`);
    expect(new FunctionTool({ name: "quick", description: "Fast.", execute: () => 1 }).isLongRunning).toBe(false);
  });

  it("gives a long-running tool without a description the note alone, and a FunctionTool flagged long-running no note, as ADK does", () => {
    const bare = new LongRunningFunctionTool({ name: "bare", description: "", execute: () => ({ status: "pending" }) });
    expect(bare.declaration().description).toBe(LONG_RUNNING_NOTE);
    expect(bare._getDeclaration()).toEqual(bare.declaration());
    const flagged = new FunctionTool({ name: "flagged", description: "Starts.", isLongRunning: true, execute: () => ({ status: "pending" }) });
    expect(flagged.isLongRunning).toBe(true);
    expect(flagged.declaration().description).toBe("Starts.");
  });

  it("keeps timeoutMs for the runner to enforce", () => {
    expect(new FunctionTool({ name: "slow", description: "", timeoutMs: 250, execute: () => 1 }).timeoutMs).toBe(250);
    expect(new FunctionTool({ name: "fast", description: "", execute: () => 1 }).timeoutMs).toBeUndefined();
  });

  it("asks for confirmation never by default, always when set, and per call when given a rule", async () => {
    const context = await createToolContext();
    const never = new FunctionTool({ name: "never", description: "", execute: () => 1 });
    const always = new FunctionTool({ name: "always", description: "", requireConfirmation: true, execute: () => 1 });
    const seen: unknown[] = [];
    const overLimit = new FunctionTool({
      name: "transfer",
      description: "",
      parameters: z.object({ amount: z.number() }),
      requireConfirmation: async (args, ruleContext) => {
        seen.push(ruleContext.functionCallId);
        return args.amount > 100;
      },
      execute: () => 1,
    });
    expect(await never.requiresConfirmation({}, context)).toBe(false);
    expect(await always.requiresConfirmation({}, context)).toBe(true);
    expect(await overLimit.requiresConfirmation({ amount: 50 }, context)).toBe(false);
    expect(await overLimit.requiresConfirmation({ amount: 500 }, context)).toBe(true);
    expect(seen).toEqual(["call-1", "call-1"]);
  });

  it("answers a fixed confirmation setting at once, so the loop awaits nothing, and a rule as the rule does; ADK's checkRequireConfirmation always with a promise", async () => {
    const context = await createToolContext();
    const never = new FunctionTool({ name: "never", description: "", execute: () => 1 });
    const always = new FunctionTool({ name: "always", description: "", requireConfirmation: true, execute: () => 1 });
    const byRule = new FunctionTool({ name: "by_rule", description: "", requireConfirmation: async () => true, execute: () => 1 });
    expect(never.requiresConfirmation({}, context)).toBe(false);
    expect(always.requiresConfirmation({}, context)).toBe(true);
    expect(byRule.requiresConfirmation({}, context)).toBeInstanceOf(Promise);
    const adkStyle = always.checkRequireConfirmation({}, context);
    expect(adkStyle).toBeInstanceOf(Promise);
    expect(await adkStyle).toBe(true);
  });

  it("runs execute with the arguments and the context it is given, returning its value unchanged", async () => {
    const context = await createToolContext({ state: { greeting: "hello" } });
    const tool = new FunctionTool({
      name: "greet",
      description: "",
      parameters: { type: "object", properties: { name: { type: "string" } } },
      execute: (args, toolContext) => `${String(toolContext.state.get("greeting"))}, ${String(args.name)}`,
    });
    await expect(tool.run({ name: "Ada" }, context)).resolves.toBe("hello, Ada");
  });
});

describe("tool-parameters and tool-result helpers", () => {
  it("tells a zod schema from a JSON Schema object", () => {
    expect(isZodSchema(z.string())).toBe(true);
    expect(isZodSchema({ type: "object" })).toBe(false);
    expect(isZodSchema(null)).toBe(false);
    expect(isZodSchema("string")).toBe(false);
  });

  it("shows a JSON Schema as given and no parameters as an empty object schema", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    expect(parametersToJsonSchema(schema, "t")).toBe(schema);
    expect(parametersToJsonSchema(undefined, "t")).toEqual({ type: "object", properties: {} });
  });

  it("counts only plain objects as function responses; wraps arrays as results and primitives as result, as ADK does", () => {
    class Point {
      x = 1;
    }
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(new Point())).toBe(false);
    expect(isPlainObject(new Date(0))).toBe(false);
    expect(normalizeToolResult(null)).toEqual({ result: null });
    expect(normalizeToolResult(undefined)).toEqual({});
    expect(normalizeToolResult(0)).toEqual({ result: 0 });
    expect(normalizeToolResult("done")).toEqual({ result: "done" });
    expect(normalizeToolResult([1, 2])).toEqual({ results: [1, 2] });
    // ADK keeps the instance, which serialises to its own fields; toolsmith stores those fields.
    const fromInstance = normalizeToolResult(new Point());
    expect(fromInstance).toEqual({ x: 1 });
    expect(Object.getPrototypeOf(fromInstance)).toBe(Object.prototype);
    // A Date would reach the model as a bare string in ADK; toolsmith keeps it under result.
    expect(normalizeToolResult(new Date(0))).toEqual({ result: new Date(0) });
    const plain = { a: 1 };
    expect(normalizeToolResult(plain)).toBe(plain);
  });

  it("builds error results with status error, the message, and any details", () => {
    expect(toolErrorResult("It broke.")).toEqual({ status: "error", error: "It broke." });
    expect(toolErrorResult("It broke.", { retryAfter: 5 })).toEqual({ status: "error", error: "It broke.", retryAfter: 5 });
  });

  it("lists an issue without a field by its problem alone", () => {
    const result = invalidArgumentsResult("t", [
      { field: "", problem: "must be object" },
      { field: "a.b", problem: "is required but missing" },
    ]);
    expect(result.error).toBe('Invalid arguments for tool "t": must be object; a.b: is required but missing. Call the tool again with arguments that match its schema.');
    expect(result.invalidArguments).toHaveLength(2);
  });
});
