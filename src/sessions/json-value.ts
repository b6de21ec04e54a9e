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
  const seen = new Set<object>();
  const visit = (current: unknown, path: string): void => {
    switch (typeof current) {
      case "string":
      case "boolean":
        return;
      case "number":
        if (!Number.isFinite(current)) throw new StateValueError(key, path, `is ${current}`);
        return;
      case "object":
        break;
      case "undefined":
        // JSON leaves undefined fields out; only a value that is undefined as a whole cannot be stored.
        if (path) return;
        throw new StateValueError(key, path, "is undefined");
      default:
        throw new StateValueError(key, path, `is a ${typeof current}`);
    }
    if (current === null) return;
    const object = current as object;
    if (seen.has(object)) throw new StateValueError(key, path, "refers to itself (a cycle)");
    const prototype = Object.getPrototypeOf(object);
    if (!Array.isArray(object) && prototype !== Object.prototype && prototype !== null) {
      throw new StateValueError(key, path, `is a ${object.constructor?.name ?? "class instance"}, not a plain object`);
    }
    seen.add(object);
    for (const [childKey, child] of Object.entries(object)) visit(child, `${path}${Array.isArray(object) ? `[${childKey}]` : `.${childKey}`}`);
    seen.delete(object);
  };
  visit(value, "");
}

/** Throws {@link StateValueError} unless every value of the state or delta is JSON. */
export function assertJsonState(state: Record<string, unknown>): void {
  for (const key in state) assertJsonValue(key, state[key]);
}
