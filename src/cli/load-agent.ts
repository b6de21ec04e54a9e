import { existsSync, statSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { AgentLoader, moduleIn, type LoadedApp } from "../server/agent-loader.js";

/**
 * What a path on the command line names: an agents directory (every app in
 * it), an app's folder holding `agent.ts|.js` (that app alone, named after the
 * folder), or a module file exporting `rootAgent` (that app alone).
 */
export interface AgentSource {
  agentsDir: string;
  /** The one app the path names; undefined for a whole agents directory. */
  app?: string;
}

/** Resolves a command-line path (default: the working directory) to the agents it names. */
export function agentSource(path = "."): AgentSource {
  const full = resolve(path);
  if (!existsSync(full)) {
    throw new ConfigurationError("AGENT_NOT_FOUND", `"${path}" does not exist. Name a module that exports rootAgent (agents/shop.ts), a folder with agent.ts (agents/shop), or a directory of agents.`);
  }
  if (statSync(full).isDirectory()) {
    // A folder with its own agent module is one app (a project made by `toolsmith create`), not a directory of apps.
    if (moduleIn(full, "agent")) return { agentsDir: dirname(full), app: basename(full) };
    return { agentsDir: full };
  }
  const base = basename(full, extname(full));
  // A folder app's module is agent.ts: the app is named after its folder.
  if (base === "agent") return { agentsDir: dirname(dirname(full)), app: basename(dirname(full)) };
  return { agentsDir: dirname(full), app: base };
}

/** A loader for what `source` names, refusing a directory without any app: serving nothing helps no one. */
export function loaderFor(source: AgentSource, options: { reload?: boolean } = {}): AgentLoader {
  const loader = new AgentLoader({ agentsDir: source.agentsDir, reload: options.reload, apps: source.app ? [source.app] : undefined });
  if (loader.listApps().length === 0) {
    throw new ConfigurationError(
      "NO_APPS",
      `No agents in ${source.agentsDir}: add <name>.ts or <name>/agent.ts exporting rootAgent, name an agent (toolsmith run path/to/agent.ts), or start a project with toolsmith create my-agent.`,
    );
  }
  return loader;
}

/** An agent named on the command line, loaded, with the plugins of the `App` its module exports. */
export interface LoadedAgent extends LoadedApp {
  appName: string;
}

/** Loads the one agent `path` names; a directory of several apps must be narrowed to one. */
export async function loadAgent(path = "."): Promise<LoadedAgent> {
  const source = agentSource(path);
  const loader = loaderFor(source);
  const apps = loader.listApps();
  if (apps.length > 1) {
    throw new ConfigurationError("AGENT_NOT_FOUND", `${source.agentsDir} holds ${apps.length} agents (${apps.join(", ")}): name one, such as ${join(path, apps[0]!)}.`);
  }
  const appName = apps[0]!;
  return { appName, ...(await loader.loadApp(appName)) };
}
