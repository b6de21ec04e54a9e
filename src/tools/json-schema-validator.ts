import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { ArgumentIssue, ArgumentsCheck, JsonSchema } from "./tool.js";

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: unknown) => void;

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

function validatorFor(schema: JsonSchema): Ajv | Ajv2020 {
  const options = { allErrors: true, strict: false, useDefaults: true, validateSchema: false } as const;
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  if (/draft-0[4-7]/.test(dialect)) {
    if (!draft07) addFormats((draft07 = new Ajv(options)));
    return draft07;
  }
  if (!draft2020) addFormats((draft2020 = new Ajv2020(options)));
  return draft2020;
}

/**
 * Compiles a JSON Schema once (cached per schema object) into a check of tool
 * arguments. Defaults in the schema are filled in on a copy of the arguments.
 */
export function compileArgumentsCheck(schema: JsonSchema, toolName: string): (args: Record<string, unknown>) => ArgumentsCheck {
  let validate = compiled.get(schema);
  if (!validate) {
    try {
      const { $schema: _dialect, ...body } = schema;
      validate = validatorFor(schema).compile(body);
    } catch (error) {
      throw new ConfigurationError(
        "INVALID_TOOL_SCHEMA",
        `The parameters schema of tool "${toolName}" is not a valid JSON Schema: ${(error as Error).message}. Fix the schema.`,
        { cause: error },
      );
    }
    compiled.set(schema, validate);
  }
  const check = validate;
  return (args) => {
    const copy = structuredClone(args);
    if (check(copy)) return { ok: true, value: copy };
    return { ok: false, issues: (check.errors ?? []).map(toIssue) };
  };
}

function toIssue(error: ErrorObject): ArgumentIssue {
  const base = pointerToField(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") return { field: join(base, String(params.missingProperty)), problem: "is required but missing" };
  if (error.keyword === "additionalProperties") {
    return { field: join(base, String(params.additionalProperty)), problem: "is not an allowed field" };
  }
  if (error.keyword === "enum") return { field: base, problem: `must be one of ${JSON.stringify(params.allowedValues)}` };
  return { field: base, problem: error.message ?? `fails the "${error.keyword}" rule` };
}

function pointerToField(pointer: string): string {
  if (!pointer) return "";
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((field, segment) => (/^\d+$/.test(segment) ? `${field}[${segment}]` : join(field, segment)), "");
}

function join(base: string, name: string): string {
  return base ? `${base}.${name}` : name;
}
