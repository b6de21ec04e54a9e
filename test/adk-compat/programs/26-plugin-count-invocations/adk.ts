// After ADK's Plugins page ("Build a plugin": a plugin that counts model calls; its agent-run count is left
// out, since ADK 2.0 never calls a plugin's beforeAgentCallback, see docs/adk-compat.md) and the
// BasePlugin TSDoc example (a plugin that logs every tool call), wired to an agent with one tool.
import { BasePlugin, BaseTool, Context, FunctionTool, InMemoryRunner, LlmAgent, LlmRequest, isFinalResponse } from '@google/adk';
import { createUserContent } from '@google/genai';
import { z } from 'zod';
import { script } from './script.js';

class CountInvocationPlugin extends BasePlugin {
  llmRequestCount = 0;

  constructor() {
    super('count_invocation');
  }

  override async beforeModelCallback({ llmRequest }: { callbackContext: Context; llmRequest: LlmRequest }): Promise<undefined> {
    this.llmRequestCount++;
    console.log(`[Plugin] LLM request count: ${this.llmRequestCount} (${llmRequest.contents.length} contents)`);
    return undefined;
  }
}

class ToolLoggerPlugin extends BasePlugin {
  constructor() {
    super('tool_logger');
  }

  override async beforeToolCallback({ tool, toolArgs }: { tool: BaseTool; toolArgs: Record<string, unknown>; toolContext: Context }): Promise<Record<string, unknown> | undefined> {
    console.log(`[${this.name}] Calling tool '${tool.name}' with args: ${JSON.stringify(toolArgs)}`);
    return undefined;
  }

  override async afterToolCallback({ tool, result }: { tool: BaseTool; toolArgs: Record<string, unknown>; toolContext: Context; result: Record<string, unknown> }): Promise<Record<string, unknown> | undefined> {
    console.log(`[${this.name}] Tool '${tool.name}' finished with result: ${JSON.stringify(result)}`);
    return { ...result, checked_by: this.name };
  }
}

const getWeather = new FunctionTool({
  name: 'get_weather',
  description: 'Returns the weather in a city.',
  parameters: z.object({ city: z.string().describe('The city.') }),
  execute: ({ city }) => ({ status: 'success', report: `It is sunny in ${city}.` }),
});

const agent = new LlmAgent({ name: 'weather_agent', model: 'gemini-2.5-flash', instruction: 'Answer weather questions with get_weather.', tools: [getWeather] });

export async function main(): Promise<void> {
  const counter = new CountInvocationPlugin();
  const runner = new InMemoryRunner({ agent, appName: 'plugin_app', plugins: [counter, new ToolLoggerPlugin()] });
  const session = await runner.sessionService.createSession({ appName: 'plugin_app', userId: 'user' });
  for (const message of script.userMessages) {
    for await (const event of runner.runAsync({ userId: 'user', sessionId: session.id, newMessage: createUserContent(message) })) {
      if (isFinalResponse(event) && event.content?.parts?.[0]?.text) console.log(`[${event.author}] ${event.content.parts[0].text}`);
    }
  }
  console.log(`Total: ${counter.llmRequestCount} model calls`);
}
