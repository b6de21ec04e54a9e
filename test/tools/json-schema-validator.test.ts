/**
 * The JSON Schema check of tool arguments, on the schema styles tools arrive
 * with: draft-07 (MCP servers built with zod-to-json-schema, `definitions`,
 * tuple `items`), 2020-12 (zod 4, `$defs`, `prefixItems`), OpenAPI's own
 * formats. bench/validators.ts runs this file against each candidate library.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigurationError } from "../../src/index.js";
import { compileArgumentsCheck } from "../../src/tools/json-schema-validator.js";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema";

const check = (schema: Record<string, unknown>, args: Record<string, unknown>) => compileArgumentsCheck(schema, "tool")(args);
const fieldsOf = (result: ReturnType<typeof check>) => (result.ok ? [] : result.issues.map((issue) => issue.field).sort());

afterEach(() => vi.restoreAllMocks());

describe("compileArgumentsCheck", () => {
  it("names the missing, the unexpected and the out-of-range fields, nested ones with a dotted path", () => {
    const schema = {
      type: "object",
      properties: { q: { type: "string" }, limit: { type: "integer", maximum: 50 }, filter: { type: "object", properties: { tags: { type: "array", items: { type: "string" } } } } },
      required: ["q"],
      additionalProperties: false,
    };
    const result = check(schema, { limit: 99, extra: true, filter: { tags: ["a", 3] } });
    expect(result.ok).toBe(false);
    expect(fieldsOf(result)).toEqual(["extra", "filter.tags[1]", "limit", "q"]);
    const problems = Object.fromEntries(result.ok ? [] : result.issues.map((issue) => [issue.field, issue.problem]));
    expect(problems).toMatchObject({ q: "is required but missing", extra: "is not an allowed field" });
    expect(check(schema, { q: "news", limit: 5 })).toEqual({ ok: true, value: { q: "news", limit: 5 } });
  });

  it("lists the allowed values when an enum is broken", () => {
    const result = check({ type: "object", properties: { unit: { enum: ["celsius", "fahrenheit"] } } }, { unit: "kelvin" });
    expect(result).toEqual({ ok: false, issues: [{ field: "unit", problem: 'must be one of ["celsius","fahrenheit"]' }] });
  });

  it("fills defaults on a copy and leaves the caller's arguments as they were", () => {
    const args = { options: {} };
    const schema = { type: "object", properties: { page: { type: "integer", default: 1 }, options: { type: "object", properties: { verbose: { type: "boolean", default: false } } } } };
    expect(check(schema, args)).toEqual({ ok: true, value: { page: 1, options: { verbose: false } } });
    expect(args).toEqual({ options: {} });
  });

  it("fills defaults through `$ref` and `allOf`, in array items, and not from inside `anyOf`, where no branch is chosen", () => {
    const schema = {
      type: "object",
      $defs: { paging: { type: "object", properties: { page: { type: "integer", default: 1 }, size: { type: "integer", default: 20 } } } },
      properties: {
        paging: { $ref: "#/$defs/paging" },
        sort: { allOf: [{ type: "object", properties: { order: { enum: ["asc", "desc"], default: "asc" } } }] },
        rows: { type: "array", items: { type: "object", properties: { visible: { type: "boolean", default: true } } } },
        either: { anyOf: [{ type: "object", properties: { kind: { type: "string", default: "a" } } }] },
      },
    };
    expect(check(schema, { paging: { size: 5 }, sort: {}, rows: [{}, { visible: false }], either: {} })).toEqual({
      ok: true,
      value: { paging: { page: 1, size: 5 }, sort: { order: "asc" }, rows: [{ visible: true }, { visible: false }], either: {} },
    });
  });

  it("leaves the tool's schema exactly as it was, so what the model is shown does not change", () => {
    const schema = { $schema: DRAFT_07, type: "object", definitions: { id: { type: "string" } }, properties: { id: { $ref: "#/definitions/id" }, n: { type: "integer", default: 3 } } };
    const before = structuredClone(schema);
    check(schema, { id: 4 });
    expect(schema).toStrictEqual(before);
    expect(Object.getOwnPropertyNames(schema.properties.id)).toEqual(["$ref"]);
  });

  it("follows draft-07 `definitions` references and checks draft-07 tuples, extra items included", () => {
    const schema = {
      $schema: DRAFT_07,
      type: "object",
      definitions: { point: { type: "array", items: [{ type: "number" }, { type: "number" }], additionalItems: false } },
      properties: { from: { $ref: "#/definitions/point" }, to: { $ref: "#/definitions/point" } },
      required: ["from"],
    };
    expect(check(schema, { from: [0, 1], to: [2, 3] }).ok).toBe(true);
    expect(check(schema, { from: [0, "one"] })).toEqual({ ok: false, issues: [{ field: "from[1]", problem: "must be number" }] });
    expect(check(schema, { from: [0, 1, 2] }).ok).toBe(false);
  });

  it("applies draft-07 `dependencies` to a schema that declares draft-07", () => {
    const schema = { $schema: DRAFT_07, type: "object", properties: { card: { type: "string" }, billing: { type: "string" } }, dependencies: { card: ["billing"] } };
    expect(check(schema, { card: "4111" }).ok).toBe(false);
    expect(check(schema, { card: "4111", billing: "Paris" }).ok).toBe(true);
  });

  it("follows 2020-12 `$defs`, recursive references and `prefixItems`", () => {
    const schema = {
      $schema: DRAFT_2020,
      type: "object",
      $defs: { node: { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } }, required: ["name"] } },
      properties: { root: { $ref: "#/$defs/node" }, pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false } },
    };
    expect(check(schema, { root: { name: "a", children: [{ name: "b", children: [] }] }, pair: ["x", 1] }).ok).toBe(true);
    expect(fieldsOf(check(schema, { root: { name: "a", children: [{ children: [] }] } }))).toEqual(["root.children[0].name"]);
    expect(check(schema, { pair: ["x", 1, 2] }).ok).toBe(false);
    expect(check(schema, { pair: [1, 1] }).ok).toBe(false);
  });

  it("treats a schema without `$schema` as 2020-12 and still reads `definitions` references in it", () => {
    const schema = { type: "object", definitions: { id: { type: "string", minLength: 3 } }, properties: { id: { $ref: "#/definitions/id" } } };
    expect(check(schema, { id: "abc" }).ok).toBe(true);
    expect(fieldsOf(check(schema, { id: "a" }))).toEqual(["id"]);
  });

  it("checks the common formats: email, date-time, date, uri, uuid", () => {
    const schema = {
      type: "object",
      properties: { email: { type: "string", format: "email" }, when: { type: "string", format: "date-time" }, day: { type: "string", format: "date" }, link: { type: "string", format: "uri" }, id: { type: "string", format: "uuid" } },
    };
    const good = { email: "ada@example.com", when: "2026-11-23T10:00:00Z", day: "2026-11-23", link: "https://example.com/a?b=c", id: "123e4567-e89b-42d3-a456-426614174000" };
    expect(check(schema, good).ok).toBe(true);
    expect(fieldsOf(check(schema, { email: "ada", when: "yesterday", day: "2026-13-45", link: "not a uri", id: "42" }))).toEqual(["day", "email", "id", "link", "when"]);
  });

  it("accepts any value for formats it does not know (OpenAPI's int64, binary, ...) and prints nothing about them", () => {
    const warn = vi.spyOn(console, "warn");
    const log = vi.spyOn(console, "log");
    const error = vi.spyOn(console, "error");
    const schema = { type: "object", properties: { size: { type: "integer", format: "int64" }, file: { type: "string", format: "binary" }, page: { type: "string", format: "html" } } };
    expect(check(schema, { size: 12, file: "\u0000\u0001", page: "<p>hi</p>" }).ok).toBe(true);
    expect([...warn.mock.calls, ...log.mock.calls, ...error.mock.calls]).toEqual([]);
  });

  it("throws a ConfigurationError naming the tool when the schema cannot be compiled", () => {
    const broken = { type: "object", properties: { x: { $ref: "#/definitions/missing" } } };
    expect(() => compileArgumentsCheck(broken, "lookup")).toThrow(ConfigurationError);
    expect(() => compileArgumentsCheck(broken, "lookup")).toThrow(/tool "lookup" is not a valid JSON Schema.*Fix the schema/);
  });
});
