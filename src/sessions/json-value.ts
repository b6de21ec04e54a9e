import { ToolsmithError } from "../errors/toolsmith-error.js";

/** A state value that could not be stored as JSON. */
export class StateValueError extends ToolsmithError {
  constructor(key: string, path: string, reason: string) {
    super(
      "STATE_VALUE_NOT_JSON",
      `State key "${key}" cannot be stored: ${path ? `${path} ` : ""}${reason}. State values must be JSON: strings, finite numbers, booleans, null, arrays and plain objects.`,
    );
  }
}

/** Throws {@link StateValueError} unless `value` survives a JSON round trip unchanged. */
export function assertJsonValue(key: string, value: unknown): void {
  const problem = jsonProblem(value);
  if (problem) throw new StateValueError(key, problem.path, problem.reason);
}

/**
 * Why `value` would not survive a JSON round trip unchanged (where in it, and what is there), or nothing when it
 * would: strings, finite numbers, booleans, null, arrays and plain objects, with fields left `undefined` dropped.
 */
export function jsonProblem(value: unknown, options: { instances?: "refuse" | "asJson" } = {}): { path: string; reason: string } | undefined {
  const seen = new Set<object>();
  const visit = (current: unknown, path: string): { path: string; reason: string } | undefined => {
    switch (typeof current) {
      case "string":
      case "boolean":
        return undefined;
      case "number":
        return Number.isFinite(current) ? undefined : { path, reason: `is ${current}` };
      case "object":
        break;
      case "undefined":
        // JSON leaves undefined fields out; only a value that is undefined as a whole cannot be stored.
        return path ? undefined : { path, reason: "is undefined" };
      default:
        return { path, reason: `is a ${typeof current}` };
    }
    if (current === null) return undefined;
    const object = current as object;
    if (seen.has(object)) return { path, reason: "refers to itself (a cycle)" };
    const prototype = Object.getPrototypeOf(object);
    if (!Array.isArray(object) && prototype !== Object.prototype && prototype !== null) {
      // With `instances: "asJson"`, an instance is what JSON makes of it: its toJSON's value (a Date's string), or
      // its own fields; a Map or Set, which JSON makes {}, loses what it holds.
      if (options.instances !== "asJson") return { path, reason: `is a ${object.constructor?.name ?? "class instance"}, not a plain object` };
      if (object instanceof Map || object instanceof Set) return { path, reason: `is a ${object instanceof Map ? "Map" : "Set"}, which JSON keeps as {} (what it holds is lost)` };
      if (typeof (object as { toJSON?: unknown }).toJSON === "function") return undefined;
    }
    seen.add(object);
    for (const [childKey, child] of Object.entries(object)) {
      const problem = visit(child, `${path}${Array.isArray(object) ? `[${childKey}]` : `.${childKey}`}`);
      if (problem) return problem;
    }
    seen.delete(object);
    return undefined;
  };
  return visit(value, "");
}

/** Throws {@link StateValueError} unless every key of the state or delta can be stored and every value is JSON. */
export function assertJsonState(state: Record<string, unknown>): void {
  for (const key in state) {
    assertStateKey(key);
    assertJsonValue(key, state[key]);
  }
}

/**
 * Throws `STATE_KEY_INVALID` for `__proto__` (bare or after a scope prefix). Written to an object, that key sets the
 * object's prototype instead of a field: the value would be lost in silence, and its fields would show through as
 * other keys (`state.set("__proto__", { "app:admin": true })` wrote `app:admin`).
 */
export function assertStateKey(key: string): void {
  if (key === "__proto__" || key === "app:__proto__" || key === "user:__proto__" || key === "temp:__proto__") {
    throw new ToolsmithError("STATE_KEY_INVALID", `State key "${key}" cannot be stored: JavaScript reads __proto__ as an object's prototype, not as a key. Use another key.`);
  }
}
