import type { Agent } from "../agents/agent.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { isApp, type App } from "./app.js";

/**
 * The App or root agent a user's agent module exports. Every command that loads one (`toolsmith web`,
 * `api-server`, `run`, `eval` and `mcp`, and `serveAgentModule`) finds it here, where ADK's loader looks:
 * - an `App` exported as `app`, then `rootApp`, then as the default export, then the one `App` it exports;
 * - else an agent exported as `rootAgent`, then as the default export, then as `agent` (toolsmith's MCP
 *   convention), then the one agent it exports.
 *
 * With `exportName`, only that export is taken. Several apps, or several agents and none of the names above, are
 * refused rather than one picked by export order (ADK takes the first and warns): the export names, sorted in a
 * module namespace, say nothing about which is the root.
 */
export function rootExportOf(module: Record<string, unknown>, path: string, exportName?: string): App | Agent {
  if (exportName !== undefined) {
    const named = module[exportName];
    if (isApp(named) || isAgent(named)) return named;
    throw new ConfigurationError("NO_AGENT_EXPORT", `${path} has no agent or App exported as "${exportName}"${exportName in module ? " (that export is something else)" : ""}. Name the export that holds the root agent or its App.`);
  }
  const fallback = module.default as Record<string, unknown> | undefined;
  const defaults = [fallback, fallback?.default];
  const app = [module.app, module.rootApp, ...defaults].find(isApp) ?? theOne(module, path, isApp, "apps", "app");
  if (app) return app;
  const agent = [module.rootAgent, ...defaults, module.agent].find(isAgent) ?? theOne(module, path, isAgent, "agents", "rootAgent");
  if (agent) return agent;
  throw new ConfigurationError(
    "NO_ROOT_AGENT",
    `${path} exports neither an App nor rootAgent. Add \`export const rootAgent = new LlmAgent({ … })\`, or \`export const app = new App({ name, rootAgent, plugins })\`.`,
  );
}

/** The one export of a kind, if there is exactly one; several are refused, naming them. */
function theOne<T>(module: Record<string, unknown>, path: string, is: (value: unknown) => value is T, kinds: string, exportAs: string): T | undefined {
  const found = Object.entries(module).filter((entry): entry is [string, T] => is(entry[1]));
  if (found.length > 1) {
    throw new ConfigurationError("AGENT_LOAD_FAILED", `${path} exports ${found.length} ${kinds} (${found.map(([name]) => name).join(", ")}): export the one to serve as \`${exportAs}\`.`);
  }
  return found[0]?.[1];
}

/** An agent as the loader knows one: a name and `runAsync` (agents from another copy of toolsmith, or ADK's shape). */
function isAgent(value: unknown): value is Agent {
  return typeof value === "object" && value !== null && !isApp(value) && typeof (value as Agent).name === "string" && typeof (value as Agent).runAsync === "function";
}
