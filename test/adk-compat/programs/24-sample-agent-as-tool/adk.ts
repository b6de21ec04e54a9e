// Ported from google/adk-js dev/samples/agent_as_tool.ts — a runner is added, as the sample defines the agent only.
/**
 * @license
 * Copyright 2025 Google LLC
 * SPDX-License-Identifier: Apache-2.0
 */
import {AgentTool, LlmAgent} from '@google/adk';

const summaryAgent = new LlmAgent({
  model: 'gemini-2.0-flash',
  name: 'summary_agent',
  instruction:
      'You are an expert summarizer. Please read the following text and provide a concise summary.',
  description: 'Agent to summarize text',
})

export const rootAgent = new LlmAgent({
  name: 'root_agent',
  model: 'gemini-2.5-flash',
  instruction:
      'You are a helpful assistant. When the user provides a text, use the \'summarize\' tool to generate a summary. Always forward the user\'s message exactly as received to the \'summarize\' tool, without modifying or summarizing it yourself. Present the response from the tool to the user.',
  tools: [new AgentTool({agent: summaryAgent, skipSummarization: true})],
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
