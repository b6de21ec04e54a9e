import { ToolsmithError } from "../errors/toolsmith-error.js";
import type { Agent } from "../agents/agent.js";
import { getText } from "../content/content.js";
import { isFinalResponse } from "../events/event.js";
import type { BasePlugin } from "../plugins/base-plugin.js";
import { Runner } from "../runner/runner.js";
import type { SessionService } from "../sessions/session-service.js";
import type { Tool } from "../tools/tool.js";
import type { ToolContext } from "../tools/tool-context.js";

/** What a served agent answers: `{result}`, its final text. */
export const AGENT_TOOL_OUTPUT_SCHEMA = {
  type: "object",
  properties: { result: { type: "string", description: "The agent's final answer." } },
  required: ["result"],
} as const satisfies Record<string, unknown>;

/**
 * An agent as one tool taking `{request: string}`: each call runs the agent
 * with a Runner over the caller's session service, in a session of its own
 * that lasts as long as the caller's session (so follow-up requests continue
 * the conversation), and answers `{result: finalText}`.
 */
export function agentAsTool(options: { agent: Agent; sessionService: SessionService; appName: string; plugins?: readonly BasePlugin[] }): Tool {
  const { agent, sessionService, appName, plugins } = options;
  const runner = new Runner({ appName, agent, sessionService, plugins });
  const sessionIds = new Map<string, string>();
  const declaration = {
    name: agent.name,
    description: agent.description || `Asks the agent "${agent.name}" to do something.`,
    parameters: {
      type: "object",
      properties: { request: { type: "string", description: "What to ask the agent, in plain language." } },
      required: ["request"],
    },
  };
  return {
    name: agent.name,
    description: declaration.description,
    declaration: () => declaration,
    async run(args, context: ToolContext) {
      const callerKey = `${context.userId}/${context.sessionId}`;
      let sessionId = sessionIds.get(callerKey);
      if (!sessionId) {
        sessionId = (await sessionService.createSession({ appName, userId: context.userId })).id;
        sessionIds.set(callerKey, sessionId);
      }
      let answer = "";
      const newMessage = { role: "user", parts: [{ text: String(args.request) }] };
      for await (const event of runner.runAsync({ userId: context.userId, sessionId, newMessage, abortSignal: context.abortSignal })) {
        if (event.errorMessage) throw new ToolsmithError("AGENT_FAILED", `Agent "${agent.name}" failed: ${event.errorMessage}`);
        if (isFinalResponse(event) && !event.partial) answer = getText(event.content) || answer;
      }
      return { result: answer };
    },
  };
}
