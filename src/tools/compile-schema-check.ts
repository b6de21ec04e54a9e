import { createRequire } from "node:module";
import type { OutputUnit, Schema, SchemaDraft } from "@cfworker/json-schema";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { outputUnitsToIssues } from "./argument-issues.js";
import { fillDefaults } from "./fill-defaults.js";
import type { ArgumentsCheck, JsonSchema } from "./tool.js";
import { endSentence } from "../errors/sentence.js";

/** The part of @cfworker/json-schema toolsmith uses. */
interface CfworkerJsonSchema {
  dereference(schema: Schema): Record<string, unknown>;
  validate(instance: unknown, schema: Schema, draft: SchemaDraft, lookup: Record<string, unknown>, shortCircuit: boolean): { valid: boolean; errors: OutputUnit[] };
}

// One library reads every draft tool schemas arrive in (MCP servers send
// draft-07, zod 4 writes 2020-12); bench/README.md has the figures that chose
// it over ajv. It is required (its CommonJS build, so checks stay synchronous)
// when a schema is first compiled, never by `import "toolsmith"`.
let library: CfworkerJsonSchema | undefined;
const loadLibrary = () => (library ??= createRequire(import.meta.url)("@cfworker/json-schema") as CfworkerJsonSchema);

/**
 * Compiles a JSON Schema into a check of tool arguments, each time it is
 * called (compileArgumentsCheck keeps the result per schema). See there.
 */
export function compileSchemaCheck(schema: JsonSchema, toolName: string): (args: Record<string, unknown>) => ArgumentsCheck {
  const { dereference, validate } = loadLibrary();
  // The library marks the schema's nodes as it reads them; those belong to the tool, so it reads a copy.
  const { $schema: _dialect, ...body } = structuredClone(schema);
  const draft = draftOf(schema);
  let lookup: Record<string, unknown>;
  try {
    lookup = dereference(body as Schema);
    const unresolved = Object.values(lookup).find((node) => typeof node === "object" && node !== null && referenceOf(node) !== undefined && !(referenceOf(node)! in lookup));
    if (unresolved) throw new Error(`$ref "${String((unresolved as { $ref: unknown }).$ref)}" leads nowhere in the schema`);
    // The validator follows such a loop until the stack overflows, on the first value that reaches it.
    const circular = Object.values(lookup).find((node) => typeof node === "object" && node !== null && leadsBackToItself(node, lookup));
    if (circular) throw new Error(`$ref "${String((circular as { $ref: unknown }).$ref)}" leads back to itself through references only`);
  } catch (error) {
    throw new ConfigurationError("INVALID_TOOL_SCHEMA", `The parameters schema of tool "${toolName}" is not a valid JSON Schema: ${endSentence((error as Error).message)} Fix the schema.`, { cause: error });
  }
  return (args) => {
    const copy = structuredClone(args);
    fillDefaults(body, copy, lookup);
    const result = validate(copy, body as Schema, draft, lookup, false);
    return result.valid ? { ok: true, value: copy } : { ok: false, issues: outputUnitsToIssues(body, lookup, result.errors) };
  };
}

/** Where the library resolved a node's `$ref` to (absolute), if the node has one. */
function referenceOf(node: object): string | undefined {
  return (node as { __absolute_ref__?: string }).__absolute_ref__;
}

/** Whether following `$ref`s from this node, and nothing else, comes back to a node already passed. */
function leadsBackToItself(node: object, lookup: Record<string, unknown>): boolean {
  const passed = new Set<unknown>();
  for (let current: unknown = node; typeof current === "object" && current !== null && referenceOf(current) !== undefined; current = lookup[referenceOf(current)!]) {
    if (passed.has(current)) return true;
    passed.add(current);
  }
  return false;
}

function draftOf(schema: JsonSchema): SchemaDraft {
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  if (/draft-0[45]/.test(dialect)) return "4";
  if (/draft-0[67]/.test(dialect)) return "7";
  return dialect.includes("2019-09") ? "2019-09" : "2020-12";
}
