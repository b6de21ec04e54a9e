import { BackendError } from "./backend.js";

/**
 * Glob matching for the `glob` and `grep` tools, in time that grows with the
 * pattern's length times the path's, whatever the pattern. The model chooses
 * the pattern (and a web page or a file it read may choose it for the model);
 * a regular expression built from `*a*a*a*a*b` backtracks for 51 seconds on
 * one 255-character file name, with the process's event loop blocked, so
 * every run and request of a server stops with it. Matched here without
 * regular expressions: `*` and `**` by the classic wildcard algorithm, which
 * returns to the last star only.
 *
 * The syntax is seed 002's (wcmatch with braces and globstar), with hidden
 * files matched: `*` (any characters but `/`),
 * `?` (one), `[abc]`, `[a-z]`, `[!a]` and `[^a]`, `**` as a whole segment
 * (any number of folders), `{a,b}` with nesting, `{1..5}` and `{a..e}`
 * ranges, `\` escaping the next character, and a leading `!` negating the
 * whole pattern. Extended globs (`@(a|b)`, `+(a)`) are refused with a
 * message that says to use braces.
 */

/** Longer patterns are refused: no path needs one, and matching time grows with the length. */
export const MAX_GLOB_LENGTH = 1_000;

/** More alternatives than this after brace expansion are refused (`{a,b}{c,d}` is four). */
export const MAX_GLOB_ALTERNATIVES = 1_000;

/**
 * More characters than this in all the alternatives together are refused: a
 * path is matched against each, so this bounds the work per path (with paths
 * of at most 4,096 characters, about 16 million steps at worst, a few
 * milliseconds; a typical path takes microseconds).
 */
export const MAX_GLOB_EXPANDED_LENGTH = 4_000;

/** Matches one character of a path segment. */
type CharTest = (char: string) => boolean;

/** A segment pattern: `true` for a star (any run of characters), else a test for one character. */
type SegmentToken = CharTest | true;

/** A path pattern: `true` for a globstar (any number of segments), else the tokens of one segment. */
type PathToken = SegmentToken[] | true;

/** Tests a path relative to the searched folder, such as `src/a.ts`. */
export type GlobMatcher = (path: string) => boolean;

function refuse(pattern: string, problem: string): never {
  throw new BackendError("INVALID_GLOB", `Invalid glob pattern ${JSON.stringify(pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern)}: ${problem}`);
}

/**
 * Compiles a glob. With `basename`, a pattern without `/` is matched against
 * the last segment of the path (`*.py` finds `src/a.py`). Throws a
 * `BackendError` (`INVALID_GLOB`) whose message says what to change.
 */
export function compileGlob(pattern: string, options: { basename?: boolean } = {}): GlobMatcher {
  if (pattern.length > MAX_GLOB_LENGTH) refuse(pattern, `it is ${pattern.length} characters long; a glob may have at most ${MAX_GLOB_LENGTH}.`);
  const negated = pattern.startsWith("!") && !pattern.startsWith("!(");
  const body = negated ? pattern.slice(1) : pattern;
  const extglob = /(^|[^\\])[@!+*?]\(/.exec(body);
  if (extglob) refuse(pattern, `extended globs such as @(a|b) are not supported. Use braces instead, such as *.{ts,js}, or write \\( for a parenthesis in a name.`);
  const expanded = expandBraces(body, pattern);
  const expandedLength = expanded.reduce((sum, alternative) => sum + alternative.length, 0);
  if (expandedLength > MAX_GLOB_EXPANDED_LENGTH) refuse(pattern, `its braces expand to ${expandedLength} characters of patterns; at most ${MAX_GLOB_EXPANDED_LENGTH} are matched. Use fewer or shorter brace lists, or run several searches.`);
  const alternatives = expanded.map((alternative) => parsePath(withoutLeadingDots(alternative)));
  const onBasename = options.basename === true && !alternatives.some(({ slash }) => slash);
  const matches = (path: string) => {
    const parts = (onBasename ? path.slice(path.lastIndexOf("/") + 1) : path).split("/");
    return alternatives.some(({ tokens }) => matchSequence(tokens, parts, matchPathToken));
  };
  return negated ? (path) => !matches(path) : matches;
}

/** The pattern without leading `./` segments, which name the searched folder itself (`././*.ts` is `*.ts`). */
function withoutLeadingDots(pattern: string): string {
  let start = 0;
  while (pattern.startsWith("./", start)) start += 2;
  return pattern.slice(start);
}

/**
 * The classic wildcard match, over characters of a segment or segments of a
 * path: a star takes nothing at first and one more item each time the rest
 * fails, returning only to the last star. Each step moves forward or gives
 * the last star one more item, so the work is at most items × tokens.
 */
function matchSequence<Token, Item>(tokens: readonly (Token | true)[], items: readonly Item[] | string, matchOne: (token: Token, item: Item) => boolean): boolean {
  let token = 0;
  let item = 0;
  let lastStar = -1;
  let takenByStar = 0;
  while (item < items.length) {
    const current = tokens[token];
    if (current === true) {
      lastStar = token++;
      takenByStar = item;
    } else if (current !== undefined && matchOne(current, items[item] as Item)) {
      token++;
      item++;
    } else if (lastStar >= 0) {
      token = lastStar + 1;
      item = ++takenByStar;
    } else return false;
  }
  while (tokens[token] === true) token++;
  return token === tokens.length;
}

const matchChar = (test: CharTest, char: string) => test(char);
const matchPathToken = (segment: SegmentToken[], part: string) => matchSequence(segment, part, matchChar);

/** A pattern without braces, split into segments: `**` alone is a globstar; `slash` says whether it named folders. */
function parsePath(pattern: string): { tokens: PathToken[]; slash: boolean } {
  const segments = splitUnescaped(pattern, "/");
  return { tokens: segments.map((segment) => (segment === "**" ? true : parseSegment(segment))), slash: segments.length > 1 };
}

function parseSegment(segment: string): SegmentToken[] {
  const tokens: SegmentToken[] = [];
  for (let index = 0; index < segment.length; index++) {
    const char = segment[index]!;
    if (char === "*") {
      // `**` inside a segment (`a**b`) is a star, as in picomatch; runs of stars are one.
      if (tokens.at(-1) !== true) tokens.push(true);
    } else if (char === "?") tokens.push(anyChar);
    else if (char === "\\" && index + 1 < segment.length) {
      const escaped = segment[++index]!;
      tokens.push((given) => given === escaped);
    } else if (char === "[") {
      const parsed = parseClass(segment, index);
      if (parsed) {
        tokens.push(parsed.test);
        index = parsed.end;
      } else tokens.push((given) => given === "[");
    } else tokens.push((given) => given === char);
  }
  return tokens;
}

const anyChar: CharTest = () => true;

/** `[abc]`, `[a-z]`, `[!a]` or `[^a]` from `start` (the `[`), or `undefined` when it is not closed (then `[` is a character). */
function parseClass(segment: string, start: number): { test: CharTest; end: number } | undefined {
  let index = start + 1;
  const negated = segment[index] === "!" || segment[index] === "^";
  if (negated) index++;
  const ranges: Array<[string, string]> = [];
  let first = true;
  while (index < segment.length && (segment[index] !== "]" || first)) {
    first = false;
    let low = segment[index]!;
    if (low === "\\" && index + 1 < segment.length) low = segment[++index]!;
    let high = low;
    if (segment[index + 1] === "-" && index + 2 < segment.length && segment[index + 2] !== "]") {
      high = segment[index + 2]!;
      if (high === "\\" && index + 3 < segment.length) high = segment[++index + 2]!;
      index += 2;
    }
    ranges.push([low, high]);
    index++;
  }
  if (index >= segment.length) return undefined;
  const inClass = (char: string) => ranges.some(([low, high]) => char >= low && char <= high);
  return { test: negated ? (char) => !inClass(char) : inClass, end: index };
}

/** Splits at every `separator` not escaped with `\`. */
function splitUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === "\\" && index + 1 < text.length) {
      current += char + text[++index]!;
    } else if (char === separator) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/**
 * Every pattern the braces stand for, as bash expands them: `{a,b}` lists,
 * nested ones, and `{1..5}` or `{a..e}` ranges; a brace with neither a comma
 * nor a range (`{a}`), or unclosed, is a character. Refuses more than
 * {@link MAX_GLOB_ALTERNATIVES} patterns.
 */
