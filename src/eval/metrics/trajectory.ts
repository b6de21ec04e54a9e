import { isDeepStrictEqual } from "node:util";
import type { FunctionCall } from "../../content/content.js";
import type { TrajectoryMatchType } from "../criteria.js";

/** Two calls are the same when their names and arguments are equal (as Python compares dicts: key order does not count; call ids do not count). */
function sameCall(actual: FunctionCall, expected: FunctionCall): boolean {
  return actual.name === expected.name && isDeepStrictEqual(actual.args ?? {}, expected.args ?? {});
}

/**
 * Whether an invocation's tool calls match the expected ones, as ADK's
 * `TrajectoryEvaluator` decides:
 *
 * - `EXACT`: the same calls in the same order, none missing and none extra.
 * - `IN_ORDER`: every expected call appears in the actual calls in the
 *   expected order; other calls may come between them.
 * - `ANY_ORDER`: every expected call appears among the actual calls, each
 *   actual call matching at most one expected call; other calls may appear.
 *
 * No expected calls match anything under `IN_ORDER` and `ANY_ORDER`, and only
 * no actual calls under `EXACT`.
 */
export function trajectoryMatches(actual: readonly FunctionCall[], expected: readonly FunctionCall[], matchType: TrajectoryMatchType = "EXACT"): boolean {
  if (matchType === "EXACT") return actual.length === expected.length && actual.every((call, index) => sameCall(call, expected[index]!));
  if (matchType === "IN_ORDER") {
    let next = 0;
    for (const call of actual) if (next < expected.length && sameCall(call, expected[next]!)) next++;
    return next === expected.length;
  }
  const unused = [...actual];
  for (const call of expected) {
    const index = unused.findIndex((candidate) => sameCall(candidate, call));
    if (index < 0) return false;
    unused.splice(index, 1);
  }
  return true;
}
