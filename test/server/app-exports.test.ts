/**
 * An agent module that exports ADK's `App`, as ADK's loader takes one: the loader finds it (before `rootAgent`),
 * and every way toolsmith runs an app (the HTTP API, `toolsmith run`, `toolsmith eval`, and serving over MCP)
 * runs its plugins. The apps are in test/fixtures/app-exports.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isToolsmithError } from "../../src/index.js";
import { serveAgentModule } from "../../src/mcp/index.js";
import { AgentLoader } from "../../src/server/agent-loader.js";
import { cli } from "../cli/cli-harness.js";
import { appPluginLog } from "../fixtures/app-exports/weather_app.js";
import { tempDir } from "../support/temp-dir.js";
import { exampleApi, sseEvents } from "./helpers.js";

const AGENTS = "test/fixtures/app-exports";
const cleanups: (() => Promise<unknown>)[] = [];
beforeEach(() => {
  appPluginLog.length = 0;
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("AgentLoader with modules that export an App", () => {
  it("takes an exported app before rootAgent, and a default export, with the app's plugins", async () => {
    const loader = new AgentLoader({ agentsDir: AGENTS });
    expect(loader.listApps()).toEqual(["default_app", "two_apps", "weather_app"]);
    const weather = await loader.loadApp("weather_app");
    expect(weather.agent.name).toBe("weather_agent");
    expect(weather.plugins.map((plugin) => plugin.name)).toEqual(["tool_audit"]);
    expect((await loader.load("weather_app")).name).toBe("weather_agent");
    const greeter = await loader.loadApp("default_app");
    expect([greeter.agent.name, greeter.plugins.length]).toEqual(["greeter_agent", 0]);
  });

  it("refuses a module exporting two apps under other names, naming them, rather than guessing", async () => {
    const loader = new AgentLoader({ agentsDir: AGENTS });
    const error = await loader.load("two_apps").catch((caught: unknown) => caught);
    expect(isToolsmithError(error) && error.code).toBe("AGENT_LOAD_FAILED");
    expect((error as Error).message).toMatch(/two_apps\.ts exports 2 apps \(first, second\): export the one to serve as `app`\.$/);
  });
});

describe("an exported App's plugins in every way an app runs", () => {
  it("run in the HTTP API's runs, whose sessions are stored under the name in the URL", async () => {
    const { call, createSession, services } = await exampleApi({ agentsDir: AGENTS });
    const session = await createSession("weather_app", "ana");
    const response = await call("/run_sse", { json: { appName: "weather_app", userId: "ana", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Weather?" }] } } });
    const events = sseEvents(await response.text());
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("It is sunny in Lisbon.");
    expect(appPluginLog).toEqual(['weather_app: get_weather {"city":"Lisbon"}']);
    const stored = await services.sessionService.getSession({ appName: "weather_app", userId: "ana", sessionId: session.id });
    expect(stored!.events).toHaveLength(4);
  });

  it("run in toolsmith run", async () => {
    const { code, stdout } = await cli(["run", join(AGENTS, "weather_app.ts")], ["Weather?", "/exit"]);
    expect(code).toBe(0);
    expect(stdout).toContain("It is sunny in Lisbon.");
    expect(appPluginLog).toEqual(['weather_app: get_weather {"city":"Lisbon"}']);
  });

  it("run in toolsmith eval", async () => {
    const set = join(tempDir(), "weather.evalset.json");
    const turn = {
      invocation_id: "t1",
      user_content: { role: "user", parts: [{ text: "Weather?" }] },
      final_response: { role: "model", parts: [{ text: "It is sunny in Lisbon." }] },
      intermediate_data: { tool_uses: [{ name: "get_weather", args: { city: "Lisbon" } }], intermediate_responses: [] },
    };
    writeFileSync(set, JSON.stringify({ eval_set_id: "weather", eval_cases: [{ eval_id: "lisbon", conversation: [turn] }] }));
    const { code, stdout } = await cli(["eval", join(AGENTS, "weather_app.ts"), set]);
    expect(stdout).toContain("lisbon");
    expect(code).toBe(0);
    expect(appPluginLog).toEqual(['weather_app: get_weather {"city":"Lisbon"}']);
  });

  it("run when the module is served over MCP", async () => {
    const { server, listener } = await serveAgentModule({ modulePath: join(process.cwd(), AGENTS, "weather_app.ts"), http: { port: 0 } });
    cleanups.push(() => listener!.close(), () => server.close());
    const client = new Client({ name: "test-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener!.url)));
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["weather_agent"]);
    expect((await client.callTool({ name: "weather_agent", arguments: { request: "Weather?" } })).structuredContent).toEqual({ result: "It is sunny in Lisbon." });
    expect(appPluginLog).toEqual(['mcp: get_weather {"city":"Lisbon"}']);
  });
});
