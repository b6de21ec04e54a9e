/**
 * The pieces under a JSON Schema check: filling defaults (fill-defaults.ts),
 * turning validator output into issues a model can act on
 * (argument-issues.ts), and compiling a schema (compile-schema-check.ts).
 */
import { describe, expect, it } from "vitest";
import { joinField, pointerToField } from "../../src/tools/argument-issues.js";
import { compileSchemaCheck } from "../../src/tools/compile-schema-check.js";
import { fillDefaults } from "../../src/tools/fill-defaults.js";

const DRAFT_04 = "http://json-schema.org/draft-04/schema#";
const DRAFT_2019 = "https://json-schema.org/draft/2019-09/schema";

const check = (schema: Record<string, unknown>, args: Record<string, unknown>) => compileSchemaCheck(schema, "tool")(args);
const problems = (schema: Record<string, unknown>, args: Record<string, unknown>) => {
  const result = check(schema, args);
  return result.ok ? {} : Object.fromEntries(result.issues.map((issue) => [issue.field, issue.problem]));
};

describe("fillDefaults", () => {
  it("fills a missing field and never overwrites one that is present, even as null, false, 0 or an empty string", () => {
    const schema = {
      properties: { a: { default: "A" }, b: { default: true }, c: { default: 5 }, d: { default: "D" }, e: { default: "E" }, f: { default: "F" } },
    };
    const value: Record<string, unknown> = { b: false, c: 0, d: null, e: "" };
    fillDefaults(schema, value, {});
    expect(value).toEqual({ a: "A", b: false, c: 0, d: null, e: "", f: "F" });
  });

  it("gives every call its own copy of an object default, so a tool changing it does not change the schema", () => {
    const schema = { properties: { options: { default: { tags: ["x"] } } } };
    const first: Record<string, unknown> = {};
    fillDefaults(schema, first, {});
    (first.options as { tags: string[] }).tags.push("changed");
    const second: Record<string, unknown> = {};
    fillDefaults(schema, second, {});
    expect(second).toEqual({ options: { tags: ["x"] } });
    expect(schema.properties.options.default).toEqual({ tags: ["x"] });
  });

  it("fills the defaults inside an object it has just filled from a default", () => {
    const schema = { properties: { paging: { type: "object", default: {}, properties: { page: { default: 1 }, size: { default: 20 } } } } };
    const value: Record<string, unknown> = {};
    fillDefaults(schema, value, {});
    expect(value).toEqual({ paging: { page: 1, size: 20 } });
  });

  it("fills defaults in each value of a map described by additionalProperties, not in the named fields", () => {
    const schema = {
      properties: { meta: { type: "object" } },
      additionalProperties: { type: "object", properties: { enabled: { default: true } } },
    };
    const value: Record<string, unknown> = { meta: {}, alpha: {}, beta: { enabled: false } };
    fillDefaults(schema, value, {});
    expect(value).toEqual({ meta: {}, alpha: { enabled: true }, beta: { enabled: false } });
  });

  it("fills draft-07 tuple positions from their own schema and extra items from additionalItems", () => {
    const schema = {
      properties: {
        row: {
          type: "array",
          items: [{ properties: { kind: { default: "header" } } }, { properties: { kind: { default: "body" } } }],
          additionalItems: { properties: { kind: { default: "extra" } } },
        },
      },
    };
    const value = { row: [{}, {}, {}, { kind: "own" }] };
    fillDefaults(schema, value, {});
    expect(value.row).toEqual([{ kind: "header" }, { kind: "body" }, { kind: "extra" }, { kind: "own" }]);
  });

  it("fills 2020-12 prefixItems positions, and the rest from items", () => {
    const schema = {
      properties: { pair: { type: "array", prefixItems: [{ properties: { n: { default: 1 } } }], items: { properties: { n: { default: 9 } } } } },
    };
    const value = { pair: [{}, {}] };
    fillDefaults(schema, value, {});
    expect(value.pair).toEqual([{ n: 1 }, { n: 9 }]);
  });

  it("does not take a default from oneOf or not, where it is unknown which shape applies", () => {
    const schema = {
      properties: {
        either: { oneOf: [{ properties: { kind: { default: "a" } } }, { properties: { kind: { default: "b" } } }] },
        never: { not: { properties: { kind: { default: "c" } } } },
      },
    };
    const value = { either: {}, never: {} };
    fillDefaults(schema, value, {});
    expect(value).toEqual({ either: {}, never: {} });
  });

  it("leaves primitives and missing schemas alone", () => {
    expect(() => fillDefaults(undefined, { a: 1 }, {})).not.toThrow();
    expect(() => fillDefaults({ properties: { a: { default: 1 } } }, "text", {})).not.toThrow();
    const value = { a: 5 };
    fillDefaults({ properties: { a: { properties: { b: { default: 1 } } } } }, value, {});
    expect(value).toEqual({ a: 5 });
  });
});

