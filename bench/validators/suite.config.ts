/**
 * The suite's configuration with src/tools/json-schema-validator.ts replaced
 * by one candidate's wrapper (`VALIDATOR_CANDIDATE=<file name without .ts>`),
 * so the suite's own validation tests measure that library's correctness.
 */
import { fileURLToPath } from "node:url";
import type { ViteUserConfig } from "vitest/config";
import base from "../../vitest.config.js";

const candidate = process.env.VALIDATOR_CANDIDATE;
if (!candidate) throw new Error("Set VALIDATOR_CANDIDATE to the file name of a wrapper in bench/validators, e.g. ajv-one-instance.");

const replacement = { find: /^(?:\.\.?\/)+(?:src\/)?(?:tools\/)?json-schema-validator\.js$/, replacement: fileURLToPath(new URL(`./${candidate}.ts`, import.meta.url)) };
const config: ViteUserConfig = {
  ...base,
  resolve: { alias: [replacement, ...((base.resolve?.alias ?? []) as Array<typeof replacement>)] },
  // None of the validation tests needs the PostgreSQL cluster the suite's global setup starts.
  test: { ...base.test, globalSetup: [] },
};
export default config;
