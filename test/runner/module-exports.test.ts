/**
 * `rootExportOf`: the one lookup every command uses to find the App or root agent an agent module exports (the
 * server's loader for web, api-server, run and eval; `serveAgentModule` for mcp), where ADK's loader looks.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { App, ConfigurationError, LlmAgent } from "../../src/index.js";
import { serveAgentModule } from "../../src/mcp/index.js";
import { rootExportOf } from "../../src/runner/module-exports.js";
import { AgentLoader } from "../../src/server/agent-loader.js";

const agent = (name: string) => new LlmAgent({ name });
const app = (name: string) => new App({ name, rootAgent: agent(`${name}_agent`) });
const found = (module: Record<string, unknown>, exportName?: string) => rootExportOf(module, "agent.ts", exportName).name;
const refusal = (module: Record<string, unknown>, exportName?: string) => {
  try {
    rootExportOf(module, "agent.ts", exportName);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return `${(error as ConfigurationError).code}: ${(error as Error).message}`;
  }
  throw new Error("not refused");
};

describe("rootExportOf", () => {
  it("takes an App before any agent: app, rootApp, the default export, then the one App", () => {
    expect(found({ rootAgent: agent("root"), rootApp: app("second"), app: app("first") })).toBe("first");
    expect(found({ rootAgent: agent("root"), rootApp: app("second") })).toBe("second");
    expect(found({ rootAgent: agent("root"), default: app("fallback") })).toBe("fallback");
    expect(found({ default: { default: app("bundled") } })).toBe("bundled");
    expect(found({ rootAgent: agent("root"), mine: app("only") })).toBe("only");
  });

  it("then an agent: rootAgent, the default export, agent, then the one agent", () => {
    expect(found({ agent: agent("named"), default: agent("fallback"), rootAgent: agent("root") })).toBe("root");
    expect(found({ agent: agent("named"), default: agent("fallback") })).toBe("fallback");
    expect(found({ agent: agent("named"), other: agent("other") })).toBe("named");
    expect(found({ helpDesk: agent("help_desk"), note: "text", count: 3 })).toBe("help_desk");
  });

  it("takes only the export named, when one is named", () => {
    expect(found({ rootAgent: agent("root"), backup: agent("backup") }, "backup")).toBe("backup");
    expect(refusal({ rootAgent: agent("root"), note: "text" }, "note")).toBe('NO_AGENT_EXPORT: agent.ts has no agent or App exported as "note" (that export is something else). Name the export that holds the root agent or its App.');
  });

  it("refuses several apps or agents under other names rather than picking one by export order", () => {
    expect(refusal({ first: app("first"), second: app("second") })).toBe("AGENT_LOAD_FAILED: agent.ts exports 2 apps (first, second): export the one to serve as `app`.");
    expect(refusal({ researcher: agent("researcher"), writer: agent("writer") })).toBe("AGENT_LOAD_FAILED: agent.ts exports 2 agents (researcher, writer): export the one to serve as `rootAgent`.");
  });

  it("says what to export when there is nothing to serve", () => {
    expect(refusal({ note: "text", tools: [] })).toBe(
      "NO_ROOT_AGENT: agent.ts exports neither an App nor rootAgent. Add `export const rootAgent = new LlmAgent({ … })`, or `export const app = new App({ name, rootAgent, plugins })`.",
    );
  });
});

describe("every command finds the same export", () => {
  const AGENTS = "test/fixtures/agent-exports";

  it("the server's loader serves a default-exported agent and the one named agent, as ADK's loader does", async () => {
    const loader = new AgentLoader({ agentsDir: AGENTS });
    expect((await loader.load("default_agent")).name).toBe("default_agent");
    expect((await loader.load("one_named_agent")).name).toBe("help_desk");
    const error = await loader.load("two_agents").catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "AGENT_LOAD_FAILED" });
    expect((error as Error).message).toMatch(/two_agents\.ts exports 2 agents \(researcher, writer\): export the one to serve as `rootAgent`\.$/);
  });

  it("serveAgentModule finds the same agents", async () => {
    for (const [file, name] of [["default_agent", "default_agent"], ["one_named_agent", "help_desk"]] as const) {
      const { server, listener } = await serveAgentModule({ modulePath: `${AGENTS}/${file}.ts`, http: { port: 0 } });
      const client = new Client({ name: "test", version: "1.0.0" });
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(listener!.url)));
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([name]);
      } finally {
        await client.close();
        await listener!.close();
        await server.close();
      }
    }
    await expect(serveAgentModule({ modulePath: `${AGENTS}/two_agents.ts`, http: { port: 0 } })).rejects.toMatchObject({ code: "AGENT_LOAD_FAILED" });
  });
});
