import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { ReadonlyContext } from "./readonly-context.js";

const PLACEHOLDER = /\{+([^{}]*)\}+/g;
const STATE_NAME = /^(?:(?:app|user|temp):)?[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Fills `{key}` in an instruction with the state value (objects as JSON) and
 * `{key?}` with the value or nothing. Braces around anything that is not a
 * state name (JSON examples, say) are left as they are.
 */
export function injectState(template: string, context: ReadonlyContext): string {
  const state = context.state;
  return template.replace(PLACEHOLDER, (match, inner: string) => {
    if (match.startsWith("{{") || !match.endsWith("}") || match.endsWith("}}")) return match;
    const optional = inner.endsWith("?");
    const key = (optional ? inner.slice(0, -1) : inner).trim();
    if (!STATE_NAME.test(key)) return match;
    if (!state.has(key)) {
      if (optional) return "";
      throw new ConfigurationError(
        "MISSING_STATE_KEY",
        `The instruction of agent "${context.agentName}" uses {${key}}, but the session state has no "${key}". ` +
          `Set it before the run, or write {${key}?} to make it optional.`,
      );
    }
    const value = state.get(key);
    return typeof value === "string" ? value : JSON.stringify(value);
  });
}
