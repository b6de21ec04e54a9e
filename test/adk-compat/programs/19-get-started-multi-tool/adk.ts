// Ported from google/adk-docs examples/typescript/snippets/get-started/multi_tool_agent/agent.ts — a runner is added, as the sample defines the agent only.
import { FunctionTool, LlmAgent } from '@google/adk';
import { z } from 'zod';

const getWeather = new FunctionTool({
  name: 'get_weather',
  description: 'Retrieves the current weather report for a specified city.',
  parameters: z.object({
    city: z.string().describe('The name of the city for which to retrieve the weather report.'),
  }),
  execute: ({ city }) => {
    if (city.toLowerCase() === 'new york') {
      return {
        status: 'success',
        report:
          'The weather in New York is sunny with a temperature of 25 degrees Celsius (77 degrees Fahrenheit).',
      };
    } else {
      return {
        status: 'error',
        error_message: `Weather information for '${city}' is not available.`,
      };
    }
  },
});

const getCurrentTime = new FunctionTool({
  name: 'get_current_time',
  description: 'Returns the current time in a specified city.',
  parameters: z.object({
    city: z.string().describe("The name of the city for which to retrieve the current time."),
  }),
  execute: ({ city }) => {
    let tz_identifier: string;
    if (city.toLowerCase() === 'new york') {
      tz_identifier = 'America/New_York';
    } else {
      return {
        status: 'error',
        error_message: `Sorry, I don't have timezone information for ${city}.`,
      };
    }

    const now = new Date('2025-06-01T12:00:00Z'); // fixed, so runs compare
    const report = `The current time in ${city} is ${now.toLocaleString('en-US', { timeZone: tz_identifier })}`;

    return { status: 'success', report: report };
  },
});

export const rootAgent = new LlmAgent({
  name: 'weather_time_agent',
  model: 'gemini-flash-latest',
  description: 'Agent to answer questions about the time and weather in a city.',
  instruction: 'You are a helpful agent who can answer user questions about the time and weather in a city.',
  tools: [getWeather, getCurrentTime],
});

// Added for the harness: the sample only defines the agent (as `adk web` loads it), so run it on the script's messages.
import { InMemoryRunner as SampleRunner } from '@google/adk';
import { createUserContent as sampleUserContent } from '@google/genai';
import { script } from './script.js';

export async function main(): Promise<void> {
  const runner = new SampleRunner({ agent: rootAgent, appName: 'sample_app' });
  const session = await runner.sessionService.createSession({ appName: 'sample_app', userId: 'sample_user', state: {} });
  for (const message of script.userMessages) {
    for await (const event of runner.runAsync({ userId: 'sample_user', sessionId: session.id, newMessage: sampleUserContent(message) })) {
      const text = event.content?.parts?.map((part) => part.text ?? '').join('') ?? '';
      if (text) console.log(`[${event.author}] ${text}`);
    }
  }
}
