import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FunctionTool, LlmAgent, SequentialAgent, type Tool, type Toolset } from "../../src/index.js";
import { startServer } from "../../src/server/start-server.js";
import { FunctionModel, textResponse } from "../../src/testing/index.js";
import { inlineApi } from "./inline-api.js";

const model = () => new FunctionModel(() => textResponse("ok"));
const tool = (name: string, execute: (args: Record<string, unknown>) => unknown = () => ({ tool: name })) =>
  new FunctionTool({ name, description: `The ${name} tool.`, parameters: { type: "object", properties: { value: { type: "string" } } }, execute });

/** A lead agent with a tool, and a pipeline of two specialists that share a tool name. */
function team() {
  const first = new LlmAgent({ name: "first", model: model(), description: "Goes first.", tools: [tool("lookup", () => ({ from: "first" }))] });
  const second = new LlmAgent({ name: "second", model: model(), tools: [tool("lookup", () => ({ from: "second" })), tool("only_second")] });
  return new LlmAgent({ name: "lead", model: model(), tools: [tool("plan")], subAgents: [new SequentialAgent({ name: "pipeline", subAgents: [first, second] })] });
}

describe("app information routes", () => {
  it("lists the apps, sorted, and the version of package.json", async () => {
    const { json } = await inlineApi({ zeta: team(), alpha: new LlmAgent({ name: "a", model: model() }) });
    expect((await json("/list-apps")).body).toEqual(["alpha", "zeta"]);
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect((await json("/version")).body).toEqual({ version });
    expect((await json("/toolsmith/info")).body).toMatchObject({ name: "toolsmith", version });
  });

  it("draws the agent tree with descriptions, tools and sub-agents for ADK's dev UI", async () => {
    const { json } = await inlineApi({ team: team() });
    expect((await json("/dev/apps/team/build_graph")).body).toEqual({
      name: "team",
      root_agent: {
        name: "lead",
        type: "agent",
        tools: [{ name: "plan", type: "tool" }],
        sub_agents: [
          {
            name: "pipeline",
            type: "agent",
            sub_agents: [
              { name: "first", type: "agent", description: "Goes first.", tools: [{ name: "lookup", type: "tool" }] },
              { name: "second", type: "agent", tools: [{ name: "lookup", type: "tool" }, { name: "only_second", type: "tool" }] },
            ],
          },
        ],
      },
    });
  });

  it("gives the same tree as a Graphviz graph, each agent linked to its tools and children", async () => {
    const { json } = await inlineApi({ team: team() });
    const { body } = await json("/dev/apps/team/build_graph_image");
    expect(body[""].dotSrc).toBe(body.dotSrc);
    const lines = (body.dotSrc as string).split("\n");
    expect(lines[0]).toBe("digraph agents {");
    expect(lines.at(-1)).toBe("}");
    for (const edge of ['"lead" -> "lead.plan";', '"lead" -> "pipeline";', '"pipeline" -> "first";', '"pipeline" -> "second";', '"second" -> "second.only_second";']) {
      expect(lines).toContain(`  ${edge}`);
    }
    expect(lines).toContain('  "first.lookup" [shape=box, label="lookup"];');
  });

  it("answers ADK's dev UI evaluation requests with empty lists", async () => {
    const { json } = await inlineApi({ team: team() });
    expect((await json("/dev/apps/team/eval_sets")).body).toEqual([]);
    expect((await json("/dev/apps/team/eval_results")).body).toEqual([]);
  });

  it("answers an unknown app's graph with 404", async () => {
    const { json } = await inlineApi({ team: team() });
    const response = await json("/dev/apps/nope/build_graph");
    expect(response.status).toBe(404);
    expect(response.body.code).toBe("APP_NOT_FOUND");
  });
});

