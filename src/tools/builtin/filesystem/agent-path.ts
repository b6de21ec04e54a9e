import { BackendError } from "./backend.js";

const DRIVE_LETTER = /^[a-zA-Z]:/;
const PERCENT_ESCAPE = /%[0-9a-fA-F]{2}/;

/**
 * The canonical form of a path the model gave (`/src/./a.ts` → `/src/a.ts`).
 * Relative paths are taken from `/`. Refuses what could name something outside
 * the root or mean different things to different layers: `..` segments, `~`,
 * drive letters, backslashes, NUL and other control characters, and
 * percent-escapes (`%2e%2e`), each with a message saying what to send instead.
 */
export function normalizeAgentPath(path: unknown): string {
  if (typeof path !== "string" || path.length === 0) refuse("The path is empty. Give an absolute path such as /src/main.ts.");
  if (path.length > 4096) refuse("The path is longer than 4096 characters. Give a shorter absolute path.");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) refuse("The path contains a NUL or control character. Give a plain absolute path such as /src/main.ts.");
  if (path.includes("\\")) refuse(`The path ${JSON.stringify(path)} contains a backslash. Use forward slashes: /dir/file.txt.`);
  if (DRIVE_LETTER.test(path)) refuse(`The path ${JSON.stringify(path)} has a drive letter. Paths are absolute from the workspace root, such as /src/main.ts.`);
  if (PERCENT_ESCAPE.test(path)) refuse(`The path ${JSON.stringify(path)} contains a percent-escape. Write the characters themselves, without URL encoding.`);
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") refuse(`The path ${JSON.stringify(path)} contains "..". Give an absolute path inside the workspace, such as /src/main.ts.`);
    if (segment.startsWith("~")) refuse(`The path ${JSON.stringify(path)} uses "~". There is no home directory here; give an absolute path from the workspace root.`);
    segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

/** Joins a directory and a name in the agent's view. */
export function joinAgentPath(directory: string, name: string): string {
  return directory === "/" ? `/${name}` : `${directory}/${name}`;
}

/** The path of `path` relative to `directory` (both normalised), or `undefined` when it is not inside it. */
export function relativeAgentPath(directory: string, path: string): string | undefined {
  if (directory === "/") return path.slice(1);
  if (path === directory) return "";
  return path.startsWith(`${directory}/`) ? path.slice(directory.length + 1) : undefined;
}

function refuse(message: string): never {
  throw new BackendError("PATH_REFUSED", message);
}
