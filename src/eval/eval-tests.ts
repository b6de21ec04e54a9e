import { type EvaluateOptions, evaluate, selectCases, splitCaseList } from "./evaluate.js";
import { criteriaFor } from "./criteria.js";
import type { EvalSet } from "./eval-set.js";
import { readEvalSetFile } from "./eval-set-json.js";
import { failureText } from "./report.js";

/** A test runner's `test`/`it`: a name and a function whose rejection fails the test. */
export type DefineTest = (name: string, run: () => Promise<void>, timeoutMs?: number) => void;

/** Options of {@link defineEvalTests}: those of `evaluate` for one set, and a timeout per case. */
export interface EvalTestsOptions extends Omit<EvaluateOptions, "evalSets" | "filter" | "onProgress"> {
  /** A file (`.evalset.json`, `.test.json`, optionally `:case_1,case_2`) or a set in memory. */
  evalSet: string | EvalSet;
  timeoutMs?: number;
}

/**
 * Makes each eval case of a set a test: the test runs the case and fails,
 * naming each criterion below its threshold with the expected and actual tool
 * calls and answers, when the case does not pass. Call it at the top of a test
 * file with `await` (the set is read first).
 *
 * @example
 * ```ts
 * import { it } from "vitest";
 * import { defineEvalTests } from "toolsmith/eval";
 * import { rootAgent } from "../agent.js";
 *
 * await defineEvalTests(it, { agent: rootAgent, evalSet: "tests/weather.evalset.json" });
 * ```
 */
export async function defineEvalTests(test: DefineTest, options: EvalTestsOptions): Promise<void> {
  const { evalSet: source, timeoutMs, ...evaluateOptions } = options;
  let evalSet: EvalSet;
  let criteria = evaluateOptions.criteria;
  if (typeof source === "string") {
    const { path, evalIds } = splitCaseList(source);
    evalSet = selectCases(await readEvalSetFile(path), evalIds);
    criteria ??= await criteriaFor(path);
  } else {
    evalSet = source;
  }
  for (const evalCase of evalSet.evalCases) {
    test(
      evalCase.evalId,
      async () => {
        const report = await evaluate({ ...evaluateOptions, criteria, evalSets: [{ ...evalSet, evalCases: [evalCase] }] });
        if (!report.passed) {
          const [result] = report.cases;
          const failures = result!.metrics.filter((metric) => !metric.passed).map((metric) => failureText(result!, metric));
          throw new Error(`Eval case ${evalCase.evalId} failed:\n${failures.join("\n\n")}`);
        }
      },
      timeoutMs,
    );
  }
}

