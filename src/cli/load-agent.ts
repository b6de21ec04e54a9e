import { existsSync, statSync } from "node:fs";
import { basename, dirname, extname, resolve } from "node:path";
import type { Agent } from "../agents/agent.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { AgentLoader } from "../server/agent-loader.js";

/** An agent named on the command line: a module file exporting `rootAgent`, or a folder holding `agent.ts|.js`. */
export interface LoadedAgent {
  appName: string;
  agent: Agent;
}

/** Loads the agent at `path`. */
export async function loadAgent(path: string): Promise<LoadedAgent> {
  const full = resolve(path);
  if (!existsSync(full)) {
    throw new ConfigurationError("AGENT_NOT_FOUND", `"${path}" does not exist. Name a module that exports rootAgent (agents/shop.ts) or a folder with agent.ts (agents/shop).`);
  }
  if (statSync(full).isDirectory()) {
    const appName = basename(full);
    return { appName, agent: await new AgentLoader({ agentsDir: dirname(full) }).load(appName) };
  }
  const base = basename(full, extname(full));
  // A folder app's module is agent.ts: the app is named after its folder.
  const appName = base === "agent" ? basename(dirname(full)) : base;
  return { appName, agent: await new AgentLoader({ agentsDir: dirname(full) }).load(base) };
}
