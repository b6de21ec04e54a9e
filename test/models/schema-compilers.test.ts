import { describe, expect, it } from "vitest";
import { compileAnthropicSchema, compileGeminiSchema, compileOpenAISchema, restoreArguments, type SchemaFinding } from "../../src/models/schema/index.js";

const summary = (findings: SchemaFinding[]) => findings.map((finding) => `${finding.effect} ${finding.path} ${finding.keyword}`);
const object = (properties: Record<string, unknown>, required?: string[]) => ({ type: "object", properties, ...(required ? { required } : {}) });

describe("compileGeminiSchema, per keyword", () => {
  it("merges allOf parts (a $ref among them) into one object with every property and every required name", () => {
    const parameters = {
      type: "object",
      properties: { pet: { allOf: [{ $ref: "#/$defs/Named" }, object({ age: { type: "integer" } }, ["age"])] } },
      $defs: { Named: object({ name: { type: "string" } }, ["name"]) },
    };
    const { schema, findings } = compileGeminiSchema(parameters);
    expect(schema).toEqual({ type: "OBJECT", properties: { pet: { type: "OBJECT", properties: { name: { type: "STRING" }, age: { type: "INTEGER" } }, required: ["name", "age"] } } });
    expect(summary(findings)).toContain("rejected /properties/pet allOf");
  });

  it("sends a list of types as anyOf, with null as nullable", () => {
    const { schema, findings } = compileGeminiSchema(object({ id: { type: ["string", "integer", "null"], description: "Name or number." } }));
    expect((schema as any).properties.id).toEqual({ anyOf: [{ type: "STRING", description: "Name or number." }, { type: "INTEGER", description: "Name or number." }], description: "Name or number.", nullable: true });
    expect(summary(findings)).toContain("rejected /properties/id type");
  });

  it("moves an enum of numbers into the description, since Gemini takes enums of strings only", () => {
    const { schema, findings } = compileGeminiSchema(object({ stars: { enum: [1, 2, 3], description: "Rating." } }));
    expect((schema as any).properties.stars).toEqual({ type: "INTEGER", description: "Rating. (one of 1, 2, 3)" });
    expect(summary(findings)).toEqual(["weakened /properties/stars/enum enum"]);
  });

  it("keeps the formats Gemini knows for each type and drops the rest", () => {
    const { schema, findings } = compileGeminiSchema(
      object({ at: { type: "string", format: "date-time" }, site: { type: "string", format: "uri" }, big: { type: "integer", format: "int64" }, ratio: { type: "number", format: "float" }, odd: { type: "string", format: "int32" } }),
    );
    expect((schema as any).properties).toEqual({
      at: { type: "STRING", format: "date-time" },
      site: { type: "STRING" },
      big: { type: "INTEGER", format: "int64" },
      ratio: { type: "NUMBER", format: "float" },
      odd: { type: "STRING" },
    });
    expect(summary(findings)).toEqual(["weakened /properties/site/format format", "weakened /properties/odd/format format"]);
  });

  it("copies the keywords Gemini's Schema has, takes the first of `examples`, and reports the ones it lacks", () => {
    const { schema, findings } = compileGeminiSchema(object({ code: { type: "string", minLength: 2, maxLength: 8, pattern: "^[A-Z]+$", default: "AB", examples: ["XY", "ZZ"] }, tags: { type: "array", items: { type: "string" }, uniqueItems: true, maxItems: 3 } }));
    expect((schema as any).properties).toEqual({
      code: { type: "STRING", minLength: 2, maxLength: 8, pattern: "^[A-Z]+$", default: "AB", example: "XY" },
      tags: { type: "ARRAY", items: { type: "STRING" }, maxItems: 3 },
    });
    expect(summary(findings)).toEqual(["weakened /properties/tags/uniqueItems uniqueItems"]);
  });

  it("describes a map as an empty object, keeps only required names that are declared, and reports both", () => {
    const { schema, findings } = compileGeminiSchema({ type: "object", properties: { labels: { type: "object", additionalProperties: { type: "string" } } }, required: ["labels", "ghost"] });
    expect(schema).toEqual({ type: "OBJECT", properties: { labels: { type: "OBJECT" } }, required: ["labels"] });
    expect(summary(findings)).toEqual(["weakened /properties/labels properties", "weakened /properties/labels/additionalProperties additionalProperties"]);
  });

  it("offers a tuple's items as any of the listed schemas", () => {
    const { schema, findings } = compileGeminiSchema(object({ point: { type: "array", prefixItems: [{ type: "number" }, { type: "string" }] } }));
    expect((schema as any).properties.point).toEqual({ type: "ARRAY", items: { anyOf: [{ type: "NUMBER" }, { type: "STRING" }] } });
    expect(findings.map((finding) => finding.keyword)).toContain("prefixItems");
  });

  it("offers a field whose $ref cannot be followed, or whose type is only null, in the loosest form Gemini has", () => {
    const { schema, findings } = compileGeminiSchema(object({ remote: { $ref: "https://example.com/schema.json" }, nothing: { type: "null" } }));
    expect((schema as any).properties).toEqual({
      remote: { anyOf: [{ type: "STRING" }, { type: "NUMBER" }, { type: "BOOLEAN" }, { type: "OBJECT" }], nullable: true },
      nothing: { type: "STRING", nullable: true },
    });
    expect(summary(findings)).toEqual(["weakened /properties/remote $ref", "weakened /properties/nothing type"]);
  });
});

