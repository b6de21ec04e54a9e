import { relativeAgentPath } from "./agent-path.js";
import type { Backend, BackendContext } from "./backend.js";
import { compileGlob, ripgrepReadsAlike } from "./glob-match.js";
import { runRipgrep } from "./run-ripgrep.js";
import { splitLines } from "./split-lines.js";

/** What `grep` reports: only file names, matching lines, or a count of matching lines per file. */
export type GrepOutputMode = "files_with_matches" | "content" | "count";

/** The matches in one file. */
export interface GrepFileResult {
  path: string;
  /** Matching lines (mode `count` and `content`). */
  count?: number;
  /** Line number (1-based) and text of each matching line (mode `content`). */
  lines?: Array<{ lineNumber: number; text: string }>;
}

/** Options of {@link grepSearch}. */
export interface GrepSearchRequest {
  backend: Backend;
  context: BackendContext;
  /** Matched literally, case-sensitively, within one line. */
  pattern: string;
  /** Normalised file or directory to search. */
  path: string;
  /** Only files whose path (relative to `path`) matches; a pattern without `/` matches the file name anywhere. */
  glob?: string;
  mode: GrepOutputMode;
  /** The `rg` binary; the JavaScript search is used without it or on a backend with no real directory. */
  ripgrep?: string;
  abortSignal?: AbortSignal;
}

/** Files larger than this are skipped by both searches. */
export const GREP_MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * A literal search, by ripgrep or in JavaScript with the same rules: hidden
 * files included, ignore files not read, symbolic links not followed, files
 * with a NUL byte treated as binary and skipped, files over 10 MB skipped.
 * Results are sorted by path.
 */
export async function grepSearch(request: GrepSearchRequest): Promise<GrepFileResult[]> {
  const filter = request.glob ? compileGlob(request.glob, { basename: true }) : undefined;
  const keep = (path: string) => !filter || filter(relativeAgentPath(request.path, path) || path.slice(path.lastIndexOf("/") + 1));
  const useRipgrep = request.ripgrep && request.backend.rootDirectory !== undefined && (await request.backend.stat({ context: request.context, path: request.path })) === "directory";
  const results = useRipgrep ? await ripgrepSearch(request) : await javascriptSearch(request);
  return results.filter((result) => keep(result.path)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Files searched at once: enough to keep the disk busy while one file is being matched. */
const JAVASCRIPT_CONCURRENCY = 16;

async function javascriptSearch(request: GrepSearchRequest): Promise<GrepFileResult[]> {
  const { backend, context } = request;
  const files = (await backend.stat({ context, path: request.path })) === "file" ? [request.path] : backend.walk({ context, path: request.path });
  const iterator = (Symbol.asyncIterator in files ? files[Symbol.asyncIterator]() : (files as string[])[Symbol.iterator]()) as AsyncIterator<string> | Iterator<string>;
  const results: GrepFileResult[] = [];
  const worker = async () => {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      const result = await searchFile(request, next.value);
      if (result) results.push(result);
    }
  };
  await Promise.all(Array.from({ length: JAVASCRIPT_CONCURRENCY }, worker));
  return results;
}

async function searchFile(request: GrepSearchRequest, path: string): Promise<GrepFileResult | undefined> {
  const { backend, context, pattern } = request;
  let bytes: Uint8Array;
  try {
    bytes = await backend.readBytes({ context, path });
  } catch {
    return undefined;
  }
  if (bytes.length > GREP_MAX_FILE_BYTES || bytes.includes(0)) return undefined;
  const text = Buffer.from(bytes).toString("utf8");
  if (!text.includes(pattern)) return undefined;
  if (request.mode === "files_with_matches") return { path };
  const lines: Array<{ lineNumber: number; text: string }> = [];
  splitLines(text).forEach((line, index) => {
    if (line.includes(pattern)) lines.push({ lineNumber: index + 1, text: line });
  });
  return request.mode === "count" ? { path, count: lines.length } : { path, count: lines.length, lines };
}

async function ripgrepSearch(request: GrepSearchRequest): Promise<GrepFileResult[]> {
  const cwd = request.backend.rootDirectory! + (request.path === "/" ? "" : request.path);
  const args = ripgrepArguments(request);
  const output = (await runRipgrep({ binary: request.ripgrep!, args, cwd, abortSignal: request.abortSignal })).toString("utf8");
  const prefix = request.path === "/" ? "" : request.path;
  const toAgentPath = (file: string) => `${prefix}/${file.startsWith("./") ? file.slice(2) : file}`;
  if (request.mode === "files_with_matches") return output.split("\0").filter(Boolean).map((file) => ({ path: toAgentPath(file) }));
  const byFile = new Map<string, GrepFileResult>();
  for (const row of output.split("\n")) {
    const separator = row.indexOf("\0");
    if (separator === -1) continue;
    const path = toAgentPath(row.slice(0, separator));
    const rest = row.slice(separator + 1);
    if (request.mode === "count") {
      byFile.set(path, { path, count: Number(rest) });
      continue;
    }
    const colon = rest.indexOf(":");
    const result = byFile.get(path) ?? { path, count: 0, lines: [] };
    result.lines!.push({ lineNumber: Number(rest.slice(0, colon)), text: rest.slice(colon + 1) });
    result.count!++;
    byFile.set(path, result);
  }
  return [...byFile.values()];
}

/** The ripgrep command line (without `--no-config`, which every run adds) for a search. */
export function ripgrepArguments(request: Pick<GrepSearchRequest, "mode" | "glob" | "pattern">): string[] {
  const modeArgs = request.mode === "files_with_matches" ? ["--files-with-matches"] : request.mode === "count" ? ["--count"] : ["--line-number", "--no-heading", "--with-filename"];
  const args = ["--no-ignore", "--hidden", "--no-messages", "--color", "never", "--fixed-strings", "--case-sensitive", "--null", `--max-filesize=${GREP_MAX_FILE_BYTES}`, ...modeArgs];
  // The glob narrows ripgrep's search only where ripgrep reads it as ours does; ours decides either way.
  if (request.glob && ripgrepReadsAlike(request.glob)) args.push("--glob", request.glob);
  args.push("--regexp", request.pattern, "--", ".");
  return args;
}
