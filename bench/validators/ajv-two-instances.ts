/** Candidate: ajv as toolsmith used it up to now, a draft-07 instance and a 2020-12 instance, each with ajv-formats. */
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { ajvCheck } from "./ajv-error-to-issue.js";
import type { JsonSchema } from "../../src/tools/tool.js";
import { AJV_OPTIONS } from "./ajv-options.js";
import { cachingValidator, declaredDraft, type ArgumentsValidator } from "./argument-validator.js";

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv | Ajv2020) => void;

export function createValidator(): ArgumentsValidator {
  let draft07: Ajv | undefined;
  let draft2020: Ajv2020 | undefined;
  return cachingValidator((schema: JsonSchema) => {
    const draft = declaredDraft(schema);
    let ajv: Ajv | Ajv2020;
    if (draft === "4" || draft === "6" || draft === "7") {
      if (!draft07) addFormats((draft07 = new Ajv(AJV_OPTIONS)));
      ajv = draft07;
    } else {
      if (!draft2020) addFormats((draft2020 = new Ajv2020(AJV_OPTIONS)));
      ajv = draft2020;
    }
    return ajvCheck((body) => ajv.compile(body), schema);
  });
}

const shared = createValidator();
export const compileArgumentsCheck: ArgumentsValidator["compile"] = (schema, toolName) => shared.compile(schema, toolName);
