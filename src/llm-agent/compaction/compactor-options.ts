import { ConfigurationError } from "../../errors/toolsmith-error.js";

/** `value` as a whole number of events, 0 or more; refused (`INVALID_COMPACTION_OPTION`) naming the compactor and option otherwise. */
export function wholeEventCount(compactor: string, option: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new ConfigurationError("INVALID_COMPACTION_OPTION", `${compactor}: ${option} must be a whole number of events, 0 or more, not ${JSON.stringify(value)}.`);
  }
  return value;
}

/** `value` as a positive whole number of tokens; refused (`INVALID_COMPACTION_OPTION`) naming the compactor otherwise. */
export function tokenBudget(compactor: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    throw new ConfigurationError("INVALID_COMPACTION_OPTION", `${compactor}: tokenThreshold must be a positive whole number of tokens, not ${JSON.stringify(value)}.`);
  }
  return value;
}