describe("defaults in a compiled check", () => {
  it("fills a recursive schema's defaults at every level the arguments reach, and no deeper", () => {
    const schema = { type: "object", properties: { child: { $ref: "#" }, depth: { type: "integer", default: 0 } } };
    expect(check(schema, { child: { child: {} } })).toEqual({ ok: true, value: { depth: 0, child: { depth: 0, child: { depth: 0 } } } });
  });

  it("satisfies a required field from its default, as ajv's useDefaults did", () => {
    const schema = { type: "object", required: ["limit"], properties: { limit: { type: "integer", default: 10 } } };
    expect(check(schema, {})).toEqual({ ok: true, value: { limit: 10 } });
  });

  it("reports a default that breaks its own schema, since defaults are filled before the check", () => {
    const schema = { type: "object", properties: { limit: { type: "integer", maximum: 5, default: 10 } } };
    expect(check(schema, {})).toEqual({ ok: false, issues: [{ field: "limit", problem: "must be <= 5" }] });
  });
});

describe("argument issues", () => {
  it("turns a JSON Pointer into the field a model reads, unescaping ~1 and ~0", () => {
    expect(pointerToField("")).toBe("");
    expect(pointerToField("/q")).toBe("q");
    expect(pointerToField("/filter/tags/1")).toBe("filter.tags[1]");
    expect(pointerToField("/0/name")).toBe("[0].name");
    expect(pointerToField("/a~1b/t~0x")).toBe("a/b.t~x");
    expect(pointerToField("/matrix/2/3")).toBe("matrix[2][3]");
  });

  it("joins a field under its parent, or alone at the top", () => {
    expect(joinField("", "name")).toBe("name");
    expect(joinField("guest", "name")).toBe("guest.name");
    expect(joinField("rows[2]", "id")).toBe("rows[2].id");
  });

  it("names fields whose names hold a slash, a tilde, a space or a percent sign as they are", () => {
    const schema = {
      type: "object",
      properties: { "a/b": { type: "integer" }, "t~x": { type: "integer" }, "c d": { type: "integer" }, "100%": { type: "string" } },
      additionalProperties: false,
    };
    expect(problems(schema, { "a/b": "x", "t~x": "y", "c d": "z", "100%": 1, "50%": 2 })).toEqual({
      "a/b": "must be integer",
      "t~x": "must be integer",
      "c d": "must be integer",
      "100%": "must be string",
      "50%": "is not an allowed field",
    });
  });

  it("names a required field missing deep inside, with its full path", () => {
    const schema = {
      type: "object",
      properties: { order: { type: "object", properties: { lines: { type: "array", items: { type: "object", required: ["sku"], properties: { sku: { type: "string" } } } } } } },
    };
    expect(check(schema, { order: { lines: [{ sku: "a" }, {}] } })).toEqual({ ok: false, issues: [{ field: "order.lines[1].sku", problem: "is required but missing" }] });
  });

  it("says a value must match exactly one shape when it matches none of a oneOf", () => {
    const schema = { type: "object", properties: { id: { oneOf: [{ type: "string" }, { type: "integer" }] } } };
    expect(problems(schema, { id: 1.5 })).toMatchObject({ id: expect.any(String) });
    const result = check(schema, { id: 1.5 });
    expect(result.ok ? [] : result.issues.map((issue) => issue.problem)).toContain("must match exactly one of the allowed shapes");
  });

  it("checks fields matched by patternProperties and names them", () => {
    const schema = { type: "object", patternProperties: { "^x_": { type: "integer" } } };
    expect(problems(schema, { x_size: "big", other: "free" })).toEqual({ x_size: "must be integer" });
  });

  it("states a draft-04 exclusive bound as strict, so the model does not send the bound itself again", () => {
    const schema = {
      $schema: DRAFT_04,
      type: "object",
      properties: { n: { type: "number", minimum: 1, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true }, m: { type: "number", maximum: 10 } },
    };
    expect(problems(schema, { n: 10 })).toEqual({ n: "must be < 10" });
    expect(problems(schema, { n: 1 })).toEqual({ n: "must be > 1" });
    expect(problems(schema, { n: 5, m: 11 })).toEqual({ m: "must be <= 10" });
  });

  it("states a draft-04 exclusive bound as strict when it is reached through a reference", () => {
    const schema = {
      $schema: DRAFT_04,
      type: "object",
      definitions: { percent: { type: "number", minimum: 0, maximum: 100, exclusiveMaximum: true } },
      properties: { share: { $ref: "#/definitions/percent" } },
    };
    expect(problems(schema, { share: 100 })).toEqual({ share: "must be < 100" });
    expect(check(schema, { share: 99.5 }).ok).toBe(true);
  });
});

