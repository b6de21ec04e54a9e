/**
 * Runs every program's adk.ts on @google/adk with the scripted model and writes
 * its normalised record to fixtures/<program>.json, which programs.test.ts
 * compares toolsmith's runs against.
 *
 * Run: `npx tsx test/adk-compat/record-adk.ts [program-prefix…]`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { installAdkHarness } from "./harness/adk-framework.js";
import { FIXTURES_FOLDER, listPrograms, runProgram } from "./harness/run-program.js";

const PROGRAMS_TSCONFIG = fileURLToPath(new URL("./tsconfig.json", import.meta.url));

if (process.env["TSX_TSCONFIG_PATH"] !== PROGRAMS_TSCONFIG) {
  // The programs import types as ADK's docs do (`import {Content} from '@google/genai'`), which only compiles
  // without verbatimModuleSyntax: tsx reads one tsconfig per process, so run again under the programs' own.
  const rerun = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, TSX_TSCONFIG_PATH: PROGRAMS_TSCONFIG },
  });
  process.exit(rerun.status ?? 1);
}

installAdkHarness();
mkdirSync(FIXTURES_FOLDER, { recursive: true });
const chosen = process.argv.slice(2);
for (const program of listPrograms().filter((name) => chosen.length === 0 || chosen.some((choice) => name.startsWith(choice)))) {
  const record = await runProgram(program, "adk.ts");
  writeFileSync(join(FIXTURES_FOLDER, `${program}.json`), `${JSON.stringify(record, null, 2)}\n`);
  const problems = [record.error ? `threw: ${record.error}` : "", record.unusedModelTurns ? `${record.unusedModelTurns} unused model turn(s)` : ""].filter(Boolean);
  process.stdout.write(`${program}: ${record.events.length} events, ${record.requests.length} requests${problems.length ? ` — ${problems.join("; ")}` : ""}\n`);
}
