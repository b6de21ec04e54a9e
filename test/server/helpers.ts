import { AgentLoader } from "../../src/server/agent-loader.js";
import { AppRegistry } from "../../src/server/app-registry.js";
import { createApiApp, type ApiAppOptions } from "../../src/server/create-api-app.js";
import { openServices } from "../../src/server/open-services.js";

/** The API over the examples directory (or another), on in-memory services. */
export async function exampleApi(options: Omit<ApiAppOptions, "registry"> & { agentsDir?: string } = {}) {
  const services = await openServices({ sessionServiceUri: "memory://", artifactServiceUri: "memory://" });
  const registry = new AppRegistry({ loader: new AgentLoader({ agentsDir: options.agentsDir ?? "examples" }), services });
  const app = createApiApp({ ...options, registry });
  const call = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    return app.request(path, json === undefined ? rest : { method: "POST", ...rest, body: JSON.stringify(json), headers: { "content-type": "application/json", ...rest.headers } });
  };
  const createSession = async (appName = "shop", userId = "u1") => (await (await call(`/apps/${appName}/users/${userId}/sessions`, { json: {} })).json()) as { id: string };
  return { app, registry, services, call, createSession };
}

/** The events of an SSE body, one per `data:` line. */
export function sseEvents(body: string): Record<string, any>[] {
  return body
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => JSON.parse(block.slice("data: ".length)) as Record<string, any>);
}
