// After ADK's Apps and Plugins pages: an App bundles the root agent with the plugins that go with it wherever it
// runs. The runner takes its name and agent from the app, runs the app's plugins before its own, and accepts a
// resumability setting on the app.
import { App, BasePlugin, BaseTool, Context, FunctionTool, InMemorySessionService, LlmAgent, Runner, createResumabilityConfig, isApp, isFinalResponse } from 'toolsmith';
import { createUserContent } from '@google/genai';
import { z } from 'zod';
import { script } from './script.js';

class ToolLoggerPlugin extends BasePlugin {
  constructor(name: string) {
    super(name);
  }

  override async beforeToolCallback({ tool, toolArgs }: { tool: BaseTool; toolArgs: Record<string, unknown>; toolContext: Context }): Promise<Record<string, unknown> | undefined> {
    console.log(`[${this.name}] before ${tool.name} ${JSON.stringify(toolArgs)}`);
    return undefined;
  }
}

const getWeather = new FunctionTool({
  name: 'get_weather',
  description: 'Returns the weather in a city.',
  parameters: z.object({ city: z.string().describe('The city.') }),
  execute: ({ city }) => ({ status: 'success', report: `It is sunny in ${city}.` }),
});

const rootAgent = new LlmAgent({ name: 'weather_agent', model: 'gemini-2.5-flash', instruction: 'Answer weather questions with get_weather.', tools: [getWeather] });

export const app = new App({
  name: 'weather_app',
  rootAgent,
  plugins: [new ToolLoggerPlugin('app_logger')],
  resumabilityConfig: createResumabilityConfig({ isResumable: true }),
});

export async function main(): Promise<void> {
  console.log(`isApp(app): ${isApp(app)}; isApp(rootAgent): ${isApp(rootAgent)}`);
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ app, sessionService, plugins: [new ToolLoggerPlugin('runner_logger')] });
  console.log(`Runner: app ${runner.appName}, agent ${runner.agent.name}, resumable ${runner.resumabilityConfig?.isResumable}`);
  const session = await sessionService.createSession({ appName: runner.appName, userId: 'user' });
  for (const message of script.userMessages) {
    for await (const event of runner.runAsync({ userId: 'user', sessionId: session.id, newMessage: createUserContent(message) })) {
      if (isFinalResponse(event) && event.content?.parts?.[0]?.text) console.log(`[${event.author}] ${event.content.parts[0].text}`);
    }
  }
  for (const name of ['1st-app', 'weather app', 'user']) {
    try {
      new App({ name, rootAgent });
      console.log(`App name ${JSON.stringify(name)}: accepted`);
    } catch {
      console.log(`App name ${JSON.stringify(name)}: refused`);
    }
  }
}
