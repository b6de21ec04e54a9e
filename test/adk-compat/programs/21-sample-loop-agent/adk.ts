// Ported from google/adk-js dev/samples/loop_agent.ts — a runner is added, as the sample defines the agent only; random numbers are fixed.
/**
 * @license
 * Copyright 2025 Google LLC
 * SPDX-License-Identifier: Apache-2.0
 */
import {FunctionTool, LlmAgent, LoopAgent} from '@google/adk';
import {z} from 'zod';

function getRandomArbitrary(min: number, max: number): number {
  return 0.5 /* fixed instead of Math.random(), so runs compare */ * (max - min) + min;
}

const getTemperatureTool = new FunctionTool({
  name: 'get_temperature',
  description: 'Get the temperature from the environment.',
  execute: async () => {
    await new Promise((resolve) => setTimeout(resolve, 0 /* 2000 in the sample; shortened for the harness */));

    const temperature = getRandomArbitrary(30, 40);

    console.log('Current temperature is: ', temperature);

    return temperature;
  },
});

const notifyUserTool = new FunctionTool({
  name: 'notify_user',
  description: 'Notify the user if temperature is too high.',
  parameters: z.object({
    temperature: z.number().describe('The temperature.'),
    threshold: z.number().describe('The threshold.'),
  }),
  execute:
      ({temperature, threshold}: {temperature: number, threshold: number}) => {
        console.log(`[NOTIFICATION]: Temperature ${
            temperature} is too high! Threshold is ${threshold}.`);
      },
});

const monitorTemperatureAgent = new LlmAgent({
  name: 'monitor_temperature_agent',
  model: 'gemini-2.5-flash',
  description:
      'An agent that continuously monitors the temperature and alerts the user if temperature is too high.',
  instruction:
      'You are an agent that continuously monitors the temperature and alerts the user if the temperature is too high. Threshold is provided by the user.',
  tools: [getTemperatureTool, notifyUserTool],
});

export const rootAgent = new LoopAgent({
  name: 'root_agent',
  description:
      'An agent that continuously monitors the temperature and alerts the user if temperature is too high.',
  maxIterations: 5,
  subAgents: [monitorTemperatureAgent],
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
