import type { Context, Hono } from "hono";
import { AgentNode } from "../workflow/agent-node.js";
import { DEFAULT_ROUTE } from "../workflow/graph.js";
import { START, type BaseNode } from "../workflow/node.js";
import { isWorkflow, type Workflow } from "../workflow/workflow.js";
import type { Agent } from "../agents/agent.js";
import type { ApiEnv, ApiServerParts } from "./api-env.js";
import { isLlmAgent } from "./describe-tools.js";
import { HttpError } from "./http-error.js";
import { TOOLSMITH_VERSION } from "../platform/package-root.js";

/** `/version`, the trace endpoints and `/dev/apps/{app}/build_graph`, which ADK's dev UI calls. */
export function registerDebugRoutes(app: Hono<ApiEnv>, { registry, traces }: ApiServerParts): void {
  app.get("/version", (context) => context.json({ version: TOOLSMITH_VERSION }));
  app.get("/list-apps", (context) => context.json(registry.listApps()));

  // Spans carry a session id and no user: with bearer tokens, one user could read another's by its session or event id.
  const refuseWithTokens = (context: Context<ApiEnv>) => {
    if (context.get("tokenUserId") !== undefined) {
      throw new HttpError(403, "TRACES_NOT_SERVED", "Traces are not served with bearer tokens: they are kept by session id alone, so one user could read another's. Export them over OTLP (OTEL_EXPORTER_OTLP_ENDPOINT) instead.");
    }
  };
  const sessionTrace = (context: Context<ApiEnv>) => {
    refuseWithTokens(context);
    return context.json(traces.forSession(context.req.param("sessionId") ?? ""));
  };
  app.get("/debug/trace/session/:sessionId", sessionTrace);
  app.get("/dev/apps/:appName/debug/trace/session/:sessionId", sessionTrace);
  const eventTrace = (eventId: string) => {
    const span = traces.forEvent(eventId);
    if (!span) throw new HttpError(404, "TRACE_NOT_FOUND", `No trace for event "${eventId}"; traces are kept for recent runs of this server only.`);
    return span.attributes;
  };
  const eventRoute = (context: Context<ApiEnv>) => {
    refuseWithTokens(context);
    return context.json(eventTrace(context.req.param("eventId") ?? ""));
  };
  app.get("/debug/trace/:eventId", eventRoute);
  app.get("/dev/apps/:appName/debug/trace/:eventId", eventRoute);

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

/**
 * The agent tree and its tools as a Graphviz graph, which ADK's dev UI draws. A graph workflow is drawn as its
 * nodes (agents as ellipses, other nodes as boxes) and edges, each routed edge labelled with its route(s).
 */
function agentGraphDot(root: Agent): string {
  const lines = ["digraph agents {", '  rankdir="LR";'];
  const drawWorkflow = (workflow: Workflow, id: string) => {
    const nodeId = (node: BaseNode) => JSON.stringify(node === START ? `${id}.START` : `${id}.${node.name}`);
    for (const node of workflow.graph?.nodes ?? []) {
      const shape = node === START ? "circle" : node instanceof AgentNode ? "ellipse" : "box";
      lines.push(`  ${nodeId(node)} [shape=${shape}, label=${JSON.stringify(node === START ? "START" : node.name)}];`);
      if (isWorkflow(node)) drawWorkflow(node, `${id}.${node.name}`);
    }
    for (const edge of workflow.graph?.edges ?? []) {
      const label = edge.route === null ? "" : ` [label=${JSON.stringify((Array.isArray(edge.route) ? edge.route : [edge.route]).map((route) => (route === DEFAULT_ROUTE ? "default" : String(route))).join(", "))}]`;
      lines.push(`  ${nodeId(edge.fromNode)} -> ${nodeId(edge.toNode)}${label};`);
    }
  };
  const visit = (agent: Agent) => {
    lines.push(`  ${JSON.stringify(agent.name)} [shape=ellipse];`);
    if (isWorkflow(agent)) {
      drawWorkflow(agent, agent.name);
      if (agent.graph) lines.push(`  ${JSON.stringify(agent.name)} -> ${JSON.stringify(`${agent.name}.START`)};`);
    }
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
