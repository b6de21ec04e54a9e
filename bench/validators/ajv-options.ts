import type { Options } from "ajv";

/** The ajv options toolsmith uses, with a logger that prints nothing, for the ajv candidates. */
export const AJV_OPTIONS: Options = {
  allErrors: true,
  strict: false,
  useDefaults: true,
  validateSchema: false,
  logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
};
