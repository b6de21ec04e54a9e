import { ConfigurationError } from "./toolsmith-error.js";

/** An option its receiver would not honour: unknown to it, or one of ADK's it lacks (then with why, and the value it behaves as). */
export interface UnhonouredOption {
  key: string;
  adkOnly?: { behavesAs: unknown; why: string };
}

/**
 * The first option `options` sets that its receiver would otherwise pass over in silence: one it does not know, or
 * one of ADK's it does not have set to anything but the value it behaves as. An option left `undefined` counts as
 * left out. Names are looked up among the maps' own keys, so `toString` or `__proto__` is an unknown option, not a
 * member of `Object.prototype`. Each receiver words its own refusal.
 */
export function unhonouredOption(options: object, known: readonly string[], adkOnly: Readonly<Record<string, { behavesAs: unknown; why: string }>>): UnhonouredOption | undefined {
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || known.includes(key)) continue;
    if (!Object.hasOwn(adkOnly, key)) return { key };
    if (value !== adkOnly[key]!.behavesAs) return { key, adkOnly: adkOnly[key]! };
  }
  return undefined;
}

/**
 * Refuses the first option `owner` would not honour (see {@link unhonouredOption}) with `UNSUPPORTED_OPTION`: an
 * unknown one named with what `owner` takes (a misspelt `requireConfirmation` must not leave a tool unguarded), one
 * of ADK's with why toolsmith lacks it.
 */
export function refuseUnhonouredOptions(owner: string, options: object, known: readonly string[], adkOnly: Readonly<Record<string, { behavesAs: unknown; why: string }>> = {}): void {
  const found = unhonouredOption(options, known, adkOnly);
  if (!found) return;
  throw new ConfigurationError(
    "UNSUPPORTED_OPTION",
    found.adkOnly ? `${owner}'s ${found.key} is not supported by toolsmith: ${found.adkOnly.why}.` : `${owner} has no option "${found.key}": it takes ${known.join(", ")}. Check its spelling.`,
  );
}

/**
 * How a value given where something else was wanted reads in a message: `nothing`, `an empty string`, a short string
 * quoted (a long one by its length only, so a message never carries a document or a secret), a number or boolean as
 * itself (`NaN`, `-1`), `null`, `a list`, `an object`, `a function`.
 */
export function describeGiven(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === "") return "an empty string";
  if (typeof value === "string") return value.length <= 40 ? JSON.stringify(value) : `a string of ${value.length} characters`;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Refuses, with `UNSUPPORTED_OPTION`, an id that is not a non-empty string: "`subject` needs `key` as a non-empty string; it got …". */
export function refuseUnlessId(subject: string, key: string, value: unknown): asserts value is string {
  if (typeof value === "string" && value !== "") return;
  throw new ConfigurationError("UNSUPPORTED_OPTION", `${subject} needs ${key} as a non-empty string; it got ${describeGiven(value)}.`);
}

/**
 * Refuses, with `UNSUPPORTED_OPTION`, options that are not an options object (nothing, or a path or URL given alone),
 * saying the call that works: `example` writes it, with the string given when there was one.
 */
export function refuseNonObjectOptions(owner: string, options: unknown, example: (given: string | undefined) => string): asserts options is Record<string, unknown> {
  if (typeof options === "object" && options !== null && !Array.isArray(options)) return;
  const given = typeof options === "string" ? options : undefined;
  throw new ConfigurationError("UNSUPPORTED_OPTION", `${owner} takes an options object${given === undefined ? "" : ", not a string"}: ${example(given)}.`);
}

/** A number option: its default when left out, else a positive number, refused otherwise. */
export function positiveOption(owner: string, value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new ConfigurationError("UNSUPPORTED_OPTION", `${owner}'s ${name} must be a positive number; it got ${String(value)}.`);
  return value;
}
