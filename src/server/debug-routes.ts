import type { Hono } from "hono";
import type { Agent } from "../agents/agent.js";
import type { ApiEnv, ApiServerParts } from "./api-env.js";
import { isLlmAgent } from "./describe-tools.js";
import { HttpError } from "./http-error.js";
import { TOOLSMITH_VERSION } from "../platform/package-root.js";

/** `/version`, the trace endpoints and `/dev/apps/{app}/build_graph`, which ADK's dev UI calls. */
export function registerDebugRoutes(app: Hono<ApiEnv>, { registry, traces }: ApiServerParts): void {
  app.get("/version", (context) => context.json({ version: TOOLSMITH_VERSION }));
  app.get("/list-apps", (context) => context.json(registry.listApps()));

  const sessionTrace = (sessionId: string) => traces.forSession(sessionId);
  app.get("/debug/trace/session/:sessionId", (context) => context.json(sessionTrace(context.req.param("sessionId"))));
  app.get("/dev/apps/:appName/debug/trace/session/:sessionId", (context) => context.json(sessionTrace(context.req.param("sessionId"))));
  const eventTrace = (eventId: string) => {
    const span = traces.forEvent(eventId);
    if (!span) throw new HttpError(404, "TRACE_NOT_FOUND", `No trace for event "${eventId}"; traces are kept for recent runs of this server only.`);
    return span.attributes;
  };
  app.get("/debug/trace/:eventId", (context) => context.json(eventTrace(context.req.param("eventId"))));
  app.get("/dev/apps/:appName/debug/trace/:eventId", (context) => context.json(eventTrace(context.req.param("eventId"))));

  app.get("/dev/apps/:appName/build_graph", async (context) => {
    const appName = context.req.param("appName");
    return context.json({ name: appName, root_agent: serializeAgent(await registry.agent(appName)) });
  });
  app.get("/dev/apps/:appName/build_graph_image", async (context) => {
    const dotSrc = agentGraphDot(await registry.agent(context.req.param("appName")));
    return context.json({ "": { dotSrc }, dotSrc });
  });
  // toolsmith keeps no evaluation sets; ADK's dev UI asks for them when it opens an app.
  app.get("/dev/apps/:appName/eval_sets", (context) => context.json([]));
  app.get("/dev/apps/:appName/eval_results", (context) => context.json([]));
}

/** The agent tree and its tools as a Graphviz graph, which ADK's dev UI draws. */
function agentGraphDot(root: Agent): string {
  const lines = ["digraph agents {", '  rankdir="LR";'];
  const visit = (agent: Agent) => {
    lines.push(`  ${JSON.stringify(agent.name)} [shape=ellipse];`);
    const tools = isLlmAgent(agent) ? agent.tools.map((entry) => (entry as { name?: unknown }).name).filter((name): name is string => typeof name === "string") : [];
    for (const tool of tools) lines.push(`  ${JSON.stringify(`${agent.name}.${tool}`)} [shape=box, label=${JSON.stringify(tool)}];`, `  ${JSON.stringify(agent.name)} -> ${JSON.stringify(`${agent.name}.${tool}`)};`);
    for (const child of agent.subAgents) {
      lines.push(`  ${JSON.stringify(agent.name)} -> ${JSON.stringify(child.name)};`);
      visit(child);
    }
  };
  visit(root);
  lines.push("}");
  return lines.join("\n");
}

/** The agent tree in the shape ADK's dev UI draws. */
function serializeAgent(agent: Agent): Record<string, unknown> {
  const serialized: Record<string, unknown> = { name: agent.name, type: "agent" };
  if (agent.description) serialized.description = agent.description;
  if (isLlmAgent(agent)) {
    const tools = agent.tools.map((entry) => (entry as { name?: unknown }).name).filter((name): name is string => typeof name === "string");
    if (tools.length) serialized.tools = tools.map((name) => ({ name, type: "tool" }));
  }
  if (agent.subAgents.length) serialized.sub_agents = agent.subAgents.map(serializeAgent);
  return serialized;
}
