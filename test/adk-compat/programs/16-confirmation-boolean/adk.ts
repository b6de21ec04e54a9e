// Ported from google/adk-docs examples/typescript/snippets/tools/confirmation/boolean_confirmation.ts — a runner that asks and then confirms is added, as the sample defines the agent only.
/**
 * @license
 * Copyright 2026 Google LLC
 * SPDX-License-Identifier: Apache-2.0
 */

import {FunctionTool, LlmAgent} from '@google/adk';
import {z} from 'zod';

/**
 * A reimbursement tool with dynamic confirmation logic.
 */
export const reimburseTool = new FunctionTool({
  name: 'reimburse',
  description: 'Reimburse an amount. Large amounts (>1000) require manager approval.',
  parameters: z.object({
    amount: z.coerce.number().describe('The amount to reimburse.'),
  }),
  execute: async ({amount}, toolContext) => {
    // 1. Check if we already have a confirmed response.
    if (toolContext?.toolConfirmation?.confirmed) {
      const isLarge = amount > 1000;
      return {
        status: 'SUCCESS',
        message: isLarge 
          ? `Large reimbursement of ${amount} approved by manager and processed.`
          : `Reimbursement of ${amount} has been successfully processed.`,
      };
    }

    // 2. Request a tool confirmation.
    const isLarge = amount > 1000;
    toolContext?.requestConfirmation({
      hint: isLarge 
        ? `The amount ${amount} exceeds the $1000 limit and requires manager approval.`
        : `Do you want to reimburse ${amount}?`,
      payload: {amount},
    });

    // 3. Return a status that tells the agent we are waiting.
    // Note: The model won't see this until the turn resumes after confirmation.
    return {
      status: isLarge ? 'AWAITING_MANAGER_APPROVAL' : 'AWAITING_CONFIRMATION',
      message: 'This request requires approval to proceed.',
    };
  },
});

export const rootAgent = new LlmAgent({
  name: 'Finance_Assistant',
  model: 'gemini-flash-latest',
  instruction: `You are a Finance Assistant. 
  - You MUST use the 'reimburse' tool for ALL reimbursement requests.
  - MANDATORY: Every tool call MUST be accompanied by a text response in the same message.
  - THRESHOLD LOGIC:
    - For amounts <= 1000: Say "I am initiating the reimbursement request for [amount]. Please confirm it to proceed."
    - For amounts > 1000: Say "I am initiating the reimbursement request for [amount]. Since this exceeds $1000, manager approval is required. Please confirm the request to submit it for review."
  - EXAMPLES:
    User: "Reimburse me $45"
    Model: "I am initiating the reimbursement request for 45. Please confirm it to proceed." [Tool Call: reimburse(amount=45)]

    User: "Reimburse me $2500"
    Model: "I am initiating the reimbursement request for 2500. Since this exceeds $1000, manager approval is required. Please confirm the request to submit it for review." [Tool Call: reimburse(amount=2500)]
  - If the user provides a currency symbol (like $), ignore it and pass only the number to the tool.
  - In the Web UI, the user will see a 'Confirm' button. In the terminal, the user should simulate a confirmation response.`,
  tools: [reimburseTool],
});

/* 
  Note: In TypeScript, dynamic threshold logic is implemented 
  directly within the tool's 'execute' function as shown above.
*/

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
    parts: [{ functionResponse: { id: confirmationCallId, name: 'adk_request_confirmation', response: { confirmed: true } } }],
  };
  for await (const event of runner.runAsync({ userId: 'sample_user', sessionId: session.id, newMessage: confirmation })) {
    const text = event.content?.parts?.map((part) => part.text ?? '').join('') ?? '';
    if (text) console.log(`[${event.author}] ${text}`);
  }
}
