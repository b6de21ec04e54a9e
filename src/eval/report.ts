import type { EvalCaseResult, EvalReport, MetricResult } from "./evaluate.js";
import { contentText } from "./eval-set.js";
import { evalCaseToJson } from "./eval-set-json.js";

function number(value: number | undefined): string {
  return value === undefined ? "—" : value.toFixed(3);
}

function metricLabel(metric: MetricResult): string {
  return metric.matchType ? `${metric.metric} (${metric.matchType})` : metric.metric;
}

/** The score column: the mean, and with several runs the spread (± standard deviation, lowest–highest). */
function scoreCell(metric: MetricResult, numRuns: number): string {
  if (numRuns === 1 || metric.score === undefined) return number(metric.score);
  return `${number(metric.score)} ±${metric.stdDev.toFixed(3)} [${number(metric.min)}–${number(metric.max)}]`;
}

/**
 * The report as a table, one row per case and metric: the case, the metric,
 * its score (with the spread over runs), the threshold and PASS or FAIL; then
 * a line of totals.
 */
export function formatTable(report: EvalReport): string {
  const header = ["case", "metric", "score", "threshold", "result"];
  const rows = report.cases.flatMap((result) => result.metrics.map((metric) => [`${result.evalSetId}/${result.evalId}`, metricLabel(metric), scoreCell(metric, report.numRuns), metric.threshold.toFixed(3), metric.passed ? "PASS" : "FAIL"]));
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd();
  const passed = report.cases.filter((result) => result.passed).length;
  const runs = report.numRuns === 1 ? "" : ` (${report.numRuns} runs each; score ±standard deviation [lowest–highest run])`;
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line), "", `${passed} of ${report.cases.length} case(s) passed${runs}.`, ""].join("\n");
}

function escapeXml(text: string): string {
  // Characters XML 1.0 cannot hold at all are dropped; the five special ones escaped.
  return text
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** Why a criterion failed: its score against the threshold, and per turn the expected and actual tool calls and answers (of the first run). */
export function failureText(result: EvalCaseResult, metric: MetricResult): string {
  const lines = [`${metricLabel(metric)}: ${number(metric.score)} is below the threshold ${metric.threshold}.`];
  const run = result.runs[0];
  for (const [index, expected] of result.expected.entries()) {
    const actual = run?.invocations[index];
    lines.push(`turn ${index + 1}: ${contentText(expected.userContent)}`);
    lines.push(`  expected tools: ${JSON.stringify(expected.intermediateData?.toolUses ?? [])}`);
    lines.push(`  actual tools:   ${JSON.stringify(actual?.intermediateData?.toolUses ?? [])}`);
    lines.push(`  expected answer: ${contentText(expected.finalResponse)}`);
    lines.push(`  actual answer:   ${contentText(actual?.finalResponse)}`);
  }
  return lines.join("\n");
}

/**
 * The report as JUnit XML for CI: one `<testsuite>` per eval set, one
 * `<testcase>` per case and metric, a `<failure>` with the expected and actual
 * trajectory and answer for each criterion below its threshold.
 */
export function formatJUnit(report: EvalReport): string {
  const bySet = new Map<string, EvalCaseResult[]>();
  for (const result of report.cases) bySet.set(result.evalSetId, [...(bySet.get(result.evalSetId) ?? []), result]);
  const totalTests = report.cases.reduce((sum, result) => sum + result.metrics.length, 0);
  const totalFailures = report.cases.reduce((sum, result) => sum + result.metrics.filter((metric) => !metric.passed).length, 0);
  const totalTime = report.cases.reduce((sum, result) => sum + result.durationMs, 0) / 1000;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="toolsmith eval" tests="${totalTests}" failures="${totalFailures}" time="${totalTime.toFixed(3)}">`];
  for (const [setId, results] of bySet) {
    const tests = results.reduce((sum, result) => sum + result.metrics.length, 0);
    const failures = results.reduce((sum, result) => sum + result.metrics.filter((metric) => !metric.passed).length, 0);
    const time = results.reduce((sum, result) => sum + result.durationMs, 0) / 1000;
    lines.push(`  <testsuite name="${escapeXml(setId)}" tests="${tests}" failures="${failures}" time="${time.toFixed(3)}">`);
    for (const result of results) {
      for (const metric of result.metrics) {
        const name = `${result.evalId} ${metricLabel(metric)}`;
        const caseTime = (result.durationMs / 1000 / result.metrics.length).toFixed(3);
        const open = `    <testcase classname="${escapeXml(setId)}" name="${escapeXml(name)}" time="${caseTime}"`;
        if (metric.passed) {
          lines.push(`${open}/>`);
        } else {
          lines.push(`${open}>`);
          lines.push(`      <failure message="${escapeXml(`${number(metric.score)} < ${metric.threshold}`)}" type="${escapeXml(metric.metric)}">${escapeXml(failureText(result, metric))}</failure>`);
          lines.push("    </testcase>");
        }
      }
    }
    lines.push("  </testsuite>");
  }
  lines.push("</testsuites>", "");
  return lines.join("\n");
}

/** The report as JSON: each case with its metrics, and what was expected and what each run did, in ADK's snake_case eval case shape. */
export function reportToJson(report: EvalReport): Record<string, unknown> {
  return {
    passed: report.passed,
    num_runs: report.numRuns,
    cases: report.cases.map((result) => ({
      eval_set_id: result.evalSetId,
      eval_id: result.evalId,
      passed: result.passed,
      duration_ms: result.durationMs,
      metrics: result.metrics.map((metric) => ({
        metric_name: metric.metric,
        threshold: metric.threshold,
        ...(metric.matchType ? { match_type: metric.matchType } : {}),
        score: metric.score ?? null,
        run_scores: metric.runScores.map((score) => score ?? null),
        std_dev: metric.stdDev,
        min: metric.min ?? null,
        max: metric.max ?? null,
        per_invocation: metric.perInvocation.map((run) => run.map((entry) => ({ score: entry.score ?? null, ...(entry.note ? { note: entry.note } : {}) }))),
        passed: metric.passed,
      })),
      expected: evalCaseToJson({ evalId: result.evalId, conversation: result.expected, creationTimestamp: 0 }).conversation,
      runs: result.runs.map((run) => ({
        session_id: run.sessionId,
        conversation: evalCaseToJson({ evalId: result.evalId, conversation: run.invocations.map(({ toolResponses: _responses, error: _error, ...invocation }) => invocation), creationTimestamp: 0 }).conversation,
        errors: run.invocations.flatMap((invocation, index) => (invocation.error ? [{ turn: index + 1, ...invocation.error }] : [])),
      })),
    })),
  };
}
