import { relativeAgentPath } from "./agent-path.js";
import type { Backend, BackendContext } from "./backend.js";
import { compileGlob, ripgrepReadsAlike } from "./glob-match.js";
import { runRipgrep } from "./run-ripgrep.js";

/** Options of {@link globFiles}. */
export interface GlobFilesRequest {
  backend: Backend;
  context: BackendContext;
  /** Matched against paths relative to `path`; a pattern starting with `/` against absolute paths. Braces and `**` work. */
  pattern: string;
  /** Normalised directory to search. */
  path: string;
  /** The `rg` binary to list files with, when the backend is a real directory; the JavaScript walk otherwise. */
  ripgrep?: string;
  abortSignal?: AbortSignal;
}

/** How many files are matched before the event loop gets a turn. */
const FILES_BETWEEN_TURNS = 256;

/** Files under `path` matching a glob, sorted. Hidden files are included; symbolic links are not followed. */
export async function globFiles(request: GlobFilesRequest): Promise<string[]> {
  const absolute = request.pattern.startsWith("/");
  const isMatch = compileGlob(absolute ? request.pattern.slice(1) : request.pattern);
  const matches: string[] = [];
  // ripgrep may narrow a "**/…" pattern itself (its globs agree with ours there, and match in linear time); ours still decides.
  const prefilter = !absolute && request.pattern.startsWith("**/") && ripgrepReadsAlike(request.pattern) ? request.pattern : undefined;
  let tested = 0;
  for await (const file of listFiles({ ...request, prefilter })) {
    // A listing from ripgrep arrives whole: other runs of the process get their turn every few hundred files.
    if (++tested % FILES_BETWEEN_TURNS === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      request.abortSignal?.throwIfAborted();
    }
    const candidate = absolute ? file.slice(1) : relativeAgentPath(request.path, file);
    if (candidate && isMatch(candidate)) matches.push(file);
  }
  return matches.sort();
}

/** Every file under the request's path: from `rg --files` on a real directory, else the backend's walk. */
export async function* listFiles(request: Omit<GlobFilesRequest, "pattern"> & { prefilter?: string }): AsyncIterable<string> {
  const root = request.backend.rootDirectory;
  if (!request.ripgrep || root === undefined || (await request.backend.stat({ context: request.context, path: request.path })) !== "directory") {
    yield* request.backend.walk({ context: request.context, path: request.path });
    return;
  }
  // The backend has checked the directory resolves inside the root; rg does not follow links out of it.
  const cwd = root + (request.path === "/" ? "" : request.path);
  const args = ["--files", "--no-ignore", "--hidden", "--null", ...(request.prefilter ? ["--glob", request.prefilter] : []), "."];
  const output = await runRipgrep({ binary: request.ripgrep, args, cwd, abortSignal: request.abortSignal });
  const prefix = request.path === "/" ? "" : request.path;
  for (const entry of output.toString("utf8").split("\0")) if (entry) yield `${prefix}/${entry.startsWith("./") ? entry.slice(2) : entry}`;
}