function expandBraces(pattern: string, original: string): string[] {
  const open = findOpenBrace(pattern);
  if (open === undefined) return [pattern];
  const { start, end, options } = open;
  const prefix = pattern.slice(0, start);
  const suffixes = expandBraces(pattern.slice(end + 1), original);
  const expanded: string[] = [];
  for (const option of options) {
    for (const head of expandBraces(option, original)) {
      for (const tail of suffixes) {
        expanded.push(prefix + head + tail);
        if (expanded.length > MAX_GLOB_ALTERNATIVES) refuse(original, `its braces stand for more than ${MAX_GLOB_ALTERNATIVES} patterns. Use fewer or shorter brace lists, or run several searches.`);
      }
    }
  }
  return expanded;
}

/** The first brace group that expands: its position and its options (a range already listed). */
function findOpenBrace(pattern: string): { start: number; end: number; options: string[] } | undefined {
  for (let start = 0; start < pattern.length; start++) {
    if (pattern[start] === "\\") {
      start++;
      continue;
    }
    if (pattern[start] !== "{") continue;
    let depth = 0;
    const commas: number[] = [];
    for (let index = start; index < pattern.length; index++) {
      const char = pattern[index];
      if (char === "\\") index++;
      else if (char === "{") depth++;
      else if (char === "," && depth === 1) commas.push(index);
      else if (char === "}" && --depth === 0) {
        const inner = pattern.slice(start + 1, index);
        if (commas.length > 0) {
          const bounds = [start, ...commas, index];
          return { start, end: index, options: bounds.slice(1).map((bound, at) => pattern.slice(bounds[at]! + 1, bound)) };
        }
        const range = rangeOptions(inner);
        if (range) return { start, end: index, options: range };
        break;
      }
    }
  }
  return undefined;
}

/** `1..5` (or `5..1`, or `a..e`) as its items; at most a thousand and one, the rest refused by the caller's count. */
function rangeOptions(inner: string): string[] | undefined {
  const numbers = /^(-?\d+)\.\.(-?\d+)$/.exec(inner);
  const letters = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(inner);
  if (!numbers && !letters) return undefined;
  const from = numbers ? Number(numbers[1]) : letters![1]!.charCodeAt(0);
  const to = numbers ? Number(numbers[2]) : letters![2]!.charCodeAt(0);
  const step = from <= to ? 1 : -1;
  const items: string[] = [];
  for (let value = from; items.length <= MAX_GLOB_ALTERNATIVES; value += step) {
    items.push(numbers ? String(value) : String.fromCharCode(value));
    if (value === to) break;
  }
  return items;
}

/**
 * Whether ripgrep's globs read the pattern as these do, so that handing it to ripgrep to narrow a search loses no
 * file: not with a `!`, a `{1..5}` range (a literal to ripgrep) or a brace group without a comma (`{a}`, a literal
 * here, an alternative to ripgrep).
 */
export function ripgrepReadsAlike(pattern: string): boolean {
  return !pattern.includes("!") && !pattern.includes("..") && !/\{[^{},]*\}/.test(pattern);
}