describe("compileSchemaCheck", () => {
  it("reads the draft from $schema: 2019-09's dependentRequired applies", () => {
    const schema = { $schema: DRAFT_2019, type: "object", properties: { card: { type: "string" }, billing: { type: "string" } }, dependentRequired: { card: ["billing"] } };
    expect(check(schema, { card: "4111" }).ok).toBe(false);
    expect(check(schema, { card: "4111", billing: "Paris" }).ok).toBe(true);
  });

  it("refuses a schema whose references only lead to each other, instead of overflowing the stack on the first call", () => {
    const loop = { type: "object", $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, properties: { v: { $ref: "#/$defs/a" } } };
    expect(() => compileSchemaCheck(loop, "looping")).toThrow(
      expect.objectContaining({ code: "INVALID_TOOL_SCHEMA", message: expect.stringMatching(/tool "looping" is not a valid JSON Schema: \$ref "#\/\$defs\/[ab]" leads back to itself/) }),
    );
    const self = { type: "object", $defs: { a: { $ref: "#/$defs/a" } }, properties: { v: { $ref: "#/$defs/a" } } };
    expect(() => compileSchemaCheck(self, "self")).toThrow(expect.objectContaining({ code: "INVALID_TOOL_SCHEMA" }));
  });

  it("still accepts a recursive schema whose references pass through a value (a linked list)", () => {
    const schema = { type: "object", $defs: { node: { type: "object", properties: { value: { type: "integer" }, next: { $ref: "#/$defs/node" } } } }, properties: { head: { $ref: "#/$defs/node" } } };
    expect(check(schema, { head: { value: 1, next: { value: 2, next: {} } } }).ok).toBe(true);
    expect(problems(schema, { head: { value: 1, next: { value: "two" } } })).toEqual({ "head.next.value": "must be integer" });
  });

  it("refuses two parts of a schema that claim the same $id", () => {
    const schema = { type: "object", $id: "https://example.com/a", properties: { a: { $id: "https://example.com/a", type: "string" } } };
    expect(() => compileSchemaCheck(schema, "dup")).toThrow(expect.objectContaining({ code: "INVALID_TOOL_SCHEMA", message: expect.stringContaining("https://example.com/a") }));
  });

  it("compiles again on every call, leaving the caching to compileArgumentsCheck", () => {
    const schema = { type: "object", properties: {} };
    expect(compileSchemaCheck(schema, "t")).not.toBe(compileSchemaCheck(schema, "t"));
  });

  it("never changes the arguments it is given, defaults or not", () => {
    const args = { nested: { list: [1] } };
    const frozen = structuredClone(args);
    const result = check({ type: "object", properties: { nested: { type: "object", properties: { extra: { default: "e" } } }, top: { default: 1 } } }, args);
    expect(result).toEqual({ ok: true, value: { nested: { list: [1], extra: "e" }, top: 1 } });
    expect(args).toEqual(frozen);
  });
});
