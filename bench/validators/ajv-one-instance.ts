/**
 * Candidate: one ajv 2020-12 instance with ajv-formats for every schema. A
 * draft-07 schema reads the same in 2020-12 except for the array form of
 * `items` (a tuple), which 2020-12 spells `prefixItems`, with `items` taking
 * the place of `additionalItems`; that one rewrite is made before compiling.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { ajvCheck } from "./ajv-error-to-issue.js";
import type { JsonSchema } from "../../src/tools/tool.js";
import { AJV_OPTIONS } from "./ajv-options.js";
import { cachingValidator, type ArgumentsValidator } from "./argument-validator.js";
import { draft07TuplesAs2020 } from "./draft-07-tuples.js";

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

export function createValidator(): ArgumentsValidator {
  let ajv: Ajv2020 | undefined;
  return cachingValidator((schema: JsonSchema) => {
    if (!ajv) addFormats((ajv = new Ajv2020(AJV_OPTIONS)));
    return ajvCheck((body) => ajv!.compile(body), draft07TuplesAs2020(schema));
  });
}

const shared = createValidator();
export const compileArgumentsCheck: ArgumentsValidator["compile"] = (schema, toolName) => shared.compile(schema, toolName);
