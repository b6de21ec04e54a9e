import { ConfigurationError } from "../../../errors/toolsmith-error.js";
import { USER_PREFIX } from "../../../sessions/state-prefixes.js";
import { joinAgentPath, relativeAgentPath } from "./agent-path.js";
import { BackendError, isoWithOffset, type Backend, type FileEntry, type PathRequest, type ReadLinesRequest, type ReadLinesResult, type WriteRequest } from "./backend.js";
import { splitLines } from "./split-lines.js";

/** A file as it is kept in state. */
interface StoredFile {
  content: string;
  modifiedAt: string;
}

/** Options of {@link StateBackend}. */
export interface StateBackendOptions {
  /** Prefix of the state keys holding files; default `"files:"`. A `user:` prefix makes files the user's, across sessions. */
  keyPrefix?: string;
}

/**
 * Files kept in the session state, one key per file (`files:/src/a.ts` →
 * `{content, modifiedAt}`), so they are stored with the session and survive
 * restarts with a persistent session service. Directories are implied by the
 * files in them. Text only.
 */
export class StateBackend implements Backend {
  readonly keyPrefix: string;

  constructor(options: StateBackendOptions = {}) {
    this.keyPrefix = options.keyPrefix ?? "files:";
  }

  async list({ context, path }: PathRequest): Promise<FileEntry[]> {
    if ((await this.stat({ context, path })) !== "directory") {
      if (this.#file(context, path)) throw new BackendError("NOT_DIRECTORY", `${path} is a file. Call read_file to read it, or ls on its directory.`);
      throw new BackendError("NOT_FOUND", `${path} does not exist. Call ls on / or glob to find files.`);
    }
    const entries = new Map<string, FileEntry>();
    for (const [filePath, file] of this.#files(context)) {
      const relative = relativeAgentPath(path, filePath);
      if (!relative) continue;
      const slash = relative.indexOf("/");
      const name = slash === -1 ? relative : relative.slice(0, slash);
      const entryPath = joinAgentPath(path, name);
      if (slash === -1) entries.set(entryPath, fileEntry(entryPath, file));
      else entries.set(entryPath, newerDirectory(entries.get(entryPath), entryPath, file.modifiedAt));
    }
    return [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async describe({ context, path }: PathRequest): Promise<FileEntry> {
    const file = this.#file(context, path);
    if (file) return fileEntry(path, file);
    // A directory is implied by its files; it changed when the newest of them did.
    let directory: FileEntry | undefined = path === "/" ? newerDirectory(undefined, path, 0) : undefined;
    for (const [filePath, inner] of this.#files(context)) if (relativeAgentPath(path, filePath)) directory = newerDirectory(directory, path, inner.modifiedAt);
    if (!directory) throw new BackendError("NOT_FOUND", `Error: file not found: ${path}`);
    return directory;
  }

  async stat({ context, path }: PathRequest): Promise<"file" | "directory" | undefined> {
    if (this.#file(context, path)) return "file";
    if (path === "/") return "directory";
    for (const [filePath] of this.#files(context)) if (filePath.startsWith(`${path}/`)) return "directory";
    return undefined;
  }

  async readBytes(request: PathRequest): Promise<Uint8Array> {
    return Buffer.from(this.#read(request).content, "utf8");
  }

  async readLines(request: ReadLinesRequest): Promise<ReadLinesResult> {
    const lines = splitLines(this.#read(request).content);
    const window = lines.slice(request.offset, request.offset + request.limit);
    return { lines: window, remaining: Math.max(0, lines.length - request.offset - window.length) };
  }

  async write({ context, path, content, overwrite }: WriteRequest): Promise<void> {
    if (path === "/" || (await this.stat({ context, path })) === "directory") throw new BackendError("IS_DIRECTORY", `${path} is a directory. Give a file path.`);
    if (!overwrite && this.#file(context, path)) throw new BackendError("EXISTS", `${path} already exists.`);
    const stored: StoredFile = { content, modifiedAt: new Date().toISOString() };
    context.state.set(this.keyPrefix + path, stored);
  }

  async *walk({ context, path }: PathRequest): AsyncIterable<string> {
    for (const [filePath] of this.#files(context)) if (relativeAgentPath(path, filePath)) yield filePath;
  }

  #read({ context, path }: PathRequest): StoredFile {
    const file = this.#file(context, path);
    if (file) return file;
    if (path === "/" || [...this.#files(context)].some(([filePath]) => filePath.startsWith(`${path}/`))) {
      throw new BackendError("IS_DIRECTORY", `${path} is a directory. Call ls to see its files.`);
    }
    throw new BackendError("NOT_FOUND", `Error: file not found: ${path}`);
  }

  #file(context: PathRequest["context"], path: string): StoredFile | undefined {
    const value = context.state.get<StoredFile>(this.keyPrefix + path);
    return value && typeof value.content === "string" ? value : undefined;
  }

  *#files(context: PathRequest["context"]): Iterable<[string, StoredFile]> {
    for (const [key, value] of Object.entries(context.state.toRecord())) {
      if (key.startsWith(this.keyPrefix) && value && typeof (value as StoredFile).content === "string") yield [key.slice(this.keyPrefix.length), value as StoredFile];
    }
  }
}

/**
 * Files that belong to the user and persist across all of their sessions
 * (seed 002's `StoreBackend`): a {@link StateBackend} over `user:`-prefixed
 * state keys, so they live in the configured session service's user state
 * (SQLite, PostgreSQL, in memory) with no extra service to set up.
 */
export class StoreBackend extends StateBackend {
  constructor(options: { keyPrefix?: string } = {}) {
    const keyPrefix = options.keyPrefix ?? `${USER_PREFIX}files:`;
    if (!keyPrefix.startsWith(USER_PREFIX)) throw new ConfigurationError("INVALID_STORE_PREFIX", `StoreBackend keyPrefix must start with "${USER_PREFIX}" so files persist across the user's sessions; got ${JSON.stringify(keyPrefix)}.`);
    super({ keyPrefix });
  }
}

/** The same as `new StoreBackend(options)`. */
export function storeBackend(options: { keyPrefix?: string } = {}): StoreBackend {
  return new StoreBackend(options);
}

function fileEntry(path: string, file: StoredFile): FileEntry {
  return { path, isDirectory: false, size: Buffer.byteLength(file.content), modifiedAt: isoWithOffset(file.modifiedAt) };
}

/** A directory entry, dated by the newest file seen in it so far. */
function newerDirectory(entry: FileEntry | undefined, path: string, modifiedAt: string | number): FileEntry {
  const time = isoWithOffset(modifiedAt);
  return entry && entry.modifiedAt >= time ? entry : { path, isDirectory: true, size: 0, modifiedAt: time };
}
