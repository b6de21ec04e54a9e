import { existsSync } from "node:fs";
import picomatch from "picomatch";
import type { Agent } from "../agents/agent.js";
import { resolveModel } from "../models/model-registry.js";
import type { Model } from "../models/model.js";
import type { BasePlugin } from "../plugins/base-plugin.js";
import { criteriaFor, DEFAULT_CRITERIA, type Criterion } from "./criteria.js";
import { EvalError } from "./eval-error.js";
import type { EvalCase, EvalSet, Invocation } from "./eval-set.js";
import { readEvalSetFile } from "./eval-set-json.js";
import { runEvalCase, type ActualInvocation } from "./invocations.js";
import type { RougeOptions } from "./metrics/rouge.js";
import { judgeMissing, scoreInvocations, type InvocationScore } from "./metrics/score-metric.js";

/** One metric's result on one eval case over all runs. */
export interface MetricResult {
  metric: string;
  threshold: number;
  matchType?: string;
  /** The mean over every scored invocation of every run, as ADK's overall score; undefined when nothing could be scored. */
  score?: number;
  /** Each run's mean over its invocations. */
  runScores: Array<number | undefined>;
  /** Spread of the run scores: population standard deviation, lowest and highest. */
  stdDev: number;
  min?: number;
  max?: number;
  /** Each run's score per invocation, in conversation order. */
  perInvocation: InvocationScore[][];
  passed: boolean;
}

/** One eval case's result: each metric, and what the agent did in each run beside what was expected. */
export interface EvalCaseResult {
  evalSetId: string;
  evalId: string;
  passed: boolean;
  metrics: MetricResult[];
  expected: Invocation[];
  runs: Array<{ sessionId: string; userId: string; invocations: ActualInvocation[] }>;
  durationMs: number;
}

/** The result of {@link evaluate}. */
export interface EvalReport {
  /** Every criterion of every case reached its threshold. */
  passed: boolean;
  numRuns: number;
  cases: EvalCaseResult[];
}

/** Progress of {@link evaluate}, for a progress line. */
export type EvalProgress =
  | { type: "case-start"; evalSetId: string; evalId: string; run: number; numRuns: number; index: number; total: number }
  | { type: "case-end"; result: EvalCaseResult; index: number; total: number };

/**
 * An eval set to run: a file path (criteria from `test_config.json` beside
 * it, as ADK finds them), optionally narrowed to some cases as ADK's CLI
 * writes it (`sample.evalset.json:case_1,case_2`), or a set in memory.
 */
export type EvalSetSource = string | EvalSet;

/** Options of {@link evaluate}. */
export interface EvaluateOptions {
  agent: Agent;
  evalSets: readonly EvalSetSource[];
  /** Criteria for every set; otherwise each file's `test_config.json`, else ADK's defaults. */
  criteria?: readonly Criterion[];
  /** How often each case runs; scores are the mean over runs, with the spread. Default 1. */
  numRuns?: number;
  /** The judge model of judge metrics whose criteria name none: a model name (`gemini-2.5-flash`, `openai/gpt-4o`) or a `Model`. */
  judgeModel?: string | Model;
  /** Only cases whose id matches: a glob (`refund-*`), a substring, or a predicate. */
  filter?: string | ((evalId: string) => boolean);
  /** The app name of sessions for cases without `session_input`. */
  appName?: string;
  /** Plugins each case's runner runs (an `App`'s, when the agent comes with one), as a served run would. */
  plugins?: readonly BasePlugin[];
  onProgress?: (progress: EvalProgress) => void;
  rouge?: RougeOptions;
  abortSignal?: AbortSignal;
}

function matcher(filter: EvaluateOptions["filter"]): (evalId: string) => boolean {
  if (filter === undefined) return () => true;
  if (typeof filter === "function") return filter;
  if (/[*?[\]{}]/.test(filter)) return picomatch(filter);
  return (evalId) => evalId.includes(filter);
}

function statistics(values: ReadonlyArray<number | undefined>): { stdDev: number; min?: number; max?: number } {
  const read = values.filter((value): value is number => value !== undefined);
  if (read.length === 0) return { stdDev: 0 };
  const average = read.reduce((sum, value) => sum + value, 0) / read.length;
  const stdDev = Math.sqrt(read.reduce((sum, value) => sum + (value - average) ** 2, 0) / read.length);
  return { stdDev, min: Math.min(...read), max: Math.max(...read) };
}

function meanOf(scores: readonly InvocationScore[]): number | undefined {
  const read = scores.flatMap((entry) => (entry.score === undefined ? [] : [entry.score]));
  return read.length ? read.reduce((sum, value) => sum + value, 0) / read.length : undefined;
}

/** A case's metric over its runs: ADK's overall score (all invocations of all runs), each run's score and their spread. */
function metricResult(criterion: Criterion, perInvocation: InvocationScore[][]): MetricResult {
  const runScores = perInvocation.map(meanOf);
  const score = meanOf(perInvocation.flat());
  return {
    metric: criterion.metric,
    threshold: criterion.threshold,
    ...(criterion.matchType ? { matchType: criterion.matchType } : {}),
    ...(score === undefined ? {} : { score }),
    runScores,
    ...statistics(runScores),
    perInvocation,
    passed: score !== undefined && score >= criterion.threshold,
  };
}

