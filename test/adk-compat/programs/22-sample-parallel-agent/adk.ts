// Ported from google/adk-js dev/samples/parallel_agent.ts — a runner is added, as the sample defines the agent only; random numbers are fixed.
/**
 * @license
 * Copyright 2025 Google LLC
 * SPDX-License-Identifier: Apache-2.0
 */
import {FunctionTool, GOOGLE_SEARCH, LlmAgent, ParallelAgent} from '@google/adk';
import {z} from 'zod';

function getRandomArbitrary(min: number, max: number): number {
  return 0.5 /* fixed instead of Math.random(), so runs compare */ * (max - min) + min;
}

const getWeatherTemperatureTool = new FunctionTool({
  name: 'get_weather_temperature',
  description:
      'Retrieves the current templature in celsius for a specified city.',
  parameters: z.object({
    city: z.string().describe('The name of the city.'),
  }),
  execute: ({city}: {city: string}) => {
    const temperature = Math.floor(getRandomArbitrary(15, 35));

    return `Temperature in ${city} is ${temperature} Celsius.`;
  },
});

const googleSearchAgent = new LlmAgent({
  name: 'google_search_agent',
  model: 'gemini-2.5-flash',
  description:
      'An agent whose job it is to perform Google search queries and answer questions about the results.',
  instruction:
      'You are an agent whose job is to perform Google search query and return summary for the result maximum containing 300 characters.',
  tools: [GOOGLE_SEARCH],
});

const getWeatherAgent = new LlmAgent({
  name: 'get_weather_agent',
  model: 'gemini-2.5-flash',
  description: 'Retrieves the current weather report for a specified city.',
  instruction:
      'You are responsible for retrieving the current weather temperature for a city from the user request. You should not ask for additional information.',
  tools: [getWeatherTemperatureTool],
});

export const rootAgent = new ParallelAgent({
  name: 'parallel_agent',
  description: 'A parallel agent that runs multiple sub-agents in parallel.',
  subAgents: [googleSearchAgent, getWeatherAgent],
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
