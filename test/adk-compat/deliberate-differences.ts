import type { RunRecord } from "./harness/record.js";

/**
 * A place where toolsmith behaves differently from ADK on purpose. `align`
 * removes the difference from a record; it is applied to both ADK's fixture and
 * toolsmith's record before they are compared, so everything else still must match.
 */
export interface DeliberateDifference {
  /** The program (folder name) that shows the difference. */
  program: string;
  /** The heading of the docs/adk-compat.md section that explains why. */
  docsSection: string;
  /** The difference, in one sentence. */
  difference: string;
  align(record: RunRecord): RunRecord;
}

/** Every deliberate difference the programs show. Keep it empty unless a difference is real and documented. */
export const DELIBERATE_DIFFERENCES: readonly DeliberateDifference[] = [];

/** A record with the deliberate differences of its program removed. */
export function alignDeliberateDifferences(program: string, record: RunRecord): RunRecord {
  return DELIBERATE_DIFFERENCES.filter((entry) => entry.program === program).reduce((aligned, entry) => entry.align(aligned), record);
}
