import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { FunctionTool, type ArgumentsCheck, type JsonSchema } from "../../../src/index.js";
import { compileAnthropicSchema, compileGeminiSchema, compileOpenAISchema, restoreArguments } from "../../../src/models/schema/index.js";
import { compileArgumentsCheck } from "../../../src/tools/json-schema-validator.js";
import { listReferenceServerTools } from "../support/mcp-tool-schemas.js";
import { geminiViolations, objectRootViolations, openAIStrictViolations } from "../support/provider-constraints.js";
import { fillNulls, geminiToJsonSchema, sampleArguments } from "../support/sample-arguments.js";

interface CorpusEntry {
  name: string;
  parameters: JsonSchema;
  check: (args: Record<string, unknown>) => ArgumentsCheck;
}

interface Category {
  name: string;
  children: Category[];
}
const category: z.ZodType<Category> = z.object({ name: z.string(), get children() { return z.array(category); } });

/** zod schemas with the features that trip providers up. */
const zodCorpus: Record<string, z.ZodType> = {
  optional: z.object({ query: z.string().describe("What to search for"), limit: z.number().int().min(1).max(50).optional() }),
  nullable: z.object({ note: z.string().nullable(), tag: z.string().nullable().optional() }),
  union: z.object({ target: z.union([z.string(), z.number()]), contact: z.union([z.object({ email: z.email() }), z.object({ phone: z.string().min(3) })]) }),
  enum: z.object({ unit: z.enum(["celsius", "fahrenheit"]), level: z.literal("high"), priority: z.union([z.literal(1), z.literal(2)]).optional() }),
  nested: z.object({ address: z.object({ street: z.string(), city: z.string(), zip: z.string().length(5).optional() }), tags: z.array(z.string()).min(1) }),
  array: z.object({ items: z.array(z.object({ sku: z.string(), quantity: z.number().int().positive() })), matrix: z.array(z.array(z.number())).optional() }),
  recursive: z.object({ root: category, depth: z.number().int().optional() }),
  rootUnion: z.discriminatedUnion("kind", [z.object({ kind: z.literal("circle"), radius: z.number() }), z.object({ kind: z.literal("square"), side: z.number() })]),
  map: z.object({ labels: z.record(z.string(), z.string()), meta: z.object({ id: z.string() }).optional() }),
  defaults: z.object({ page: z.number().int().default(1), verbose: z.boolean().default(false), when: z.iso.datetime().optional() }),
};

const corpus: CorpusEntry[] = [];

beforeAll(async () => {
  for (const [name, schema] of Object.entries(zodCorpus)) {
    const tool = new FunctionTool({ name: `zod_${name}`, description: name, parameters: schema, execute: () => ({}) });
    corpus.push({ name: `zod ${name}`, parameters: tool.declaration()!.parameters!, check: (args) => tool.checkArguments!(args) });
  }
  for (const tool of await listReferenceServerTools()) {
    corpus.push({ name: `${tool.server} ${tool.name}`, parameters: tool.inputSchema, check: compileArgumentsCheck(tool.inputSchema, tool.name) });
  }
}, 60_000);

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
function acceptedBy(schema: JsonSchema, value: unknown): string {
  const validate = ajv.compile(schema);
  return validate(value) ? "accepted" : ajv.errorsText(validate.errors);
}

/** Valid arguments, as the model sends them, restored and checked against the original schema. */
function roundTrip(entry: CorpusEntry, compiled: JsonSchema, options: { strict?: boolean } = {}) {
  const results = [];
  for (const mode of ["minimal", "full"] as const) {
    const sample = sampleArguments(entry.parameters, mode);
    const original = entry.check(sample);
    expect(original, `${entry.name}: the ${mode} sample must be valid`).toMatchObject({ ok: true });
    // A model that spells out every field sends null for the ones it leaves out.
    // In OpenAI strict mode it must send every field the compiled schema names.
    const sent = (options.strict ? fillNulls(sample, compiled, { everyField: true }) : fillNulls(sample, entry.parameters, {})) as Record<string, unknown>;
    const expected = entry.check(fillNulls(sample, entry.parameters, { onlyWhereNullAccepted: true }) as Record<string, unknown>);
    results.push({ sample, sent, accepted: acceptedBy(compiled, sent), restored: entry.check(restoreArguments(entry.parameters, sent)), expected, asIs: entry.check(restoreArguments(entry.parameters, sample)), original });
  }
  return results;
}

