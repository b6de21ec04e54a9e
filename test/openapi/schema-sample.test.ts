import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sampleValue } from "../../bench/schema-sample.js";
import { compileArgumentsCheck } from "../../src/tools/json-schema-validator.js";

/** Whether toolsmith's validator, the one tools check their arguments with, accepts the value. */
function valid(schema: Record<string, unknown>, value: unknown): boolean {
  return compileArgumentsCheck({ type: "object", properties: { value: schema }, required: ["value"] }, "test")({ value }).ok;
}

/** The conformance test's argument generator on the schema shapes it used to give up on. */
describe("the conformance argument generator", () => {
  it("gives a oneOf of overlapping object branches a value that matches exactly one branch", () => {
    // Neither branch requires anything or forbids other fields: every full value of one matches the other too.
    const schema = {
      oneOf: [
        { type: "object", properties: { pet_type: { type: "string" }, hunts: { type: "boolean" } } },
        { type: "object", properties: { pet_type: { type: "string" }, bark: { type: "boolean" } } },
      ],
    };
    const value = sampleValue(schema) as Record<string, unknown>;
    expect(valid(schema, value)).toBe(true);
    expect(schema.oneOf.filter((branch) => valid(branch, value))).toHaveLength(1);
  });

  it("leaves out an optional field no value satisfies, and keeps the rest", () => {
    const schema = { type: "object", properties: { incompatible: { allOf: [{ type: "string" }, { type: "integer" }] }, name: { type: "string" } } };
    expect(sampleValue(schema)).toEqual({ name: "value" });
  });

  it("sends only the required fields where an allOf part allows no other property", () => {
    const schema = { allOf: [{ type: "object", properties: { id: { type: "integer" } }, required: ["id"], additionalProperties: false }, { type: "object", properties: { extra: { type: "string" } } }] };
    const value = sampleValue(schema);
    expect(value).toEqual({ id: 1 });
    expect(valid(schema, value)).toBe(true);
  });

  it("uses a format's example for a string whose pattern it also matches", () => {
    expect(sampleValue({ type: "string", format: "date", pattern: "^\\d{4}-\\d{2}-\\d{2}$" })).toBe("2024-05-06");
    expect(sampleValue({ type: "string", format: "relative-json-pointer" })).toBe("0/a");
  });

  it("gives every oneOf of distinct object branches a value it accepts (fuzzed)", () => {
    // Branches with their own field names and types, none required: the hardest case for exactly-one matching.
    const branch = fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.constantFrom("string", "integer", "boolean"), { minKeys: 1, maxKeys: 4 });
    let checked = 0;
    fc.assert(
      fc.property(fc.uniqueArray(branch, { minLength: 2, maxLength: 4, selector: (fields) => JSON.stringify(Object.entries(fields).sort()) }), (branches) => {
        const schema = { oneOf: branches.map((fields) => ({ type: "object", properties: Object.fromEntries(Object.entries(fields).map(([name, type]) => [name, { type }])) })) };
        const value = sampleValue(schema);
        // Branches that only repeat another's fields can admit no value that matches one of them alone.
        const distinct = schema.oneOf.every((one, index) => Object.keys(one.properties).some((name) => schema.oneOf.every((other, position) => position === index || !(name in other.properties))));
        if (!distinct) return;
        checked++;
        expect(valid(schema, value)).toBe(true);
      }),
      { numRuns: 200, seed: 6 },
    );
    console.log(`oneOf generator fuzzed: ${checked} schemas with distinct branches, each given a value matching exactly one branch`);
  });
});
