import { ToolsmithError } from "../../../errors/toolsmith-error.js";
import type { State } from "../../../sessions/state.js";

/** What a backend reads from the current call: the session state (a `ToolContext` fits). */
export interface BackendContext {
  readonly state: State;
}

/** One entry of a directory listing; `path` is absolute in the agent's view. */
export interface FileEntry {
  path: string;
  isDirectory: boolean;
  /** Bytes; 0 for a directory. */
  size: number;
  /** When it last changed, ISO 8601 with an offset (`2025-01-15T10:30:00.000+00:00`), as seed 002's `modified_at`. */
  modifiedAt: string;
}

/** A time as seed 002 writes `modified_at`: ISO 8601 with the UTC offset spelt `+00:00`. */
export function isoWithOffset(time: Date | string | number): string {
  return new Date(time).toISOString().replace(/Z$/, "+00:00");
}

/** Options of {@link Backend.readLines}. */
export interface ReadLinesRequest {
  context: BackendContext;
  path: string;
  /** 0-based index of the first line returned. */
  offset: number;
  /** At most this many lines. */
  limit: number;
}

/** A window of a file's lines and how many follow it. */
export interface ReadLinesResult {
  lines: string[];
  /** Lines after the window. */
  remaining: number;
}

/** Options of {@link Backend.write}. */
export interface WriteRequest {
  context: BackendContext;
  path: string;
  content: string;
  /** Replace an existing file; without it, writing over a file fails with `EXISTS`. */
  overwrite: boolean;
}

/** Options naming one path. */
export interface PathRequest {
  context: BackendContext;
  path: string;
}

/**
 * Where the filesystem tools keep files. Paths are absolute in the agent's
 * view (`/src/main.ts`), already normalised by the tools. A backend reads
 * what it needs of the call from `context` on every call, so one backend
 * serves every session. Failures throw a {@link BackendError}.
 *
 * Implementations: {@link StateBackend} (session state), a store backend
 * (the user's state, across sessions), {@link FilesystemBackend} (a real
 * directory), {@link CompositeBackend} (routes path prefixes).
 */
export interface Backend {
  /** The entries directly inside a directory, sorted by path. */
  list(request: PathRequest): Promise<FileEntry[]>;
  /** One file or directory with its size and time (glob's entries); `NOT_FOUND` when there is nothing there. */
  describe(request: PathRequest): Promise<FileEntry>;
  /** Whether the path is a file, a directory, or nothing. */
  stat(request: PathRequest): Promise<"file" | "directory" | undefined>;
  /** A file's bytes (for images and small edits). */
  readBytes(request: PathRequest): Promise<Uint8Array>;
  /** A window of a file's lines; a backend on disk streams, so a huge file is never held whole. */
  readLines(request: ReadLinesRequest): Promise<ReadLinesResult>;
  write(request: WriteRequest): Promise<void>;
  /** Every file under a directory, recursively, as absolute paths in any order. */
  walk(request: PathRequest): AsyncIterable<string>;
  /** The real directory every path of this backend maps into, unchanged (`/a` is `<rootDirectory>/a`); ripgrep searches it directly. */
  readonly rootDirectory?: string;
  /** The real directory shell commands run in; a composite backend has its default backend's, though its routes live elsewhere. */
  readonly workingDirectory?: string;
}

/** Why a backend call failed; `code` tells the tool what to tell the model. */
export type BackendErrorCode = "NOT_FOUND" | "IS_DIRECTORY" | "NOT_DIRECTORY" | "NOT_A_FILE" | "EXISTS" | "PATH_REFUSED" | "IO" | "INVALID_GLOB";

/** A backend call that failed for a reason the model can act on. */
export class BackendError extends ToolsmithError {
  declare readonly code: BackendErrorCode;

  constructor(code: BackendErrorCode, message: string) {
    super(code, message);
  }
}
