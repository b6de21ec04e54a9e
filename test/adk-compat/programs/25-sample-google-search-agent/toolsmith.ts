// Ported from google/adk-js dev/samples/google_search_agent.ts — a runner is added, as the sample defines the agent only.
/**
 * @license
 * Copyright 2025 Google LLC
 * SPDX-License-Identifier: Apache-2.0
 */
import {GOOGLE_SEARCH, LlmAgent} from 'toolsmith';

export const rootAgent = new LlmAgent({
  model: 'gemini-2.5-flash',
  name: 'root_agent',
  description:
      'an agent whose job it is to perform Google search queries and answer questions about the results.',
  instruction:
      'You are an agent whose job is to perform Google search queries and answer questions about the results.',
  tools: [GOOGLE_SEARCH],
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
