/**
 * The tool-argument schemas the validators are measured on, as tools bring
 * them to toolsmith: the MCP reference servers' tools (draft-07, as
 * zod-to-json-schema writes them), zod 4 schemas (2020-12, `$defs`), and the
 * tools OpenAPIToolset makes from real specifications (OpenAPI formats such
 * as int64, `definitions`-free inlined schemas), each with valid arguments.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { z } from "zod";
import { FunctionTool } from "../../src/index.js";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import type { JsonSchema } from "../../src/tools/tool.js";
import { listReferenceServerTools } from "../../test/models/support/mcp-tool-schemas.js";
import { sampleArguments } from "../../test/models/support/sample-arguments.js";
import { createReadonlyContext } from "../../test/support/tool-context.js";

/** One tool's schema, where it came from, and arguments made from it. */
export interface CorpusSchema {
  name: string;
  source: "MCP (draft-07)" | "zod 4 (2020-12)" | "OpenAPI";
  schema: JsonSchema;
  samples: Record<string, unknown>[];
}

const OPENAPI_EXAMPLES = ["3.0/json/petstore.json", "3.0/json/circular.json", "3.0/json/callbacks.json", "3.0/json/parameters-style.json", "3.1/json/petstore.json", "3.1/json/train-travel.json", "3.1/json/schema-types.json"];

interface Category {
  name: string;
  children: Category[];
}
const category: z.ZodType<Category> = z.object({ name: z.string(), get children() { return z.array(category); } });

const ZOD_SCHEMAS: Record<string, z.ZodType> = {
  search: z.object({ query: z.string().describe("What to search for"), limit: z.number().int().min(1).max(50).optional() }),
  contact: z.object({ target: z.union([z.string(), z.number()]), contact: z.union([z.object({ email: z.email() }), z.object({ phone: z.string().min(3) })]) }),
  order: z.object({ items: z.array(z.object({ sku: z.string(), quantity: z.number().int().positive() })), when: z.iso.datetime().optional(), id: z.uuid() }),
  tree: z.object({ root: category, depth: z.number().int().optional() }),
  shape: z.discriminatedUnion("kind", [z.object({ kind: z.literal("circle"), radius: z.number() }), z.object({ kind: z.literal("square"), side: z.number() })]),
  labels: z.object({ labels: z.record(z.string(), z.string()), page: z.number().int().default(1) }),
};

/** Starts the MCP reference servers to read their tools, so this takes a few seconds. */
export async function loadCorpus(): Promise<CorpusSchema[]> {
  const corpus: CorpusSchema[] = [];
  const add = (name: string, source: CorpusSchema["source"], schema: JsonSchema) => corpus.push({ name, source, schema, samples: [sampleArguments(schema, "minimal"), sampleArguments(schema, "full")] });
  for (const tool of await listReferenceServerTools()) add(`${tool.server} ${tool.name}`, "MCP (draft-07)", tool.inputSchema);
  for (const [name, schema] of Object.entries(ZOD_SCHEMAS)) {
    add(`zod ${name}`, "zod 4 (2020-12)", new FunctionTool({ name, description: name, parameters: schema, execute: () => ({}) }).declaration().parameters!);
  }
  const examples = dirname(createRequire(import.meta.url).resolve("@readme/oas-examples/package.json"));
  const context = await createReadonlyContext();
  for (const example of OPENAPI_EXAMPLES) {
    // Only the tools' schemas are wanted; the base URL answers documents whose servers are relative ("/").
    for (const tool of await new OpenAPIToolset({ path: join(examples, example), baseUrl: "http://localhost/" }).getTools(context)) add(`${example} ${tool.name}`, "OpenAPI", tool.declaration()!.parameters!);
  }
  return corpus;
}
