/**
 * Evaluation of agents with ADK's eval sets: read and write `.evalset.json`
 * and `.test.json` files and `test_config.json` criteria, replay cases against
 * an agent, score tool trajectories, response match and judge metrics, and
 * report as a table, JSON or JUnit XML.
 *
 * @module toolsmith/eval
 */
export type { EvalSet, EvalCase, Invocation, IntermediateData, SessionInput } from "./eval-set.js";
export { contentText } from "./eval-set.js";
export { parseEvalSet, parseEvalCase, readEvalSetFile, evalSetToJson, evalCaseToJson } from "./eval-set-json.js";
export { parseCriteria, readCriteriaFile, criteriaFor, DEFAULT_CRITERIA, METRIC_NAMES, type Criterion, type Rubric, type TrajectoryMatchType } from "./criteria.js";
export { evaluate, selectCases, type EvaluateOptions, type EvalReport, type EvalCaseResult, type MetricResult, type EvalProgress, type EvalSetSource } from "./evaluate.js";
export { runEvalCase, invocationsFromEvents, type ActualInvocation, type RunEvalCaseOptions } from "./invocations.js";
export { trajectoryMatches } from "./metrics/trajectory.js";
export { rouge1, type RougeScore, type RougeOptions } from "./metrics/rouge.js";
export { scoreInvocations, DEFAULT_JUDGE_SAMPLES, type InvocationScore, type MetricContext } from "./metrics/score-metric.js";
export { extractJson } from "./metrics/judge.js";
export { formatTable, formatJUnit, reportToJson } from "./report.js";
export { defineEvalTests, type DefineTest, type EvalTestsOptions } from "./eval-tests.js";
export { EvalError } from "./eval-error.js";