describe("compileOpenAISchema, strict mode", () => {
  it("leaves out keywords and formats strict mode rejects, reporting each, and keeps the ones it takes", () => {
    const { schema, strict, findings } = compileOpenAISchema(
      object({ email: { type: "string", format: "email", minLength: 3 }, site: { type: "string", format: "uri", default: "https://a.example" }, count: { type: "integer", minimum: 1, maximum: 9 } }, ["email", "site", "count"]),
    );
    expect(strict).toBe(true);
    expect(schema).toEqual({
      type: "object",
      properties: { email: { type: "string", format: "email" }, site: { type: "string" }, count: { type: "integer", minimum: 1, maximum: 9 } },
      required: ["email", "site", "count"],
      additionalProperties: false,
    });
    expect(summary(findings)).toEqual(["weakened /properties/email/minLength minLength", "weakened /properties/site/format format", "weakened /properties/site/default default"]);
  });

  it("makes optional references, enums and consts nullable in the forms strict mode understands", () => {
    const parameters = {
      type: "object",
      properties: { owner: { $ref: "#/$defs/Person" }, color: { type: "string", enum: ["red", "green"] }, kind: { const: "pet" } },
      $defs: { Person: object({ name: { type: "string" } }, ["name"]) },
    };
    const { schema, strict } = compileOpenAISchema(parameters);
    expect(strict).toBe(true);
    expect(schema.properties).toEqual({
      owner: { anyOf: [{ $ref: "#/$defs/Person" }, { type: "null" }] },
      color: { type: ["string", "null"], enum: ["red", "green", null] },
      kind: { anyOf: [{ const: "pet" }, { type: "null" }] },
    });
    expect(schema.required).toEqual(["owner", "color", "kind"]);
    expect(schema.$defs).toEqual({ Person: { type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: false } });
  });

  it("puts a description next to a $ref on a one-branch anyOf, since a reference must stand alone", () => {
    const parameters = { type: "object", properties: { home: { $ref: "#/$defs/Place", description: "Where they live." } }, required: ["home"], $defs: { Place: object({ city: { type: "string" } }, ["city"]) } };
    expect(compileOpenAISchema(parameters).schema.properties).toEqual({ home: { description: "Where they live.", anyOf: [{ $ref: "#/$defs/Place" }] } });
  });

  it("sends oneOf as anyOf and infers object for properties without a type", () => {
    const parameters = object({ target: { oneOf: [{ properties: { id: { type: "string" } }, required: ["id"] }, { type: "string" }] } }, ["target"]);
    const { schema, strict, findings } = compileOpenAISchema(parameters);
    expect(strict).toBe(true);
    expect(schema.properties).toEqual({ target: { anyOf: [{ type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false }, { type: "string" }] } });
    expect(summary(findings)).toContain("rejected /properties/target oneOf");
  });

  it("closes an object that allowed extra fields besides its named ones, and says so", () => {
    const { schema, strict, findings } = compileOpenAISchema({ type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: true });
    expect(strict).toBe(true);
    expect(schema.additionalProperties).toBe(false);
    expect(summary(findings)).toEqual(["weakened /additionalProperties additionalProperties"]);
  });

  it.each([
    ["a map", object({ labels: { type: "object", additionalProperties: { type: "string" } } }), "/properties/labels/additionalProperties"],
    ["a free-form object", object({ meta: { type: "object" } }), "/properties/meta"],
    ["allOf", object({ both: { allOf: [{ type: "string" }, { minLength: 1 }] } }), "/properties/both"],
    ["a tuple", object({ pair: { type: "array", prefixItems: [{ type: "string" }] } }), "/properties/pair/prefixItems"],
    ["an array without items", object({ list: { type: "array" } }), "/properties/list/items"],
    ["a field of any value", object({ anything: {} }), "/properties/anything"],
    ["nesting deeper than 10 levels", Array.from({ length: 11 }).reduce<Record<string, unknown>>((inner) => object({ n: inner }, ["n"]), { type: "string" }), "/properties/n".repeat(11)],
  ])("falls back to strict: false with the schema as written for %s", (_case, parameters, path) => {
    const { schema, strict, findings } = compileOpenAISchema(parameters as Record<string, unknown>);
    expect(strict).toBe(false);
    expect(schema).toEqual(parameters);
    expect(findings.at(-1)).toMatchObject({ path, effect: "weakened", message: expect.stringContaining("strict: false") });
  });

  it("without strict mode, keeps optional fields optional and open objects open, but renames definitions to $defs", () => {
    const parameters = { type: "object", properties: { where: { $ref: "#/definitions/Place" }, note: { type: "string", minLength: 1 } }, definitions: { Place: { type: "string" } } };
    const { schema, strict, findings } = compileOpenAISchema(parameters, { strict: false });
    expect(strict).toBe(false);
    expect(schema).toEqual({ type: "object", properties: { where: { $ref: "#/$defs/Place" }, note: { type: "string", minLength: 1 } }, $defs: { Place: { type: "string" } } });
    expect(findings).toEqual([]);
  });
});

