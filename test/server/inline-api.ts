import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Agent } from "../../src/agents/agent.js";
import { AgentLoader, AppNotFoundError, type LoadedApp } from "../../src/server/agent-loader.js";
import { AppRegistry } from "../../src/server/app-registry.js";
import { createApiApp, type ApiAppOptions } from "../../src/server/create-api-app.js";
import { openServices } from "../../src/server/open-services.js";

/** A loader over agents built in the test itself, so each test chooses its models and tools. */
export class InlineLoader extends AgentLoader {
  readonly agents: Record<string, Agent>;
  closed = 0;

  constructor(agents: Record<string, Agent>) {
    super({ agentsDir: mkdtempSync(join(tmpdir(), "toolsmith-inline-")) });
    this.agents = agents;
  }

  override listApps(): string[] {
    return Object.keys(this.agents).sort();
  }

  override hasApp(appName: string): boolean {
    return Object.hasOwn(this.agents, appName);
  }

  override async loadApp(appName: string): Promise<LoadedApp> {
    if (!this.hasApp(appName)) throw new AppNotFoundError(appName, this.listApps());
    return { agent: this.agents[appName]!, plugins: [] };
  }

  override close(): void {
    this.closed++;
  }
}

/** The API over the given agents, on in-memory services, with a JSON-posting `call`. */
export async function inlineApi(agents: Record<string, Agent>, options: Omit<ApiAppOptions, "registry"> = {}) {
  const services = await openServices({ sessionServiceUri: "memory://", artifactServiceUri: "memory://" });
  const loader = new InlineLoader(agents);
  const registry = new AppRegistry({ loader, services });
  const app = createApiApp({ ...options, registry });
  const call = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    return app.request(path, json === undefined ? rest : { method: "POST", ...rest, body: JSON.stringify(json), headers: { "content-type": "application/json", ...rest.headers } });
  };
  /** The response's JSON body, typed loosely for assertions. */
  const json = async (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const response = await call(path, init);
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  return { app, registry, loader, services, call, json };
}
