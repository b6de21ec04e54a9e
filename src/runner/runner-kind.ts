import { Runner } from "./runner.js";

/** Whether a value is a {@link Runner} (ADK's check; an `InMemoryRunner` is one too). */
export function isRunner(value: unknown): value is Runner {
  return value instanceof Runner;
}