async function loadSets(sources: readonly EvalSetSource[], criteria: readonly Criterion[] | undefined): Promise<Array<{ evalSet: EvalSet; criteria: Criterion[] }>> {
  const sets: Array<{ evalSet: EvalSet; criteria: Criterion[] }> = [];
  for (const source of sources) {
    if (typeof source === "string") {
      const { path, evalIds } = splitCaseList(source);
      sets.push({ evalSet: selectCases(await readEvalSetFile(path), evalIds), criteria: criteria ? [...criteria] : await criteriaFor(path) });
    }
    else sets.push({ evalSet: source, criteria: [...(criteria ?? DEFAULT_CRITERIA)] });
  }
  return sets;
}

/**
 * Runs eval sets against an agent and scores each case: each case's
 * conversation is replayed `numRuns` times in fresh sessions, and each
 * criterion's metric is scored on every turn against the expected one. A case
 * passes when every criterion's score reaches its threshold.
 *
 * @example
 * ```ts
 * import { evaluate } from "toolsmith/eval";
 * const report = await evaluate({ agent: rootAgent, evalSets: ["tests/weather.evalset.json"], numRuns: 3 });
 * if (!report.passed) process.exitCode = 1;
 * ```
 */
export async function evaluate(options: EvaluateOptions): Promise<EvalReport> {
  const numRuns = options.numRuns ?? 1;
  if (!Number.isInteger(numRuns) || numRuns < 1) throw new EvalError("EVAL_CONFIG_INVALID", `numRuns must be a whole number of 1 or more, not ${numRuns}.`);
  const sets = await loadSets(options.evalSets, options.criteria);
  const wanted = matcher(options.filter);
  const work = sets.flatMap(({ evalSet, criteria }) => evalSet.evalCases.filter((evalCase) => wanted(evalCase.evalId)).map((evalCase) => ({ evalSet, evalCase, criteria })));
  const judges = new Map<string, Promise<Model>>();
  const judge = async (criterion: Criterion): Promise<Model> => {
    const named = criterion.judgeModel ?? options.judgeModel;
    if (named === undefined) throw judgeMissing(criterion.metric);
    if (typeof named !== "string") return named;
    if (!judges.has(named)) judges.set(named, resolveModel(named));
    return judges.get(named)!;
  };
  const cases: EvalCaseResult[] = [];
  for (const [index, { evalSet, evalCase, criteria }] of work.entries()) {
    const started = Date.now();
    const runs: EvalCaseResult["runs"] = [];
    for (let run = 1; run <= numRuns; run++) {
      options.onProgress?.({ type: "case-start", evalSetId: evalSet.evalSetId, evalId: evalCase.evalId, run, numRuns, index, total: work.length });
      runs.push(await runEvalCase({ agent: options.agent, evalCase, appName: options.appName, plugins: options.plugins, abortSignal: options.abortSignal }));
    }
    const metrics: MetricResult[] = [];
    for (const criterion of criteria) {
      const perInvocation: InvocationScore[][] = [];
      for (const run of runs) perInvocation.push(await scoreInvocations(criterion, run.invocations, evalCase.conversation, { judge, rouge: options.rouge, abortSignal: options.abortSignal }));
      metrics.push(metricResult(criterion, perInvocation));
    }
    const result: EvalCaseResult = {
      evalSetId: evalSet.evalSetId,
      evalId: evalCase.evalId,
      passed: metrics.every((metric) => metric.passed),
      metrics,
      expected: evalCase.conversation,
      runs: runs.map(({ sessionId, userId, invocations }) => ({ sessionId, userId, invocations })),
      durationMs: Date.now() - started,
    };
    cases.push(result);
    options.onProgress?.({ type: "case-end", result, index, total: work.length });
  }
  return { passed: cases.every((result) => result.passed), numRuns, cases };
}

/** The cases of a set whose ids are listed (ADK's `file.json:case_1,case_2`); all when none are. */
export function selectCases(evalSet: EvalSet, ids: readonly string[]): EvalSet {
  if (ids.length === 0) return evalSet;
  const missing = ids.filter((id) => !evalSet.evalCases.some((evalCase) => evalCase.evalId === id));
  if (missing.length) throw new EvalError("EVAL_CASE_NOT_FOUND", `Eval set ${evalSet.evalSetId} has no case ${missing.join(", ")}. Its cases: ${evalSet.evalCases.map((evalCase: EvalCase) => evalCase.evalId).join(", ")}.`);
  return { ...evalSet, evalCases: evalSet.evalCases.filter((evalCase) => ids.includes(evalCase.evalId)) };
}

/** `file.json:case_1,case_2` split into the file and the case ids; a path that exists as written is never split. */
export function splitCaseList(source: string): { path: string; evalIds: string[] } {
  const colon = source.lastIndexOf(":");
  if (colon <= 1 || existsSync(source)) return { path: source, evalIds: [] };
  return { path: source.slice(0, colon), evalIds: source.slice(colon + 1).split(",").map((id) => id.trim()).filter(Boolean) };
}
