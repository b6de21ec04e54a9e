// Ported from google/adk-js dev/samples/agent_with_tool.ts — a runner is added, as the sample defines the agent only.
/**
 * @license
 * Copyright 2025 Google LLC
 * SPDX-License-Identifier: Apache-2.0
 */
import {FunctionTool, LlmAgent} from 'toolsmith';
import {z} from 'zod';

interface ToolResult {
  status: 'success'|'error';
  report?: string;
  error_message?: string;
}

/**
 * Retrieves the current weather report for a specified city.
 *
 * @param city The name of the city for which to retrieve the weather
 report.
 * @returns status and result or error msg.
 */
async function get_weather({city}: {city: string}): Promise<ToolResult> {
  if (city.toLowerCase() === 'new york') {
    return {
      'status': 'success',
      'report':
          'The weather in New York is sunny with a temperature of 25 degrees Celsius (77 degrees Fahrenheit).',
    };
  } else {
    return {
      'status': 'error',
      'error_message': `Weather information for '${city}' is not available.`,
    };
  }
}

/**
 * Returns the current time in a specified city.
 *
 * @param city The name of the city for which to retrieve the current time.
 * @returns status and result or error msg.
 */
async function get_current_time({city}: {city: string}): Promise<ToolResult> {
  if (city.toLowerCase() === 'new york') {
    const tzIdentifier = 'America/New_York';
    try {
      const now = new Date('2025-06-01T12:00:00Z'); // fixed, so runs compare
      const report =
          `The current time in ${city} is ${now.toLocaleString('en-US', {
            timeZone: tzIdentifier
          })} ${tzIdentifier}`;
      return {'status': 'success', 'report': report};
    } catch (e) {
      return {
        'status': 'error',
        'error_message': `Error getting time for ${city}: ${e}`,
      };
    }
  } else {
    return {
      'status': 'error',
      'error_message': `Sorry, I don't have timezone information for ${city}.`,
    };
  }
}

const getWeatherTool = new FunctionTool({
  name: 'get_weather',
  description: 'Retrieves the current weather report for a specified city.',
  parameters: z.object({
    city: z.string().describe('The name of the city.'),
  }),
  execute: get_weather,
});

const getCurrentTimeTool = new FunctionTool({
  name: 'get_current_time',
  description: 'Returns the current time in a specified city.',
  parameters: z.object({
    city: z.string().describe('The name of the city.'),
  }),
  execute: get_current_time,
});

export const rootAgent = new LlmAgent({
  name: 'weather_time_agent',
  model: 'gemini-2.5-flash',
  description:
      'Agent to answer questions about the time and weather in a city.',
  instruction:
      'You are a helpful agent who can answer user questions about the time and weather in a city.',
  tools: [getWeatherTool, getCurrentTimeTool],
});

// Added for the harness: the sample only defines the agent (as `adk web` loads it), so run it on the script's messages.
import { InMemoryRunner as SampleRunner } from 'toolsmith';
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
