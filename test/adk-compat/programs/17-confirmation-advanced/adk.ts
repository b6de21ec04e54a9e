// Ported from google/adk-docs examples/typescript/snippets/tools/confirmation/confirmation_example.ts — a runner that asks and then confirms is added, as the sample defines the agent only.
/**
 * @license
 * Copyright 2026 Google LLC
 * SPDX-License-Identifier: Apache-2.0
 */

import {FunctionTool, LlmAgent} from '@google/adk';
import {z} from 'zod';

/**
 * A tool that requests time off for an employee.
 * It uses the Advanced Confirmation pattern to request manager approval.
 */
export const requestTimeOffTool = new FunctionTool({
  name: 'request_time_off',
  description: 'Request days off for the employee.',
  parameters: z.object({
    days: z.number().describe('The number of days requested.'),
  }),
  execute: async ({days}, toolContext) => {
    const confirmation = toolContext?.toolConfirmation;

    if (!confirmation) {
      // Step 1: Request confirmation with a payload
      toolContext?.requestConfirmation({
        hint:
          'Please approve or reject the tool call request_time_off() by ' +
          'responding with a FunctionResponse with an expected ' +
          'ToolConfirmation payload.',
        payload: {
          approved_days: 0,
        },
      });

      // Return a descriptive status to the agent
      return {
        status: 'PENDING_MANAGER_APPROVAL',
        message: `A request for ${days} days is pending manager approval.`,
      };
    }

    // Step 2: Process the confirmation response
    if (!confirmation.confirmed) {
      return {
        status: 'CANCELLED',
        message: 'The request was cancelled by the user.',
      };
    }

    let approvedDays = (confirmation.payload as any)['approved_days'] as number;
    approvedDays = Math.min(approvedDays, days);

    if (approvedDays === 0) {
      return {
        status: 'REJECTED',
        message: 'The time off request was rejected by the manager.',
        approved_days: 0,
      };
    }

    return {
      status: 'SUCCESS',
      message: `The request for ${days} days was approved (Total approved: ${approvedDays}).`,
      approved_days: approvedDays,
    };
  },
});

export const rootAgent = new LlmAgent({
  name: 'HR_Assistant',
  model: 'gemini-flash-latest',
  instruction: `You are an HR Assistant. 
  1. Use the 'request_time_off' tool to help employees with leave requests.
  2. MANDATORY: Every tool call MUST be accompanied by a text response in the same message.
  3. EXAMPLE:
     User: "I want 5 days off"
     Model: "I am initiating your leave request for 5 days. Management approval is required, so please confirm this request." [Tool Call: request_time_off(days=5)]
  4. In the terminal, if they want to 'confirm', tell them to simulate a confirmation response. 
  5. Once confirmed, the system will automatically provide the result of the approval.`,
  tools: [requestTimeOffTool],
});

// Added for the harness: the sample only defines the agent, so ask, then confirm as a client does
// (a function response to the adk_request_confirmation call).
import { InMemoryRunner as SampleRunner } from '@google/adk';
import { createUserContent as sampleUserContent } from '@google/genai';
import type { Content as SampleContent } from '@google/genai';
import { script } from './script.js';

export async function main(): Promise<void> {
  const runner = new SampleRunner({ agent: rootAgent, appName: 'sample_app' });
  const session = await runner.sessionService.createSession({ appName: 'sample_app', userId: 'sample_user' });
  let confirmationCallId: string | undefined;
  for await (const event of runner.runAsync({ userId: 'sample_user', sessionId: session.id, newMessage: sampleUserContent(script.userMessages[0]!) })) {
    for (const part of event.content?.parts ?? []) {
      if (part.text) console.log(`[${event.author}] ${part.text}`);
      if (part.functionCall?.name === 'adk_request_confirmation') {
        confirmationCallId = part.functionCall.id;
        console.log(`[${event.author}] asks for confirmation: ${JSON.stringify(part.functionCall.args?.['toolConfirmation'])}`);
      }
    }
  }
  const confirmation: SampleContent = {
    role: 'user',
    parts: [{ functionResponse: { id: confirmationCallId, name: 'adk_request_confirmation', response: { confirmed: true, payload: { approved_days: 2 } } } }],
  };
  for await (const event of runner.runAsync({ userId: 'sample_user', sessionId: session.id, newMessage: confirmation })) {
    const text = event.content?.parts?.map((part) => part.text ?? '').join('') ?? '';
    if (text) console.log(`[${event.author}] ${text}`);
  }
}
