import type { RunRecord } from "./harness/record.js";

/**
 * A place where toolsmith behaves differently from ADK on purpose. `align`
 * removes the difference from a record; it is applied to both ADK's fixture and
 * toolsmith's record before they are compared, so everything else still must match.
 */
export interface DeliberateDifference {
  /** The program (folder name) that shows the difference; `"*"` for a difference every program shows. */
  program: string;
  /** The heading of the docs/adk-compat.md section that explains why. */
  docsSection: string;
  /** The difference, in one sentence. */
  difference: string;
  align(record: RunRecord): RunRecord;
}

/** The request's contents without function-call ids. */
function withoutCallIds(record: RunRecord): RunRecord {
  const strip = (part: Record<string, unknown>) => {
    const inner = (part.functionCall ?? part.functionResponse) as Record<string, unknown> | undefined;
    if (!inner || !("id" in inner)) return part;
    const { id: _id, ...rest } = inner;
    return { ...part, [part.functionCall ? "functionCall" : "functionResponse"]: rest };
  };
  return { ...record, requests: record.requests.map((request) => ({ ...request, contents: request.contents.map((content) => ({ ...content, parts: content.parts.map(strip) })) })) };
}

/** Every deliberate difference the programs show. Keep it to differences that are real and documented. */
export const DELIBERATE_DIFFERENCES: readonly DeliberateDifference[] = [
  {
    program: "*",
    docsSection: "Tools, agents and the history the model sees",
    difference: "function-call ids stay in the contents sent to the model (ADK removes its adk- ids), so OpenAI and Anthropic can pair results with calls",
    align: withoutCallIds,
  },
];

/** A record with the deliberate differences of its program removed. */
export function alignDeliberateDifferences(program: string, record: RunRecord): RunRecord {
  return DELIBERATE_DIFFERENCES.filter((entry) => entry.program === program || entry.program === "*").reduce((aligned, entry) => entry.align(aligned), record);
}
