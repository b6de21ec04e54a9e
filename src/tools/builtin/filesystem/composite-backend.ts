import { ConfigurationError } from "../../../errors/toolsmith-error.js";
import { normalizeAgentPath } from "./agent-path.js";
import type { Backend, FileEntry, PathRequest, ReadLinesRequest, ReadLinesResult, WriteRequest } from "./backend.js";

/** Options of {@link CompositeBackend}. */
export interface CompositeBackendOptions {
  /** Serves every path no route claims. */
  defaultBackend: Backend;
  /** Path prefix (`/memories`) → backend; the prefix is removed before the backend sees the path. */
  routes: Record<string, Backend>;
}

/**
 * Routes path prefixes to backends: with `{ "/memories": storeBackend() }`,
 * `/memories/notes.md` is `/notes.md` of the store and everything else goes
 * to the default backend. The longest matching prefix wins. Listing `/` shows
 * each route as a directory.
 */
export class CompositeBackend implements Backend {
  readonly #defaultBackend: Backend;
  readonly #routes: Array<[string, Backend]>;

  constructor(options: CompositeBackendOptions) {
    this.#defaultBackend = options.defaultBackend;
    this.#routes = Object.entries(options.routes).map(([prefix, backend]): [string, Backend] => {
      const normalized = normalizeAgentPath(prefix);
      if (normalized === "/") throw new ConfigurationError("INVALID_ROUTE", `CompositeBackend route ${JSON.stringify(prefix)} is the root; use defaultBackend for it.`);
      return [normalized, backend];
    });
    this.#routes.sort((a, b) => b[0].length - a[0].length);
  }

  /**
   * The default backend's directory, for shell commands. There is no
   * `rootDirectory`: routed paths live elsewhere, so searches walk the routes.
   */
  get workingDirectory(): string | undefined {
    return this.#defaultBackend.workingDirectory;
  }

  async list(request: PathRequest): Promise<FileEntry[]> {
    const [backend, prefix, path] = this.#route(request.path);
    const entries = (await backend.list({ ...request, path })).map((entry) => ({ ...entry, path: prefix + (entry.path === "/" ? "" : entry.path) }));
    if (prefix === "") {
      for (const [route] of this.#routes) {
        const parent = route.slice(0, route.lastIndexOf("/")) || "/";
        if (parent === request.path && !entries.some((entry) => entry.path === route)) entries.push({ ...(await this.describe({ ...request, path: route })), path: route });
      }
      entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    }
    return entries;
  }

  async describe(request: PathRequest): Promise<FileEntry> {
    const [backend, prefix, path] = this.#route(request.path);
    const entry = await backend.describe({ ...request, path });
    return { ...entry, path: prefix + (entry.path === "/" ? "" : entry.path) || "/" };
  }

  async stat(request: PathRequest): Promise<"file" | "directory" | undefined> {
    const [backend, , path] = this.#route(request.path);
    return backend.stat({ ...request, path });
  }

  async readBytes(request: PathRequest): Promise<Uint8Array> {
    const [backend, , path] = this.#route(request.path);
    return backend.readBytes({ ...request, path });
  }

  async readLines(request: ReadLinesRequest): Promise<ReadLinesResult> {
    const [backend, , path] = this.#route(request.path);
    return backend.readLines({ ...request, path });
  }

  async write(request: WriteRequest): Promise<void> {
    const [backend, , path] = this.#route(request.path);
    return backend.write({ ...request, path });
  }

  async *walk(request: PathRequest): AsyncIterable<string> {
    const [backend, prefix, path] = this.#route(request.path);
    for await (const file of backend.walk({ ...request, path })) yield prefix + file;
    if (prefix !== "") return;
    for (const [route, routed] of this.#routes) {
      if (request.path !== "/" && !route.startsWith(`${request.path}/`)) continue;
      if ((await routed.stat({ ...request, path: "/" })) !== "directory") continue;
      for await (const file of routed.walk({ ...request, path: "/" })) yield route + file;
    }
  }

  /** The backend for a path, its prefix, and the path as that backend sees it. */
  #route(path: string): [Backend, string, string] {
    for (const [prefix, backend] of this.#routes) {
      if (path === prefix) return [backend, prefix, "/"];
      if (path.startsWith(`${prefix}/`)) return [backend, prefix, path.slice(prefix.length)];
    }
    return [this.#defaultBackend, "", path];
  }
}
