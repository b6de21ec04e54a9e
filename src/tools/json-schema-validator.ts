import { createRequire } from "node:module";
import type { Ajv, ErrorObject, Options, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { ArgumentIssue, ArgumentsCheck, JsonSchema } from "./tool.js";

// ajv, its 2020-12 build and ajv-formats cost more to load than the rest of
// toolsmith's root entry together, so they are required (they are CommonJS,
// and require keeps compiling synchronous) the first time a schema is compiled,
// never by `import "toolsmith"`.
const requireFromHere = createRequire(import.meta.url);

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/**
 * JSON Schema makes `format` an annotation and tells validators to ignore the
 * formats they do not know; tool schemas carry many (OpenAPI's "int64",
 * "binary", "html", ...). ajv would print a warning for each one, on the
 * user's console, about something neither they nor we need to fix.
 */
const quietAboutUnknownFormats = {
  log: () => undefined,
  warn: (...message: unknown[]) => {
    if (typeof message[0] === "string" && message[0].startsWith("unknown format")) return;
    console.warn(...message);
  },
  error: (...message: unknown[]) => console.error(...message),
};

const OPTIONS: Options = { allErrors: true, strict: false, useDefaults: true, validateSchema: false, logger: quietAboutUnknownFormats };

function withFormats<T>(ajv: T): T {
  const addFormats = requireFromHere("ajv-formats") as (ajv: T) => void;
  addFormats(ajv);
  return ajv;
}

function validatorFor(schema: JsonSchema): Ajv | Ajv2020 {
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  if (/draft-0[4-7]/.test(dialect)) {
    draft07 ??= withFormats(new (requireFromHere("ajv") as typeof Ajv)(OPTIONS));
    return draft07;
  }
  draft2020 ??= withFormats(new (requireFromHere("ajv/dist/2020.js") as typeof Ajv2020)(OPTIONS));
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
