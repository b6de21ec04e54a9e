/**
 * Each JSON Schema candidate side by side, on toolsmith's own tool schemas
 * (corpus.ts): what its first use costs a fresh process, compiling and
 * validating, what it weighs installed, and how many of the suite's
 * validation tests pass with it in place of src/tools/json-schema-validator.ts.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { folderBytes } from "../../test/support/installed-package.js";
import { medianStartTimes, median } from "../../test/support/start-time.js";
import type { ArgumentsChecker, ArgumentsValidator } from "./argument-validator.js";
import { loadCorpus, type CorpusSchema } from "./corpus.js";

/** One library (or one way of using it) under comparison. */
interface Candidate {
  /** Its wrapper: bench/validators/<module>.ts */
  module: string;
  label: string;
  packages: string[];
}

const CANDIDATES: Candidate[] = [
  { module: "ajv-two-instances", label: "ajv draft-07 + 2020-12 (before)", packages: ["ajv", "ajv-formats"] },
  { module: "ajv-one-instance", label: "ajv one 2020-12", packages: ["ajv", "ajv-formats"] },
  { module: "cfworker", label: "@cfworker/json-schema", packages: ["@cfworker/json-schema"] },
  { module: "schemasafe", label: "@exodus/schemasafe", packages: ["@exodus/schemasafe"] },
];

/** The suite's test files that validate arguments, directly or through a run, an MCP server or a toolset. */
const SUITE_FILES = ["test/tools/json-schema-validator.test.ts", "test/tools/function-tool.test.ts", "test/models/schema", "test/openapi", "test/mcp", "test/runner", "test/agents", "test/adapters"];

const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url));
const here = fileURLToPath(new URL(".", import.meta.url));

/** The table's rows, a header first; `failures` lists the tests each candidate fails. */
export async function compareValidators(options: { quick?: boolean } = {}): Promise<{ rows: string[][]; failures: Map<string, string[]> }> {
  const corpus = await loadCorpus();
  const schemaCount = corpus.length;
  const sampleCount = corpus.reduce((total, entry) => total + entry.samples.length, 0);
  const rounds = options.quick ? 5 : 20;

  const firstUse = await measureFirstUse(options.quick ? 10 : 30);
  const rows: string[][] = [["measure", ...CANDIDATES.map((candidate) => `${candidate.label} ${versionOf(candidate.packages[0]!)}`)]];
  const perCandidate = [];
  for (const candidate of CANDIDATES) {
    const { createValidator } = (await import(`./${candidate.module}.js`)) as { createValidator: () => ArgumentsValidator };
    perCandidate.push({ candidate, ...compileAndValidate(createValidator, corpus, rounds), suite: runSuite(candidate) });
  }
  const baseline = firstUse.get("no validator")!;
  rows.push(["first use in a fresh process: load, compile a draft-07 and a 2020-12 schema (ms over none)", ...CANDIDATES.map((candidate) => fmt(firstUse.get(candidate.module)! - baseline, 1))]);
  rows.push([`compile all ${schemaCount} corpus schemas, new validator (ms, median of ${rounds})`, ...perCandidate.map((result) => fmt(result.compileMs, 1))]);
  rows.push(["compile, per schema (µs)", ...perCandidate.map((result) => fmt((result.compileMs * 1000) / schemaCount, 0))]);
  rows.push([`validate valid arguments, per check (µs, ${sampleCount} samples)`, ...perCandidate.map((result) => fmt(result.validateUs, 2))]);
  rows.push(["installed size (MB) / packages", ...CANDIDATES.map((candidate) => installedSize(candidate.packages))]);
  rows.push(["corpus schemas refused / valid samples rejected", ...perCandidate.map((result) => `${result.refused} / ${result.rejected}`)]);
  rows.push(["suite's validation tests passed / failed", ...perCandidate.map((result) => `${result.suite.passed} / ${result.suite.failed.length}`)]);
  return { rows, failures: new Map(perCandidate.map((result) => [result.candidate.label, result.suite.failed])) };
}

function fmt(value: number, digits: number): string {
  return value.toFixed(digits);
}

/**
 * Compiling the corpus with a new validator each round (its instances and
 * format tables included), then checking every sample against one validator.
 * Schemas a candidate refuses are counted, and left out of the validation.
 */
