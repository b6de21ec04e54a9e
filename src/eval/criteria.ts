import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { EvalError } from "./eval-error.js";
import { endSentence } from "../errors/sentence.js";

/** How expected and actual tool calls are compared (ADK's `ToolTrajectoryCriterion.MatchType`). */
export type TrajectoryMatchType = "EXACT" | "IN_ORDER" | "ANY_ORDER";

/** A rubric a judge checks: ADK's `{rubric_id, rubric_content: {text_property}}`. */
export interface Rubric {
  rubricId: string;
  text: string;
}

/** One metric to score and the threshold its mean must reach, with the metric's options. */
export interface Criterion {
  /** ADK's metric name, such as `tool_trajectory_avg_score`. */
  metric: string;
  threshold: number;
  /** For `tool_trajectory_avg_score`; `EXACT` when not given, as in ADK. */
  matchType?: TrajectoryMatchType;
  /** For judge metrics: the model name, and how many times the judge is asked per invocation. */
  judgeModel?: string;
  numSamples?: number;
  /** For the rubric-based metrics. */
  rubrics?: Rubric[];
}

/** ADK's criteria when an eval set has no `test_config.json` beside it. */
export const DEFAULT_CRITERIA: readonly Criterion[] = [
  { metric: "tool_trajectory_avg_score", threshold: 1 },
  { metric: "response_match_score", threshold: 0.8 },
];

/** The metrics toolsmith scores; the judge metrics need a judge model. */
export const METRIC_NAMES = [
  "tool_trajectory_avg_score",
  "response_match_score",
  "final_response_match_v2",
  "rubric_based_final_response_quality_v1",
  "rubric_based_tool_use_quality_v1",
  "hallucinations_v1",
] as const;

const MATCH_TYPES = new Set<string>(["EXACT", "IN_ORDER", "ANY_ORDER"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A field read in either spelling, as pydantic's alias does. */
function field(record: Record<string, unknown>, snake: string): unknown {
  const camel = snake.replace(/_([a-z])/g, (_m, letter: string) => letter.toUpperCase());
  return record[snake] ?? record[camel];
}

function parseRubrics(value: unknown, where: string): Rubric[] {
  if (!Array.isArray(value)) throw new EvalError("EVAL_CONFIG_INVALID", `${where}.rubrics must be a list of {rubric_id, rubric_content: {text_property}}.`);
  return value.map((rubric, index) => {
    const content = isRecord(rubric) ? field(rubric, "rubric_content") : undefined;
    const text = isRecord(content) ? field(content, "text_property") : undefined;
    const id = isRecord(rubric) ? field(rubric, "rubric_id") : undefined;
    if (typeof text !== "string" || !text.trim()) throw new EvalError("EVAL_CONFIG_INVALID", `${where}.rubrics[${index}] needs rubric_content.text_property: the property a good answer has.`);
    return { rubricId: typeof id === "string" ? id : String(index + 1), text };
  });
}

/**
 * Criteria from ADK's `test_config.json` content: `{"criteria": {name:
 * threshold}}`, where a value may also be ADK's criterion object
 * (`{"threshold", "match_type", "judge_model_options": {"judge_model",
 * "num_samples"}, "rubrics"}`). Unknown metric names are refused, so a
 * misspelled one never passes by being skipped.
 */
export function parseCriteria(json: unknown, source = "test_config.json"): Criterion[] {
  const criteria = isRecord(json) ? json.criteria : undefined;
  if (!isRecord(criteria)) throw new EvalError("EVAL_CONFIG_INVALID", `${source} must hold {"criteria": {"tool_trajectory_avg_score": 1.0, "response_match_score": 0.8}}.`);
  return Object.entries(criteria).map(([metric, value]) => {
    const where = `${source} criteria.${metric}`;
    if (!(METRIC_NAMES as readonly string[]).includes(metric)) throw new EvalError("EVAL_CONFIG_INVALID", `${where}: unknown metric. Metrics: ${METRIC_NAMES.join(", ")}.`);
    if (typeof value === "number") return checkedThreshold({ metric, threshold: value }, where);
    if (!isRecord(value)) throw new EvalError("EVAL_CONFIG_INVALID", `${where} must be a threshold (a number) or {"threshold": …}.`);
    const criterion: Criterion = { metric, threshold: Number(field(value, "threshold")) };
    const matchType = field(value, "match_type");
    if (matchType !== undefined) {
      const name = typeof matchType === "string" ? matchType.toUpperCase() : matchType;
      if (typeof name !== "string" || !MATCH_TYPES.has(name)) throw new EvalError("EVAL_CONFIG_INVALID", `${where}.match_type must be EXACT, IN_ORDER or ANY_ORDER.`);
      criterion.matchType = name as TrajectoryMatchType;
    }
    const judge = field(value, "judge_model_options");
    if (isRecord(judge)) {
      const model = field(judge, "judge_model");
      const samples = field(judge, "num_samples");
      if (typeof model === "string") criterion.judgeModel = model;
      if (samples !== undefined) {
        if (!Number.isInteger(samples) || (samples as number) < 1) throw new EvalError("EVAL_CONFIG_INVALID", `${where}.judge_model_options.num_samples must be a whole number of 1 or more.`);
        criterion.numSamples = samples as number;
      }
    }
    const rubrics = field(value, "rubrics");
    if (rubrics !== undefined) criterion.rubrics = parseRubrics(rubrics, where);
    return checkedThreshold(criterion, where);
  });
}

function checkedThreshold(criterion: Criterion, where: string): Criterion {
  if (!Number.isFinite(criterion.threshold)) throw new EvalError("EVAL_CONFIG_INVALID", `${where} needs a numeric threshold, such as 0.8.`);
  return criterion;
}

/** Reads criteria from a `test_config.json` file. */
export async function readCriteriaFile(path: string): Promise<Criterion[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new EvalError("EVAL_CONFIG_INVALID", `Could not read the criteria file ${path}: ${endSentence((error as Error).message)}`, { cause: error });
  }
  return parseCriteria(json, path);
}

/** The criteria ADK uses for an eval set file: `test_config.json` in its folder, else {@link DEFAULT_CRITERIA}. */
export async function criteriaFor(evalSetPath: string): Promise<Criterion[]> {
  const config = join(dirname(evalSetPath), "test_config.json");
  return existsSync(config) ? readCriteriaFile(config) : [...DEFAULT_CRITERIA];
}
