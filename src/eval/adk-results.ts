import type { EvalCaseResult, MetricResult } from "./evaluate.js";
import type { Invocation } from "./eval-set.js";

/** ADK's `EvalStatus` as its API writes it: 1 passed, 2 failed, 3 not evaluated. */
export const EVAL_STATUS = { PASSED: 1, FAILED: 2, NOT_EVALUATED: 3 } as const;

function status(score: number | undefined, threshold: number): number {
  if (score === undefined) return EVAL_STATUS.NOT_EVALUATED;
  return score >= threshold ? EVAL_STATUS.PASSED : EVAL_STATUS.FAILED;
}

function metricJson(metric: MetricResult, score: number | undefined): Record<string, unknown> {
  return { metricName: metric.metric, threshold: metric.threshold, ...(score === undefined ? {} : { score }), evalStatus: status(score, metric.threshold) };
}

function invocationJson(invocation: Invocation): Invocation {
  const { invocationId, userContent, finalResponse, intermediateData, creationTimestamp } = invocation;
  return { invocationId, userContent, ...(finalResponse ? { finalResponse } : {}), ...(intermediateData ? { intermediateData } : {}), creationTimestamp };
}

/**
 * A case's result in the JSON of ADK's `run_eval` endpoint (`RunEvalResult`,
 * camelCase as FastAPI answers): the status, each metric's overall result,
 * and per invocation the actual and expected invocation with each metric's
 * score. The server runs each case once: the first run is reported.
 */
export function runEvalResultJson(result: EvalCaseResult): Record<string, unknown> {
  const run = result.runs[0]!;
  return {
    evalSetFile: result.evalSetId,
    evalSetId: result.evalSetId,
    evalId: result.evalId,
    finalEvalStatus: result.passed ? EVAL_STATUS.PASSED : EVAL_STATUS.FAILED,
    overallEvalMetricResults: result.metrics.map((metric) => metricJson(metric, metric.score)),
    evalMetricResultPerInvocation: result.expected.map((expected, index) => ({
      actualInvocation: invocationJson(run.invocations[index] ?? { invocationId: "", userContent: expected.userContent, creationTimestamp: 0 }),
      expectedInvocation: invocationJson(expected),
      evalMetricResults: result.metrics.map((metric) => metricJson(metric, metric.perInvocation[0]?.[index]?.score)),
    })),
    userId: run.userId,
    sessionId: run.sessionId,
  };
}

/** ADK's `EvalSetResult` for a run of cases of one set, with the id ADK gives it: `<app>_<set>_<seconds>` with the dot replaced. */
export function evalSetResultJson(appName: string, evalSetId: string, results: readonly EvalCaseResult[], now = Date.now()): { evalSetResultId: string } & Record<string, unknown> {
  const evalSetResultId = `${appName}_${evalSetId}_${(now / 1000).toFixed(3).replace(".", "_")}`;
  return {
    evalSetResultId,
    evalSetResultName: evalSetResultId,
    evalSetId,
    evalCaseResults: results.map((result) => {
      const { evalSetFile: _file, ...caseResult } = runEvalResultJson(result);
      return caseResult;
    }),
    creationTimestamp: now / 1000,
  };
}