function compileAndValidate(createValidator: () => ArgumentsValidator, corpus: CorpusSchema[], rounds: number) {
  const compileTimes: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const validator = createValidator();
    const began = performance.now();
    for (const entry of corpus) {
      try {
        validator.compile(entry.schema, "tool");
      } catch {
        // counted below
      }
    }
    compileTimes.push(performance.now() - began);
  }
  const validator = createValidator();
  const checks: Array<{ check: ArgumentsChecker; args: Record<string, unknown> }> = [];
  let refused = 0;
  let rejected = 0;
  for (const entry of corpus) {
    let check: ArgumentsChecker;
    try {
      check = validator.compile(entry.schema, "tool");
    } catch {
      refused++;
      continue;
    }
    for (const args of entry.samples) {
      if (check(args).ok) checks.push({ check, args });
      else rejected++;
    }
  }
  const validateTimes: number[] = [];
  const repeat = 50;
  for (let round = 0; round < rounds; round++) {
    const began = performance.now();
    for (let time = 0; time < repeat; time++) for (const { check, args } of checks) check(args);
    validateTimes.push(((performance.now() - began) * 1000) / (repeat * checks.length));
  }
  return { compileMs: median(compileTimes), validateUs: median(validateTimes), refused, rejected };
}

/**
 * Each candidate bundled with its wrapper into one file (as toolsmith's dist
 * would hold it), then started in fresh processes that compile and use one
 * draft-07 and one 2020-12 schema (2020-12 by default, not by `$schema`:
 * schemasafe 1.3.0 generates broken code for a format under an explicit
 * 2020-12 `$schema`); "no validator" does the same with a check
 * that accepts everything, so the difference is the library's own cost.
 */
async function measureFirstUse(runs: number): Promise<Map<string, number>> {
  const out = join(repositoryRoot, "node_modules/.cache/toolsmith-bench/validators");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const use = `
const draft07 = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { path: { type: "string" }, tail: { type: "number" } }, required: ["path"], additionalProperties: false };
const draft2020 = { type: "object", properties: { email: { type: "string", format: "email" }, when: { type: "string", format: "date-time" } }, required: ["email"] };
validator.compile(draft07, "read_file")({ path: "a.txt" });
validator.compile(draft2020, "notify")({ email: "ada@example.com" });`;
  const entries: Array<[string, string]> = [
    ["no validator", `import { cachingValidator } from ${JSON.stringify(join(here, "argument-validator.ts"))};\nconst validator = cachingValidator(() => (args) => ({ ok: true, value: args }));${use}`],
    ...CANDIDATES.map((candidate): [string, string] => [candidate.module, `import { createValidator } from ${JSON.stringify(join(here, `${candidate.module}.ts`))};\nconst validator = createValidator();${use}`]),
  ];
  for (const [name, contents] of entries) {
    await build({ stdin: { contents, resolveDir: here, loader: "ts" }, bundle: true, format: "esm", platform: "node", target: "node20", packages: "external", outfile: join(out, `${name.replace(/ /g, "-")}.mjs`), logLevel: "warning" });
  }
  return medianStartTimes(
    entries.map(([name]) => ({ name, args: [join(out, `${name.replace(/ /g, "-")}.mjs`)], cwd: repositoryRoot })),
    runs,
  );
}

/** The suite's validation tests with the candidate's wrapper in place of toolsmith's validator. */
function runSuite(candidate: Candidate): { passed: number; failed: string[] } {
  const report = join(repositoryRoot, "node_modules/.cache/toolsmith-bench", `suite-${candidate.module}.json`);
  const vitest = join(repositoryRoot, "node_modules/vitest/vitest.mjs");
  spawnSync(process.execPath, [vitest, "run", "--config", join(here, "suite.config.ts"), "--reporter=json", `--outputFile=${report}`, ...SUITE_FILES], {
    cwd: repositoryRoot,
    env: { ...process.env, VALIDATOR_CANDIDATE: candidate.module },
    encoding: "utf8",
    timeout: 600_000,
  });
  const results = JSON.parse(readFileSync(report, "utf8")) as { numPassedTests: number; testResults: Array<{ assertionResults: Array<{ status: string; fullName: string }> }> };
  const failed = results.testResults.flatMap((file) => file.assertionResults.filter((test) => test.status === "failed").map((test) => test.fullName));
  return { passed: results.numPassedTests, failed };
}

function versionOf(name: string): string {
  return (JSON.parse(readFileSync(join(repositoryRoot, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

/** The packages and their runtime dependencies, as installed here, in MB, and how many packages. */
function installedSize(packages: string[]): string {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const manifest = JSON.parse(readFileSync(join(repositoryRoot, "node_modules", name, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency);
  };
  packages.forEach(visit);
  const bytes = [...seen].reduce((total, name) => total + folderBytes(join(repositoryRoot, "node_modules", name)), 0);
  return `${(bytes / 1024 / 1024).toFixed(2)} / ${seen.size}`;
}