describe("schema compiler over zod schemas and the MCP reference servers' tools", () => {
  it("has the whole corpus: every zod case and every tool of the three reference servers", () => {
    expect(corpus.filter((entry) => entry.name.startsWith("zod ")).length).toBe(Object.keys(zodCorpus).length);
    for (const server of ["server-everything", "server-filesystem", "server-memory"]) expect(corpus.filter((entry) => entry.name.startsWith(server)).length).toBeGreaterThan(3);
  });

  it("compiles every schema to what Gemini accepts, and valid arguments round-trip", () => {
    for (const entry of corpus) {
      const { schema } = compileGeminiSchema(entry.parameters);
      expect(geminiViolations(schema), entry.name).toEqual([]);
      const asJsonSchema = schema ? geminiToJsonSchema(schema) : { type: "object" };
      for (const result of roundTrip(entry, asJsonSchema)) {
        expect(acceptedBy(asJsonSchema, result.sample), `${entry.name}: Gemini's schema accepts valid arguments`).toBe("accepted");
        expect(result.asIs, entry.name).toEqual(result.original);
        expect(result.restored, entry.name).toEqual(result.expected);
      }
    }
  });

  it("compiles every schema to OpenAI strict mode where it can, and falls back to non-strict otherwise", () => {
    const fellBack: string[] = [];
    for (const entry of corpus) {
      const compiled = compileOpenAISchema(entry.parameters);
      if (compiled.strict) expect(openAIStrictViolations(compiled.schema), entry.name).toEqual([]);
      else {
        fellBack.push(entry.name);
        expect(objectRootViolations(compiled.schema), entry.name).toEqual([]);
        expect(compiled.findings.some((finding) => finding.message.includes("strict: false")), entry.name).toBe(true);
      }
      for (const result of roundTrip(entry, compiled.schema, { strict: compiled.strict })) {
        // In strict mode the model must send every field, so the nulls are what it sends.
        expect(acceptedBy(compiled.schema, compiled.strict ? result.sent : result.sample), `${entry.name}: OpenAI's schema accepts what the model sends`).toBe("accepted");
        expect(result.restored, entry.name).toEqual(result.expected);
      }
    }
    // Free-form maps cannot be strict; everything with fixed fields can.
    expect(fellBack).toContain("zod map");
    expect(fellBack).not.toContain("zod optional");
    expect(fellBack).not.toContain("zod recursive");
  });

  it("compiles every schema to Anthropic's input_schema, and valid arguments round-trip", () => {
    for (const entry of corpus) {
      const { schema } = compileAnthropicSchema(entry.parameters);
      expect(objectRootViolations(schema), entry.name).toEqual([]);
      for (const result of roundTrip(entry, schema)) {
        expect(acceptedBy(schema, result.sample), entry.name).toBe("accepted");
        expect(result.restored, entry.name).toEqual(result.expected);
      }
    }
  });

  it("sends non-strict schemas to OpenAI-compatible servers unchanged apart from the root", () => {
    const { schema, strict, findings } = compileOpenAISchema(corpus.find((entry) => entry.name === "zod optional")!.parameters, { strict: false });
    expect(strict).toBe(false);
    expect(findings).toEqual([]);
    expect(schema).toMatchObject({ type: "object", required: ["query"], properties: { limit: { type: "integer", minimum: 1, maximum: 50 } } });
  });
});
