import { existsSync, readdirSync, statSync, watch, type FSWatcher } from "node:fs";
import { join, resolve } from "node:path";
import type { Agent } from "../agents/agent.js";
import { ConfigurationError, isToolsmithError, ToolsmithError } from "../errors/toolsmith-error.js";
import { importUserModule } from "../platform/import-user-module.js";
import { agentWithPlugins, type AgentWithPlugins } from "../runner/app.js";
import { rootExportOf } from "../runner/module-exports.js";

/** An app name the agents directory does not hold. */
export class AppNotFoundError extends ToolsmithError {
  constructor(appName: string, available: readonly string[]) {
    super("APP_NOT_FOUND", `No app "${appName}". Apps in the agents directory: ${available.join(", ") || "none"}.`);
  }
}

/** What an app's module gives: its root agent, and the plugins of the `App` it exports, if it exports one. */
export type LoadedApp = AgentWithPlugins;

/** Options of {@link AgentLoader}. */
export interface AgentLoaderOptions {
  /** Holds `<name>.ts|.js` or `<name>/agent.ts|.js` modules that export an `App` or `rootAgent`. */
  agentsDir: string;
  /** Load a module again when its file changes. */
  reload?: boolean;
  /** Serve only these apps of the directory (a command given one agent's folder or file). Default: all. */
  apps?: readonly string[];
}

const MODULE_EXTENSIONS = [".ts", ".js", ".mts", ".mjs"];
/** Modules beside agents that are never apps: declarations, tests, and tool configuration (vite.config.ts, eslint.config.js). */
const NOT_AGENT_MODULES = /\.d\.ts$|\.(test|spec|config)\./;

/**
 * Finds and loads the apps of an agents directory. Each app's module is
 * imported once (again after its file changes, with `reload`). TypeScript
 * modules load through Node's own type stripping where the running Node has
 * it, and through tsx (an optional peer) otherwise.
 */
export class AgentLoader {
  readonly agentsDir: string;
  readonly #reload: boolean;
  readonly #only: ReadonlySet<string> | undefined;
  readonly #loaded = new Map<string, Promise<LoadedApp>>();
  readonly #watchers = new Map<string, FSWatcher>();
  #generation = 0;

  constructor(options: AgentLoaderOptions) {
    this.agentsDir = resolve(options.agentsDir);
    this.#reload = options.reload ?? false;
    this.#only = options.apps ? new Set(options.apps) : undefined;
    if (!existsSync(this.agentsDir) || !statSync(this.agentsDir).isDirectory()) {
      throw new ConfigurationError("AGENTS_DIR_NOT_FOUND", `The agents directory "${this.agentsDir}" does not exist. Pass a directory that holds <name>.ts or <name>/agent.ts files.`);
    }
  }

  /** The app names, sorted: file names without extension and folder names with an agent module. */
  listApps(): string[] {
    const names = new Set<string>();
    for (const entry of readdirSync(this.agentsDir, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || entry.name.startsWith("_") || entry.name === "node_modules") continue;
      if (entry.isDirectory() && moduleIn(join(this.agentsDir, entry.name), "agent")) names.add(entry.name);
      const extension = MODULE_EXTENSIONS.find((candidate) => entry.name.endsWith(candidate));
      if (entry.isFile() && extension && !NOT_AGENT_MODULES.test(entry.name)) names.add(entry.name.slice(0, -extension.length));
    }
    return [...names].filter((name) => !this.#only || this.#only.has(name)).sort();
  }

  /** Whether the directory holds this app. */
  hasApp(appName: string): boolean {
    // A loaded app is known without asking the disk again: every request of a busy server checks its app.
    return this.#loaded.has(appName) || this.#modulePath(appName) !== undefined;
  }

  /** The app's root agent. */
  async load(appName: string): Promise<Agent> {
    return (await this.loadApp(appName)).agent;
  }

  /** The app's root agent with the plugins of the `App` its module exports. */
  loadApp(appName: string): Promise<LoadedApp> {
    let loaded = this.#loaded.get(appName);
    if (!loaded) {
      loaded = this.#import(appName);
      this.#loaded.set(appName, loaded);
      loaded.catch(() => this.#loaded.delete(appName));
    }
    return loaded;
  }

  /** Stops watching files. */
  close(): void {
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }

  async #import(appName: string): Promise<LoadedApp> {
    const path = this.#modulePath(appName);
    if (!path) throw new AppNotFoundError(appName, this.listApps());
    if (this.#reload) this.#watch(appName, path);
    let module: Record<string, unknown>;
    try {
      // A query string makes Node import the changed file again instead of its cached module.
      module = await importUserModule(path, { cacheBust: this.#generation ? `reload=${this.#generation}` : undefined });
    } catch (error) {
      if (isToolsmithError(error)) throw error;
      throw new ConfigurationError("AGENT_LOAD_FAILED", `Loading app "${appName}" from ${path} failed: ${(error as Error).message}`, { cause: error });
    }
    return agentWithPlugins(rootExportOf(module, path));
  }

  #watch(appName: string, path: string): void {
    if (this.#watchers.has(appName)) return;
    const watcher = watch(path, () => {
      this.#generation++;
      this.#loaded.delete(appName);
    });
    watcher.unref();
    this.#watchers.set(appName, watcher);
  }

  #modulePath(appName: string): string | undefined {
    if (!/^[\w.-]+$/.test(appName) || appName.startsWith(".") || appName.startsWith("_")) return undefined;
    if (this.#only && !this.#only.has(appName)) return undefined;
    return moduleIn(this.agentsDir, appName) ?? moduleIn(join(this.agentsDir, appName), "agent");
  }

}

/** The module `<base>.ts|.js|.mts|.mjs` in `dir`, if there is one: `agent` for an app's folder. */
export function moduleIn(dir: string, base: string): string | undefined {
  for (const extension of MODULE_EXTENSIONS) {
    const path = join(dir, base + extension);
    if (existsSync(path) && statSync(path).isFile()) return path;
  }
  return undefined;
}
