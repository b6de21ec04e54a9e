/**
 * How the validator's errors read to the model: one issue per field and
 * problem, worded from the schema, wherever in the schema the rule sits.
 */
import { describe, expect, it } from "vitest";
import { compileSchemaCheck } from "../../src/tools/compile-schema-check.js";

const issuesOf = (schema: Record<string, unknown>, args: Record<string, unknown>) => {
  const result = compileSchemaCheck(schema, "tool")(args);
  return result.ok ? [] : result.issues;
};

describe("argument issues", () => {
  it("words a rule reached through `$ref` from the referenced schema", () => {
    const schema = { type: "object", $defs: { small: { type: "integer", maximum: 5 } }, properties: { n: { $ref: "#/$defs/small" } } };
    expect(issuesOf(schema, { n: 9 })).toEqual([{ field: "n", problem: "must be <= 5" }]);
  });

  it("names an extra tuple item and a field the schema forbids", () => {
    const schema = { type: "object", properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "string" }], items: false }, secret: false } };
    expect(issuesOf(schema, { pair: ["a", "b", "c"], secret: 1 })).toEqual([
      { field: "pair[2]", problem: "is one item more than allowed" },
      { field: "secret", problem: "is not an allowed field" },
    ]);
  });

  it("says a value matches none of the allowed shapes, and why it fails each", () => {
    const schema = { type: "object", properties: { id: { anyOf: [{ type: "string" }, { type: "integer" }] } } };
    expect(issuesOf(schema, { id: true })).toEqual([
      { field: "id", problem: "must match at least one of the allowed shapes" },
      { field: "id", problem: "must be string" },
      { field: "id", problem: "must be integer" },
    ]);
  });

  it("reports an additional field once, though the validator reports it twice", () => {
    const schema = { type: "object", properties: {}, additionalProperties: false };
    expect(issuesOf(schema, { extra: 1 })).toEqual([{ field: "extra", problem: "is not an allowed field" }]);
  });
});
