// After ADK's RunConfig reference: saveInputBlobsAsArtifacts keeps the files a user sends as artifacts and shows
// the model a note in their place; maxLlmCalls of 0 (or less) sets no limit on the model calls of a run.
import { FunctionTool, InMemoryRunner, LlmAgent, StreamingMode, isFinalResponse } from '@google/adk';
import { z } from 'zod';
import { script } from './script.js';

const lookupOrder = new FunctionTool({
  name: 'lookup_order',
  description: 'Looks up the status of an order.',
  parameters: z.object({ orderId: z.string().describe('The order number.') }),
  execute: ({ orderId }) => ({ orderId, status: 'shipped' }),
});

const agent = new LlmAgent({ name: 'receipts_agent', model: 'gemini-2.5-flash', instruction: 'Help with receipts and orders.', tools: [lookupOrder] });

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

export async function main(): Promise<void> {
  const runner = new InMemoryRunner({ agent, appName: 'receipts_app' });
  const session = await runner.sessionService.createSession({ appName: 'receipts_app', userId: 'ana' });
  const [upload, lookups] = script.userMessages;
  const newMessage = {
    role: 'user',
    parts: [{ text: upload! }, { inlineData: { mimeType: 'image/png', data: PNG, displayName: 'receipt-1.png' } }, { inlineData: { mimeType: 'text/plain', data: Buffer.from('order 5678').toString('base64') } }],
  };
  for await (const event of runner.runAsync({ userId: 'ana', sessionId: session.id, newMessage, runConfig: { saveInputBlobsAsArtifacts: true, streamingMode: StreamingMode.NONE } })) {
    if (isFinalResponse(event) && event.content?.parts?.[0]?.text) console.log(`[${event.author}] ${event.content.parts[0].text}`);
  }
  const stored = (await runner.sessionService.getSession({ appName: 'receipts_app', userId: 'ana', sessionId: session.id }))!;
  const userParts = stored.events[0]!.content!.parts!;
  console.log(`The stored message: ${JSON.stringify(userParts.map((part) => part.text ?? Object.keys(part).join('+')))}`);
  const names = await runner.artifactService!.listArtifactKeys({ appName: 'receipts_app', userId: 'ana', sessionId: session.id });
  console.log(`Artifacts: ${names.map((name) => name.replace(/_e-[0-9a-f-]+_/, '_<invocation>_')).join(', ')}`);
  const receipt = await runner.artifactService!.loadArtifact({ appName: 'receipts_app', userId: 'ana', sessionId: session.id, filename: 'receipt-1.png' });
  console.log(`receipt-1.png: ${receipt?.inlineData?.mimeType}, ${receipt?.inlineData?.data === PNG ? 'the bytes sent' : 'other bytes'}`);

  let modelCalls = 0;
  for await (const event of runner.runAsync({ userId: 'ana', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: lookups! }] }, runConfig: { maxLlmCalls: 0 } })) {
    if (event.author === 'receipts_agent' && !event.content?.parts?.some((part) => part.functionResponse)) modelCalls++;
    if (event.errorCode) console.log(`Error: ${event.errorCode}`);
    if (isFinalResponse(event) && event.content?.parts?.[0]?.text) console.log(`[${event.author}] ${event.content.parts[0].text}`);
  }
  console.log(`Model calls with maxLlmCalls 0: ${modelCalls}`);
}
