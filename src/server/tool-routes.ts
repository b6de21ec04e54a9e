import type { Hono } from "hono";
import { allAgents } from "../agents/agent.js";
import type { LlmAgent } from "../llm-agent/llm-agent.js";
import type { Session } from "../sessions/session.js";
import { SessionNotFoundError } from "../errors/toolsmith-error.js";
import { runSingleToolCall } from "../llm-agent/run-single-tool-call.js";
import { authorizeUser, type ApiEnv, type ApiServerParts } from "./api-env.js";
import { describeTools, isLlmAgent, toolsOf } from "./describe-tools.js";
import { HttpError } from "./http-error.js";
import { optionalObject, readJsonObject } from "./request-body.js";

/**
 * toolsmith's own endpoints: an app's tools with their schemas, and one tool
 * called directly on a session (no model involved).
 */
export function registerToolRoutes(app: Hono<ApiEnv>, { registry }: ApiServerParts): void {
  app.get("/apps/:appName/tools", async (context) => {
    const root = await registry.agent(context.req.param("appName"));
    return context.json(await describeTools({ root }));
  });

  app.post("/apps/:appName/users/:userId/sessions/:sessionId/tools/:toolName/call", async (context) => {
    const { appName, userId, sessionId, toolName } = context.req.param();
    authorizeUser(context, userId);
    const body = await readJsonObject(context.req.raw);
    const args = optionalObject(body, "args") ?? {};
    const agentName = typeof body.agentName === "string" ? body.agentName : undefined;
    const runner = await registry.runner(appName);
    const session = await runner.sessionService.getSession({ appName, userId, sessionId });
    if (!session) throw new SessionNotFoundError({ appName, userId, sessionId });
    const agent = await agentWithTool(allAgents(runner.agent).filter(isLlmAgent), toolName, agentName, session);
    const result = await runSingleToolCall({
      agent,
      session,
      sessionService: runner.sessionService,
      artifactService: runner.artifactService,
      memoryService: runner.memoryService,
      credentialService: runner.credentialService,
      toolName,
      args,
      abortSignal: context.req.raw.signal,
    });
    return context.json(result);
  });
}

async function agentWithTool(agents: readonly LlmAgent[], toolName: string, agentName: string | undefined, session: Session): Promise<LlmAgent> {
  for (const agent of agents) {
    if (agentName !== undefined && agent.name !== agentName) continue;
    if ((await toolsOf(agent, session)).some((tool) => tool.name === toolName)) return agent;
  }
  throw new HttpError(404, "UNKNOWN_TOOL", `No tool "${toolName}"${agentName ? ` on agent "${agentName}"` : ""} in this app. GET /apps/{app}/tools lists them.`);
}
