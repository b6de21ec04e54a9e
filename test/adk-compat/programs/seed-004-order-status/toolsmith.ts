// Ported from seed 004 (ADK's "Tools" page, "Defining Effective Tool Functions", the TypeScript example of a
// good definition), line breaks restored. The page shows the function only: the FunctionTool, the agent and
// the runner below are added, as the same page's other samples wire a function into an agent.
import {FunctionTool, LlmAgent} from 'toolsmith';
import {z} from 'zod';

/**
 * Fetches the current status of a customer's order using its ID.
 *
 * Use this tool ONLY when a user explicitly asks for the status of
 * a specific order and provides the order ID. Do not use it for
 * general inquiries.
 *
 * @param params The parameters for the function.
 * @param params.order_id The unique identifier of the order to look up.
 * @returns A dictionary indicating the outcome.
 *          On success, status is 'success' and includes an 'order' dictionary.
 *          On failure, status is 'error' and includes an 'error_message'.
 *          Example success: {'status': 'success', 'order': {'state': 'shipped', 'tracking_number': '1Z9...'}}
 *          Example error: {'status': 'error', 'error_message': 'Order ID not found.'}
 */
async function lookupOrderStatus(params: { order_id: string }): Promise<Record<string, any>> {
  // ... function implementation to fetch status from a backend ...
  const status_details = await fetchStatusFromBackend(params.order_id);
  if (status_details) {
    return {
      "status": "success",
      "order": {
        "state": status_details.state,
        "tracking_number": status_details.tracking,
      },
    };
  } else {
    return { "status": "error", "error_message": `Order ID ${params.order_id} not found.` };
  }
}

// Placeholder for a backend call
async function fetchStatusFromBackend(order_id: string): Promise<{state: string, tracking: string} | null> {
  if (order_id === "12345") {
    return { state: "shipped", tracking: "1Z9..." };
  }
  return null;
}

// Added for the harness: the tool, an agent that uses it, and a runner over the script's messages.
const lookupOrderStatusTool = new FunctionTool({
  name: 'lookup_order_status',
  description: 'Fetches the current status of a customer\'s order using its ID. Use this tool ONLY when a user explicitly asks for the status of a specific order and provides the order ID.',
  parameters: z.object({
    order_id: z.string().describe('The unique identifier of the order to look up.'),
  }),
  execute: lookupOrderStatus,
});

export const rootAgent = new LlmAgent({
  name: 'order_status_agent',
  model: 'gemini-2.5-flash',
  instruction: 'Answer questions about orders. If lookup_order_status returns status "error", tell the user the error_message and ask them to check the order ID.',
  tools: [lookupOrderStatusTool],
});

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
      for (const part of event.content?.parts ?? []) {
        if (part.functionResponse) console.log(`[${event.author}] ${part.functionResponse.name} -> ${JSON.stringify(part.functionResponse.response)}`);
      }
    }
  }
}
