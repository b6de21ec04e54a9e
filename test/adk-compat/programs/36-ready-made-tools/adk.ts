// ADK's ready-made tools in one agent: load_web_page (asked for a cloud's metadata address, which it refuses),
// get_user_choice (the run waits for the person's pick, sent back as the call's function response), few-shot
// examples from ExampleTool in every request's instruction, and an API-key credential typed with
// AuthCredentialTypes.
import { AuthCredential, AuthCredentialTypes, ExampleTool, InMemoryRunner, LlmAgent, LOAD_WEB_PAGE, getFunctionCalls, getUserChoiceTool, isFinalResponse } from '@google/adk';
import type { Content } from '@google/genai';
import { script } from './script.js';

const examples = new ExampleTool([
  {
    input: { role: 'user', parts: [{ text: 'Which plan should I take?' }] },
    output: [
      { role: 'model', parts: [{ functionCall: { name: 'get_user_choice', args: { options: ['basic', 'pro'] } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_user_choice', response: { choice: 'basic' } } }] },
      { role: 'model', parts: [{ text: 'You chose basic.' }] },
    ],
  },
]);

const agent = new LlmAgent({
  name: 'plan_helper',
  model: 'gemini-2.5-flash',
  instruction: 'Read pages when asked, and let the user choose between plans.',
  tools: [LOAD_WEB_PAGE, getUserChoiceTool, examples],
});

const credential: AuthCredential = { authType: AuthCredentialTypes.API_KEY, apiKey: 'demo-key' };

export async function main(): Promise<void> {
  console.log(`Credential type: ${credential.authType}; OAuth 2 is "${AuthCredentialTypes.OAUTH2}"`);
  const runner = new InMemoryRunner({ agent, appName: 'plans' });
  const session = await runner.sessionService.createSession({ appName: 'plans', userId: 'ana' });
  const [question] = script.userMessages;
  let waitingOn: { id: string; name: string } | undefined;
  for await (const event of runner.runAsync({ userId: 'ana', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: question! }] } })) {
    for (const call of getFunctionCalls(event)) {
      console.log(`[${event.author}] calls ${call.name}(${JSON.stringify(call.args)})`);
      if (event.longRunningToolIds?.includes(call.id!)) waitingOn = { id: call.id!, name: call.name! };
    }
    for (const part of event.content?.parts ?? []) {
      if (part.functionResponse?.name === 'load_web_page') console.log(`load_web_page answered: ${JSON.stringify(part.functionResponse.response)}`);
    }
  }
  console.log(`Waiting for the user's choice: ${waitingOn?.name}`);
  const choice: Content = { role: 'user', parts: [{ functionResponse: { id: waitingOn!.id, name: waitingOn!.name, response: { choice: 'pro' } } }] };
  for await (const event of runner.runAsync({ userId: 'ana', sessionId: session.id, newMessage: choice })) {
    if (isFinalResponse(event) && event.content?.parts?.[0]?.text) console.log(`[${event.author}] ${event.content.parts[0].text}`);
  }
}
