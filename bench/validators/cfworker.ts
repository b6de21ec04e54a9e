/**
 * Candidate: @cfworker/json-schema, an interpreter (nothing is compiled to
 * code) that reads drafts 4, 7, 2019-09 and 2020-12 by itself, as toolsmith
 * now uses it (src/tools/compile-schema-check.ts): with toolsmith's own
 * filling of defaults and its up-front check that every `$ref` resolves,
 * which the library does not do.
 */
import { compileSchemaCheck } from "../../src/tools/compile-schema-check.js";
import { cachingValidator, type ArgumentsValidator } from "./argument-validator.js";

export function createValidator(): ArgumentsValidator {
  return cachingValidator(compileSchemaCheck);
}

const shared = createValidator();
export const compileArgumentsCheck: ArgumentsValidator["compile"] = (schema, toolName) => shared.compile(schema, toolName);
