import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FunctionTool, type FunctionDeclaration } from "../../../src/index.js";
import { compileGeminiSchema, compileOpenAISchema, lintToolSchemas, restoreArguments } from "../../../src/models/schema/index.js";

function declaration(name: string, parameters: z.ZodType): FunctionDeclaration {
  return new FunctionTool({ name, description: name, parameters, execute: () => ({}) }).declaration()!;
}

interface Node {
  label: string;
  next?: Node;
}
const node: z.ZodType<Node> = z.object({ label: z.string(), get next() { return node.optional(); } });

const mcpStyle = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: { path: { $ref: "#/definitions/Path" }, mode: { oneOf: [{ const: "read" }, { const: "write" }] }, size: { type: ["integer", "null"], exclusiveMinimum: 0 } },
  required: ["path"],
  additionalProperties: false,
  definitions: { Path: { type: "string", format: "uri", description: "A file path" } },
};

describe("lintToolSchemas", () => {
  it("reports what Gemini rejects as written and what it silently weakens, per tool and path", () => {
    const findings = lintToolSchemas({ provider: "gemini", declarations: [{ name: "open_file", description: "", parameters: mcpStyle }] });
    const summary = findings.map((finding) => `${finding.effect} ${finding.path} ${finding.keyword}`);

    expect(summary).toEqual(
      expect.arrayContaining([
        "rejected /properties/path $ref",
        "weakened /properties/path/format format",
        "rejected /properties/mode oneOf",
        "rejected /properties/mode/anyOf/0 const",
        "weakened /properties/size/exclusiveMinimum exclusiveMinimum",
        "weakened /additionalProperties additionalProperties",
      ]),
    );
    expect(summary.filter((line) => line.includes("additionalProperties"))).toHaveLength(1);
    expect(findings.every((finding) => finding.tool === "open_file" && finding.provider === "gemini" && finding.message.length > 20)).toBe(true);
  });

  it("reports optional fields and the fall-back to non-strict for OpenAI", () => {
    const findings = lintToolSchemas({
      provider: "openai",
      declarations: [declaration("search", z.object({ query: z.string(), limit: z.number().optional() })), declaration("tag", z.object({ labels: z.record(z.string(), z.string()) }))],
    });

    expect(findings.find((finding) => finding.tool === "search")).toMatchObject({ path: "/properties/limit", keyword: "required", effect: "rejected" });
    expect(findings.find((finding) => finding.tool === "tag")).toMatchObject({ path: "/properties/labels/additionalProperties", effect: "weakened", message: expect.stringContaining("strict: false") });
  });

  it("finds nothing for OpenAI-compatible servers and Anthropic when the root is a plain object", () => {
    const declarations = [declaration("search", z.object({ query: z.string(), limit: z.number().optional() }))];
    expect(lintToolSchemas({ provider: "openai-compatible", declarations })).toEqual([]);
    expect(lintToolSchemas({ provider: "anthropic", declarations })).toEqual([]);
  });

  it("reports a union at the root for every provider", () => {
    const declarations = [declaration("shape", z.union([z.object({ radius: z.number() }), z.object({ side: z.number() })]))];
    for (const provider of ["gemini", "openai", "openai-compatible", "anthropic"] as const) {
      expect(lintToolSchemas({ provider, declarations })[0], provider).toMatchObject({ path: "", keyword: "anyOf", effect: "rejected" });
    }
  });
});

describe("compileGeminiSchema", () => {
  it("inlines definitions, turns null alternatives into nullable and const into an enum", () => {
    expect(compileGeminiSchema(mcpStyle).schema).toEqual({
      type: "OBJECT",
      properties: {
        path: { type: "STRING", description: "A file path" },
        mode: { anyOf: [{ type: "STRING", enum: ["read"], format: "enum" }, { type: "STRING", enum: ["write"], format: "enum" }] },
        size: { type: "INTEGER", nullable: true },
      },
      required: ["path"],
    });
  });

  it("cuts a recursive schema off after a few levels and says so", () => {
    const { schema, findings } = compileGeminiSchema(declaration("walk", z.object({ start: node })).parameters);
    let depth = 0;
    for (let current = (schema as any).properties.start; current?.properties?.next; current = current.properties.next) depth++;
    expect(depth).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(schema)).not.toContain("$ref");
    expect(findings.some((finding) => finding.keyword === "$ref" && finding.effect === "weakened" && finding.message.includes("recursive"))).toBe(true);
  });

  it("declares a tool without parameters when it takes none", () => {
    expect(compileGeminiSchema({ type: "object", properties: {} }).schema).toBeUndefined();
  });
});

describe("compileOpenAISchema and restoreArguments", () => {
  it("makes optional fields required and nullable, then maps a null back to absent", () => {
    const parameters = declaration("search", z.object({ query: z.string(), limit: z.number().optional(), note: z.string().nullable().optional() })).parameters!;
    const { schema, strict } = compileOpenAISchema(parameters);

    expect(strict).toBe(true);
    expect(schema).toMatchObject({
      required: ["query", "limit", "note"],
      additionalProperties: false,
      properties: { limit: { type: ["number", "null"] }, note: { type: ["string", "null"] } },
    });
    // A null for a field that accepts null is a value; for one that does not, it means "left out".
    expect(restoreArguments(parameters, { query: "q", limit: null, note: null })).toEqual({ query: "q", note: null });
  });

  it("keeps recursion through $defs in strict mode", () => {
    const { schema, strict } = compileOpenAISchema(declaration("walk", z.object({ start: node })).parameters);
    expect(strict).toBe(true);
    expect(JSON.stringify(schema)).toContain('"$ref"');
  });
});