describe("tool routes", () => {
  it("lists every agent's tools, in tree order, with the agent that offers each", async () => {
    const { json } = await inlineApi({ team: team() });
    const tools = (await json("/apps/team/tools")).body as { agent: string; name: string; declared: boolean; parameters: unknown }[];
    expect(tools.map(({ agent, name }) => `${agent}.${name}`)).toEqual(["lead.plan", "first.lookup", "second.lookup", "second.only_second"]);
    expect(tools.every((described) => described.declared)).toBe(true);
    expect(tools[0]!.parameters).toEqual({ type: "object", properties: { value: { type: "string" } } });
  });

  it("calls the first agent's tool of a shared name, or the named agent's", async () => {
    const { json, call } = await inlineApi({ team: team() });
    await call("/apps/team/users/u/sessions/s", { json: {} });
    const path = "/apps/team/users/u/sessions/s/tools/lookup/call";
    expect((await json(path, { json: { args: {} } })).body.response).toEqual({ from: "first" });
    expect((await json(path, { json: { args: {}, agentName: "second" } })).body.response).toEqual({ from: "second" });
  });

  it("refuses an agent that lacks the tool with 404 naming both", async () => {
    const { json, call } = await inlineApi({ team: team() });
    await call("/apps/team/users/u/sessions/s", { json: {} });
    const response = await json("/apps/team/users/u/sessions/s/tools/only_second/call", { json: { agentName: "first" } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: "UNKNOWN_TOOL", error: 'No tool "only_second" on agent "first" in this app. GET /apps/{app}/tools lists them.' });
  });

  it("refuses args that are not an object with 400", async () => {
    const { json, call } = await inlineApi({ team: team() });
    await call("/apps/team/users/u/sessions/s", { json: {} });
    const response = await json("/apps/team/users/u/sessions/s/tools/plan/call", { json: { args: "value" } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "INVALID_BODY", error: '"args" must be a JSON object.' });
  });

  it("resolves a toolset against the session, so a tool that depends on state is callable only where it appears", async () => {
    const secret: Tool = tool("open_vault", () => ({ opened: true }));
    const vault: Toolset = { getTools: async (context) => (context.state.get("unlocked") ? [secret] : []), close: async () => {} };
    const { json, call } = await inlineApi({ bank: new LlmAgent({ name: "bank", model: model(), tools: [vault] }) });
    await call("/apps/bank/users/u/sessions/locked", { json: {} });
    await call("/apps/bank/users/u/sessions/open", { json: { state: { unlocked: true } } });
    expect((await json("/apps/bank/tools")).body).toEqual([]);
    expect((await json("/apps/bank/users/u/sessions/locked/tools/open_vault/call", { json: {} })).status).toBe(404);
    expect((await json("/apps/bank/users/u/sessions/open/tools/open_vault/call", { json: {} })).body.response).toEqual({ opened: true });
  });
});

describe("ADK's dev UI files", () => {
  function devUiFolder() {
    const dir = mkdtempSync(join(tmpdir(), "toolsmith-dev-ui-"));
    writeFileSync(join(dir, "index.html"), "<html>dev ui</html>");
    mkdirSync(join(dir, "assets"));
    writeFileSync(join(dir, "assets", "main.js"), "console.log('dev');");
    writeFileSync(join(dir, "..", `${dir.split("/").at(-1)}-secret.txt`), "outside");
    return dir;
  }

  it("serves the UI's files, its runtime config, and index.html for the UI's own routes", async () => {
    const { call } = await inlineApi({ team: team() }, { adkDevUiDir: devUiFolder() });
    const script = await call("/dev-ui/assets/main.js");
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toBe("console.log('dev');");
    expect(await (await call("/dev-ui/assets/config/runtime-config.json")).json()).toEqual({ backendUrl: "" });
    const route = await call("/dev-ui/apps/team/sessions");
    expect(route.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await route.text()).toBe("<html>dev ui</html>");
  });

  it("redirects /dev-ui to /dev-ui/", async () => {
    const { call } = await inlineApi({ team: team() }, { adkDevUiDir: devUiFolder() });
    const response = await call("/dev-ui");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dev-ui/");
  });

  it("never serves a file outside its folder: a climbing path stays at the folder's top and gets the UI's page", async () => {
    const dir = devUiFolder();
    const { call } = await inlineApi({ team: team() }, { adkDevUiDir: dir });
    for (const climb of [`..%2F${dir.split("/").at(-1)}-secret.txt`, `assets/..%2F..%2F${dir.split("/").at(-1)}-secret.txt`]) {
      const response = await call(`/dev-ui/${climb}`);
      expect(await response.text(), climb).toBe("<html>dev ui</html>");
    }
    // Encoded dots are resolved by the URL parser, so the request leaves /dev-ui/ altogether.
    expect((await call(`/dev-ui/%2E%2E/${dir.split("/").at(-1)}-secret.txt`)).status).toBe(404);
  });

  it("answers 404 for a missing file when the server has no fallback for it", async () => {
    const { json } = await inlineApi({ team: team() }, { webUi: true });
    const response = await json("/ui/no-such-file.js");
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: "NOT_FOUND", error: "No file /ui/no-such-file.js." });
  });
});

describe("startServer", () => {
  it("serves the API on a free port of 127.0.0.1 and stops on close", async () => {
    const { app } = await inlineApi({ team: team() });
    const server = await startServer({ app, port: 0 });
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    try {
      expect(await (await fetch(`${server.url}/list-apps`)).json()).toEqual(["team"]);
    } finally {
      await server.close();
    }
    await expect(fetch(`${server.url}/list-apps`)).rejects.toThrow();
  });

  it("refuses a port already in use", async () => {
    const { app } = await inlineApi({ team: team() });
    const first = await startServer({ app, port: 0 });
    try {
      await expect(startServer({ app, port: first.port })).rejects.toMatchObject({ code: "EADDRINUSE" });
    } finally {
      await first.close();
    }
  });
});
