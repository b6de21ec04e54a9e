import type { Model } from "../../models/model.js";
import type { Criterion } from "../criteria.js";
import { EvalError } from "../eval-error.js";
import { contentText, toolUsesOf, type Invocation } from "../eval-set.js";
import type { ActualInvocation } from "../invocations.js";
import { askJudge, finalResponseMatchPrompt, hallucinationPrompt, parseHallucinationScore, parseRubricVerdicts, parseValidity, rubricPrompt, type JudgedTurn } from "./judge.js";
import { rouge1, type RougeOptions } from "./rouge.js";
import { trajectoryMatches } from "./trajectory.js";

/** The score of one metric on one invocation; `undefined` when it could not be scored (the judge answered nothing readable), with why. */
export interface InvocationScore {
  score?: number;
  note?: string;
}

/** What scoring needs besides the invocations. */
export interface MetricContext {
  /** The judge model for judge metrics whose criterion names none. */
  judge?: (criterion: Criterion) => Promise<Model>;
  rouge?: RougeOptions;
  abortSignal?: AbortSignal;
}

/** Judge metrics ask the judge this many times per invocation unless the criterion says otherwise (ADK's default `num_samples`). */
export const DEFAULT_JUDGE_SAMPLES = 5;

function judgedTurn(actual: ActualInvocation, expected: Invocation): JudgedTurn {
  return {
    userText: contentText(expected.userContent),
    actualResponse: contentText(actual.finalResponse),
    expectedResponse: contentText(expected.finalResponse),
    actualToolUses: toolUsesOf(actual),
    expectedToolUses: toolUsesOf(expected),
    toolResponses: actual.toolResponses,
  };
}

/** The error of a judge metric run with no judge model named anywhere. */
export function judgeMissing(metric: string): EvalError {
  return new EvalError("EVAL_CONFIG_INVALID", `${metric} needs a judge model: name one with --judge-model (judgeModel in code), or judge_model_options.judge_model in test_config.json.`);
}

async function samples<T>(criterion: Criterion, context: MetricContext, prompt: string, parse: (text: string | undefined) => T): Promise<T[]> {
  if (!context.judge) throw judgeMissing(criterion.metric);
  const model = await context.judge(criterion);
  const count = criterion.numSamples ?? DEFAULT_JUDGE_SAMPLES;
  const answers: T[] = [];
  for (let sample = 0; sample < count; sample++) answers.push(parse(await askJudge(model, prompt, context.abortSignal)));
  return answers;
}

/** 1 when more readable samples say valid than invalid, else 0; undefined when no sample was readable. */
function majority(votes: ReadonlyArray<number | undefined>): number | undefined {
  const read = votes.filter((vote): vote is number => vote !== undefined);
  if (read.length === 0) return undefined;
  return read.filter((vote) => vote === 1).length > read.length / 2 ? 1 : 0;
}

function mean(values: readonly number[]): number | undefined {
  return values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : undefined;
}

/**
 * Scores one metric on each invocation (actual against expected, pairwise):
 *
 * - `tool_trajectory_avg_score`: 1 when the tool calls match under the
 *   criterion's match type ({@link trajectoryMatches}), else 0.
 * - `response_match_score`: ROUGE-1 F-measure of the final response against
 *   the expected one ({@link rouge1}).
 * - `final_response_match_v2`: the judge is asked `num_samples` times whether
 *   the answer is equivalent to the expected one; 1 when most readable
 *   verdicts say valid, else 0.
 * - `rubric_based_final_response_quality_v1`, `rubric_based_tool_use_quality_v1`:
 *   each rubric's verdict is the majority of the samples' readable yes/no;
 *   the score is the share of rubrics judged yes.
 * - `hallucinations_v1`: the mean over samples of the share of the answer's
 *   sentences judged supported or claim-free.
 */
export async function scoreInvocations(criterion: Criterion, actual: readonly ActualInvocation[], expected: readonly Invocation[], context: MetricContext = {}): Promise<InvocationScore[]> {
  const scores: InvocationScore[] = [];
  for (const [index, invocation] of actual.entries()) {
    const reference = expected[index]!;
    switch (criterion.metric) {
      case "tool_trajectory_avg_score":
        scores.push({ score: trajectoryMatches(toolUsesOf(invocation), toolUsesOf(reference), criterion.matchType) ? 1 : 0 });
        break;
      case "response_match_score":
        scores.push({ score: rouge1(contentText(invocation.finalResponse), contentText(reference.finalResponse), context.rouge).fmeasure });
        break;
      case "final_response_match_v2": {
        const score = majority(await samples(criterion, context, finalResponseMatchPrompt(judgedTurn(invocation, reference)), parseValidity));
        scores.push(score === undefined ? { note: "the judge gave no readable verdict" } : { score });
        break;
      }
      case "rubric_based_final_response_quality_v1":
      case "rubric_based_tool_use_quality_v1": {
        const rubrics = criterion.rubrics ?? [];
        if (rubrics.length === 0) throw new EvalError("EVAL_CONFIG_INVALID", `${criterion.metric} needs rubrics: {"threshold": 0.8, "rubrics": [{"rubric_id": "polite", "rubric_content": {"text_property": "The answer is polite."}}]}.`);
        const subject = criterion.metric === "rubric_based_tool_use_quality_v1" ? "tool_use" : "final_response";
        const verdicts = await samples(criterion, context, rubricPrompt(judgedTurn(invocation, reference), rubrics, subject), (text) => parseRubricVerdicts(text, rubrics));
        const perRubric = rubrics.map((rubric) => majority(verdicts.map((verdict) => (verdict.has(rubric.rubricId) ? (verdict.get(rubric.rubricId) ? 1 : 0) : undefined))));
        const read = perRubric.filter((score): score is number => score !== undefined);
        scores.push(read.length === 0 ? { note: "the judge gave no readable verdict on any rubric" } : { score: mean(read)!, ...(read.length < rubrics.length ? { note: `${rubrics.length - read.length} rubric(s) got no readable verdict` } : {}) });
        break;
      }
      case "hallucinations_v1": {
        const score = mean((await samples(criterion, context, hallucinationPrompt(judgedTurn(invocation, reference)), parseHallucinationScore)).filter((value): value is number => value !== undefined));
        scores.push(score === undefined ? { note: "the judge gave no readable labels" } : { score });
        break;
      }
      default:
        throw new EvalError("EVAL_CONFIG_INVALID", `Unknown metric ${criterion.metric}.`);
    }
  }
  return scores;
}
