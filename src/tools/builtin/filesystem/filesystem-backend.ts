import { constants, realpathSync } from "node:fs";
import { lstat, open, readdir, realpath, type FileHandle } from "node:fs/promises";
import { sep } from "node:path";
import { ConfigurationError } from "../../../errors/toolsmith-error.js";
import { enterFolders, isInside, openedInside, openInFolder, type ConfinementRefusals } from "../../../platform/confined-paths.js";
import { joinAgentPath } from "./agent-path.js";
import { BackendError, isoWithOffset, type Backend, type FileEntry, type PathRequest, type ReadLinesRequest, type ReadLinesResult, type WriteRequest } from "./backend.js";
import { readLineWindow } from "./read-line-window.js";


/** Options of {@link FilesystemBackend}. */
export interface FilesystemBackendOptions {
  /** The real directory the agent sees as `/`. Must exist. */
  rootDirectory: string;
  /** Largest file `readBytes` returns (images, edits); default 10 MB. */
  maxReadBytes?: number;
}

/**
 * A real directory as the agent's `/`. Nothing outside it can be read or
 * written: every call resolves the path with `realpath` at the moment of use
 * (so a symbolic link created after the agent started is caught too) and
 * refuses anything that lands outside the root; writes resolve each parent
 * directory the same way and open the file with `O_NOFOLLOW`, so a symlink in
 * the last component is never followed.
 */
export class FilesystemBackend implements Backend {
  readonly rootDirectory: string;
  readonly #maxReadBytes: number;

  constructor(options: FilesystemBackendOptions) {
    try {
      this.rootDirectory = realpathSync(options.rootDirectory);
    } catch {
      throw new ConfigurationError("ROOT_NOT_FOUND", `FilesystemBackend rootDirectory ${JSON.stringify(options.rootDirectory)} does not exist. Create it first.`);
    }
    this.#maxReadBytes = options.maxReadBytes ?? 10 * 1024 * 1024;
  }

  /** Commands run in the root. */
  get workingDirectory(): string {
    return this.rootDirectory;
  }

