import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { readCriteriaFile } from "../eval/criteria.js";
import { evaluate, type EvalProgress } from "../eval/evaluate.js";
import { failureText, formatJUnit, formatTable, reportToJson } from "../eval/report.js";
import type { CliIo } from "./cli-io.js";
import { EXIT, UsageError } from "./exit-codes.js";
import { loadAgent } from "./load-agent.js";
import { terminalSafe } from "./terminal-text.js";

/** Options of {@link evalCommand}. */
export interface EvalCommandOptions {
  io: CliIo;
  agentPath?: string;
  /** Eval set files, each optionally `file.json:case_1,case_2`. */
  evalSets: readonly string[];
  /** A `test_config.json` for every set, instead of the one beside each. */
  config?: string;
  filter?: string;
  numRuns?: string;
  judgeModel?: string;
  /** Where to write the JSON report and the JUnit XML. */
  jsonFile?: string;
  junitFile?: string;
  printDetailedResults: boolean;
}

function runs(value: string | undefined): number {
  if (value === undefined) return 1;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) throw new UsageError(`--num-runs takes a whole number of 1 or more, not "${value}".`);
  return count;
}

function progressLine(event: EvalProgress): string {
  if (event.type === "case-start") {
    const run = event.numRuns > 1 ? ` (run ${event.run}/${event.numRuns})` : "";
    return `[${event.index + 1}/${event.total}] ${event.evalSetId}/${event.evalId}${run}…\n`;
  }
  const { result } = event;
  return `[${event.index + 1}/${event.total}] ${result.passed ? "passed" : "FAILED"} ${result.evalSetId}/${result.evalId} in ${(result.durationMs / 1000).toFixed(1)}s\n`;
}

function write(path: string, text: string): void {
  const full = resolve(path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
}

/**
 * `toolsmith eval <agent> <evalset...>`: replays each eval case against the
 * agent, prints a table of each case and metric with PASS or FAIL, writes the
 * JSON and JUnit reports asked for, and exits with {@link EXIT.EVAL_FAILED}
 * when any criterion falls below its threshold. Progress goes to stderr.
 */
export async function evalCommand(options: EvalCommandOptions): Promise<number> {
  const { io } = options;
  if (options.evalSets.length === 0) throw new UsageError("Name the agent and at least one eval set: toolsmith eval agents/home.ts tests/home.evalset.json (toolsmith eval --help).");
  const numRuns = runs(options.numRuns);
  const criteria = options.config ? await readCriteriaFile(options.config) : undefined;
  const { appName, agent, plugins } = await loadAgent(options.agentPath);
  const report = await evaluate({
    agent,
    plugins,
    appName,
    evalSets: options.evalSets,
    criteria,
    numRuns,
    judgeModel: options.judgeModel,
    filter: options.filter,
    abortSignal: io.interrupt,
    onProgress: (event) => io.stderr.write(terminalSafe(progressLine(event))),
  });
  if (io.interrupt.aborted) return EXIT.INTERRUPTED;
  if (report.cases.length === 0) {
    io.stderr.write(`No eval case matched${options.filter ? ` --filter ${options.filter}` : ""}.\n`);
    return EXIT.USAGE;
  }
  // The cases' texts (and the answers in the details) are the eval set's and the agent's: printed terminal-safe.
  io.stdout.write(terminalSafe(formatTable(report)));
  if (options.printDetailedResults) {
    for (const result of report.cases) for (const metric of result.metrics) if (!metric.passed) io.stdout.write(terminalSafe(`\n${result.evalSetId}/${result.evalId}\n${failureText(result, metric)}\n`));
  }
  if (options.jsonFile) write(options.jsonFile, `${JSON.stringify(reportToJson(report), null, 2)}\n`);
  if (options.junitFile) write(options.junitFile, formatJUnit(report));
  return report.passed ? EXIT.OK : EXIT.EVAL_FAILED;
}
