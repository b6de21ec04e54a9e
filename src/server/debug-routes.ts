import type { Hono } from "hono";
import type { Agent } from "../agents/agent.js";
import type { ApiEnv, ApiServerParts } from "./api-env.js";
import { isLlmAgent } from "./describe-tools.js";
import { HttpError } from "./http-error.js";
import { TOOLSMITH_VERSION } from "./version.js";

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