  async list({ path }: PathRequest): Promise<FileEntry[]> {
    const real = await this.#resolveExisting(path);
    let dirents;
    try {
      dirents = await readdir(real, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOTDIR") throw new BackendError("NOT_DIRECTORY", `${path} is a file. Call read_file to read it, or ls on its directory.`);
      throw translate(error, path);
    }
    const entries = await Promise.all(dirents.map((dirent) => this.#entry(`${real}${sep}${dirent.name}`, joinAgentPath(path, dirent.name))));
    return entries.filter((entry) => entry !== undefined).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async describe({ path }: PathRequest): Promise<FileEntry> {
    const entry = await this.#entry(await this.#resolveExisting(path), path);
    if (!entry) throw new BackendError("NOT_FOUND", `Error: file not found: ${path}`);
    return entry;
  }

  /** A directory entry from `lstat` (a link is described, not followed); `undefined` when it vanished meanwhile. */
  async #entry(real: string, path: string): Promise<FileEntry | undefined> {
    const stats = await lstat(real).catch(() => undefined);
    if (!stats) return undefined;
    const isDirectory = stats.isDirectory();
    return { path, isDirectory, size: isDirectory ? 0 : stats.size, modifiedAt: isoWithOffset(stats.mtime) };
  }

  async stat({ path }: PathRequest): Promise<"file" | "directory" | undefined> {
    let real;
    try {
      real = await this.#resolveExisting(path);
    } catch (error) {
      if (error instanceof BackendError && error.code === "NOT_FOUND") return undefined;
      throw error;
    }
    const stats = await lstat(real);
    return stats.isDirectory() ? "directory" : "file";
  }

  async readBytes({ path }: PathRequest): Promise<Uint8Array> {
    const real = await this.#resolveExisting(path);
    const handle = await this.#openChecked(real, path, constants.O_RDONLY);
    try {
      const stats = await handle.stat();
      if (stats.size > this.#maxReadBytes) throw new BackendError("IO", `${path} is ${stats.size} bytes, over the ${this.#maxReadBytes}-byte limit for reading whole. Use read_file with offset and limit.`);
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  async readLines(request: ReadLinesRequest): Promise<ReadLinesResult> {
    const real = await this.#resolveExisting(request.path);
    const handle = await this.#openChecked(real, request.path, constants.O_RDONLY);
    try {
      return await readLineWindow(handle, request.offset, request.limit);
    } finally {
      await handle.close();
    }
  }

  async write({ path, content, overwrite }: WriteRequest): Promise<void> {
    if (path === "/") throw new BackendError("IS_DIRECTORY", "/ is a directory. Give a file path.");
    const existing = overwrite ? await this.#resolveExisting(path).catch((error: BackendError) => (error.code === "NOT_FOUND" ? undefined : Promise.reject(error))) : undefined;
    const handle = existing ? await this.#openChecked(existing, path, constants.O_WRONLY) : await this.#createNew(path);
    try {
      // Truncated only now, after the opened file was checked: a file outside the root is never touched.
      if (existing) await handle.truncate(0);
      await handle.writeFile(content, "utf8");
    } finally {
      await handle.close();
    }
  }

  /**
   * A new file, created inside the root only. The parents are resolved (and made) one by one, each refused
   * when it resolves outside the root; the file is created relative to its opened and checked parent
   * (`/proc/self/fd/<fd>/<name>`), so a parent swapped for a symlink after the check cannot redirect it.
   */
  async #createNew(path: string): Promise<FileHandle> {
    const segments = path.split("/").filter(Boolean);
    const name = segments.pop()!;
    const refusals = backendRefusals(path);
    const folder = await enterFolders(this.rootDirectory, segments, refusals);
    return openInFolder(this.rootDirectory, folder, name, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644, refusals);
  }

  /**
   * The handle, once the object actually opened is checked: inside the root (its path read back from
   * `/proc/self/fd`, so a directory swapped for a symlink between the check of the name and the open is
   * caught) and a regular file (a FIFO, socket or device is refused at once). Closed when refused.
   */
  async #checkedRegularFile(handle: FileHandle, path: string): Promise<FileHandle> {
    try {
      if (!(await openedInside(handle, this.rootDirectory))) throw outside(path);
      const stats = await handle.stat();
      if (stats.isDirectory()) throw new BackendError("IS_DIRECTORY", `${path} is a directory. Call ls to see its files.`);
      if (!stats.isFile()) throw new BackendError("NOT_A_FILE", `${path} is not a regular file (a FIFO, socket or device), so it is not read or written here. Use a regular file.`);
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async *walk({ path }: PathRequest): AsyncIterable<string> {
    const real = await this.#resolveExisting(path);
    const stack: Array<[string, string]> = [[real, path]];
    while (stack.length > 0) {
      const [directory, agentDirectory] = stack.pop()!;
      let dirents;
      try {
        dirents = await readdir(directory, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const dirent of dirents) {
        // Symbolic links are not followed, as ripgrep does not follow them either.
        if (dirent.isDirectory()) stack.push([`${directory}${sep}${dirent.name}`, joinAgentPath(agentDirectory, dirent.name)]);
        else if (dirent.isFile()) yield joinAgentPath(agentDirectory, dirent.name);
      }
    }
  }

  /** The real path of an existing file or directory, refused when it resolves outside the root. */
  async #resolveExisting(path: string): Promise<string> {
    let real;
    try {
      real = await realpath(this.rootDirectory + path);
    } catch (error) {
      throw translate(error, path);
    }
    if (!isInside(this.rootDirectory, real)) throw outside(path);
    return real;
  }

  /**
   * An existing file opened with `flags` (reading or writing), never following a final symlink nor blocking
   * on a FIFO (`O_NONBLOCK`: a FIFO with no other end fails at once), then checked as
   * {@link #checkedRegularFile} says.
   */
  async #openChecked(real: string, path: string, flags: number): Promise<FileHandle> {
    let handle: FileHandle;
    try {
      handle = await open(real, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      throw translate(error, path);
    }
    return this.#checkedRegularFile(handle, path);
  }
}

/** The backend's refusals: every failure worded for the model, as {@link translate} says. */
function backendRefusals(path: string): ConfinementRefusals {
  return {
    outside: () => outside(path),
    notFolder: () => new BackendError("NOT_DIRECTORY", `${path} cannot be created: a parent is a file. Choose another path.`),
    failed: (error) => translate(error, path),
  };
}

function outside(path: string): BackendError {
  return new BackendError("PATH_REFUSED", `${path} leads outside the workspace through a symbolic link, so it is refused. Use files inside the workspace.`);
}

function translate(error: unknown, path: string): BackendError {
  if (error instanceof BackendError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return new BackendError("NOT_FOUND", `Error: file not found: ${path}`);
  if (code === "EISDIR") return new BackendError("IS_DIRECTORY", `${path} is a directory. Give a file path.`);
  if (code === "EEXIST") return new BackendError("EXISTS", `${path} already exists.`);
  if (code === "ENXIO") return new BackendError("NOT_A_FILE", `${path} is not a regular file (a FIFO, socket or device), so it is not read or written here. Use a regular file.`);
  if (code === "ELOOP") return new BackendError("PATH_REFUSED", `${path} is a symbolic link (or a loop of them), which is not followed here. Use the file it points to inside the workspace.`);
  if (code === "EACCES" || code === "EPERM") return new BackendError("IO", `${path} is not accessible (permission denied). Choose another file.`);
  return new BackendError("IO", `${path} could not be used: ${(error as Error).message}`);
}