describe("the object root every provider requires", () => {
  it("merges a root union into one object whose required fields are those every branch requires", () => {
    const union = { anyOf: [object({ id: { type: "string" }, name: { type: "string" } }, ["id", "name"]), object({ id: { type: "string" }, email: { type: "string" } }, ["id"])] };
    const expected = { type: "object", properties: { id: { type: "string" }, name: { type: "string" }, email: { type: "string" } }, required: ["id"] };
    expect(compileAnthropicSchema(union).schema).toEqual(expected);
    expect(compileOpenAISchema(union, { strict: false }).schema).toEqual(expected);
    expect(compileGeminiSchema(union).schema).toEqual({ type: "OBJECT", properties: { id: { type: "STRING" }, name: { type: "STRING" }, email: { type: "STRING" } }, required: ["id"] });
  });

  it("declares a tool whose parameters are not an object as taking none, and says why", () => {
    const { schema, findings } = compileAnthropicSchema({ type: "string" });
    expect(schema).toEqual({ type: "object", properties: {} });
    expect(findings).toEqual([expect.objectContaining({ path: "", keyword: "type", effect: "rejected" })]);
    expect(compileGeminiSchema({ type: "array", items: { type: "string" } }).schema).toBeUndefined();
  });

  it("follows a root $ref into $defs and keeps the definitions beside it", () => {
    const parameters = { $ref: "#/$defs/Args", $defs: { Args: object({ q: { type: "string" } }, ["q"]) } };
    expect(compileOpenAISchema(parameters).schema).toMatchObject({ type: "object", properties: { q: { type: "string" } }, required: ["q"], additionalProperties: false });
    expect(compileGeminiSchema(parameters).schema).toEqual({ type: "OBJECT", properties: { q: { type: "STRING" } }, required: ["q"] });
  });
});

describe("compileAnthropicSchema", () => {
  it("passes JSON Schema through as written apart from $schema and a root allOf", () => {
    const parameters = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { site: { type: "string", format: "uri", minLength: 5 }, mode: { oneOf: [{ const: "a" }, { const: "b" }] }, labels: { type: "object", additionalProperties: { type: "string" } } },
      allOf: [{ required: ["site"] }],
      additionalProperties: false,
    };
    const { schema, findings } = compileAnthropicSchema(parameters);
    const { $schema: _dialect, allOf: _allOf, ...expected } = parameters;
    expect(schema).toEqual(expected);
    expect(summary(findings)).toEqual(["weakened  allOf"]);
  });

  it("declares a tool without parameters as an empty object", () => {
    expect(compileAnthropicSchema(undefined)).toEqual({ schema: { type: "object", properties: {} }, findings: [] });
  });
});

describe("restoreArguments", () => {
  const parameters = {
    type: "object",
    required: ["title", "due"],
    properties: {
      title: { type: "string" },
      due: { type: ["string", "null"] },
      note: { type: "string" },
      assignee: { anyOf: [{ $ref: "#/$defs/Person" }, { type: "null" }] },
      subtasks: { type: "array", items: { $ref: "#/$defs/Task" } },
    },
    $defs: { Person: object({ name: { type: "string" } }), Task: { allOf: [object({ label: { type: "string" }, estimate: { type: "number" } })], required: ["label"] } },
  };

  it("drops nulls only for optional fields that do not accept null, also inside arrays and through $refs", () => {
    const restored = restoreArguments(parameters, {
      title: "Ship",
      due: null,
      note: null,
      assignee: null,
      subtasks: [
        { label: "a", estimate: null },
        { label: null, estimate: 2 },
      ],
    });
    expect(restored).toEqual({ title: "Ship", due: null, assignee: null, subtasks: [{ label: "a" }, { label: null, estimate: 2 }] });
  });

  it("keeps fields the schema does not name, and leaves the arguments it was given untouched", () => {
    const args = { title: "Ship", due: "today", note: null, extra: null };
    expect(restoreArguments(parameters, args)).toEqual({ title: "Ship", due: "today", extra: null });
    expect(args).toEqual({ title: "Ship", due: "today", note: null, extra: null });
  });
});
