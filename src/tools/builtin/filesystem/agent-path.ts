import { BackendError } from "./backend.js";

const DRIVE_LETTER = /^[a-zA-Z]:/;
const PERCENT_ESCAPE = /%[0-9a-fA-F]{2}/;

/**
 * The canonical form of a path the model gave (`/src/./a.ts` → `/src/a.ts`).
 * As seed 002 has it, paths must be absolute and traversal (`..`, `~`, drive
 * letters) is refused with its message, `Path traversal not allowed: <path>`.
 * Also refused, because they could mean different things to different
 * layers: backslashes, NUL and other control characters, and percent-escapes
 * (`%2e%2e`). Each message says what to send instead.
 */
export function normalizeAgentPath(path: unknown): string {
  if (typeof path !== "string" || path.length === 0) refuse("The path is empty. Give an absolute path such as /src/main.ts.");
  if (path.length > 4096) refuse("The path is longer than 4096 characters. Give a shorter absolute path.");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) refuse("The path contains a NUL or control character. Give a plain absolute path such as /src/main.ts.");
  const segments = path.split("/");
  if (DRIVE_LETTER.test(path) || segments.some((segment) => segment === ".." || segment.startsWith("~"))) refuse(`Path traversal not allowed: ${path}`);
  if (path.includes("\\")) refuse(`The path ${JSON.stringify(path)} contains a backslash. Use forward slashes: /dir/file.txt.`);
  if (PERCENT_ESCAPE.test(path)) refuse(`The path ${JSON.stringify(path)} contains a percent-escape. Write the characters themselves, without URL encoding.`);
  if (!path.startsWith("/")) refuse(`All paths must be absolute (start with /): ${path}. Try /${path}.`);
  return `/${segments.filter((segment) => segment !== "" && segment !== ".").join("/")}`;
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
