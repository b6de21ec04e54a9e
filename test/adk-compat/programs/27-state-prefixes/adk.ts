// After ADK's "State" guide (prefixes: none for the session, user: for the user's sessions, app: for every
// user, temp: for the current invocation only) and the Tools page's user-preference tool: a tool writes one
// key of each scope, the instruction reads them with {key} templating, and a second session shows what carries.
import { Context, FunctionTool, InMemoryRunner, LlmAgent, isFinalResponse } from '@google/adk';
import { createUserContent } from '@google/genai';
import { z } from 'zod';
import { script } from './script.js';

const setPreference = new FunctionTool({
  name: 'set_theme_preference',
  description: "Updates the user's theme preference.",
  parameters: z.object({ theme: z.string().describe('The theme, "dark" or "light".') }),
  execute: ({ theme }, toolContext?: Context) => {
    const previous = toolContext!.state.get<string>('user:theme', 'none');
    toolContext!.state.set('user:theme', theme);
    toolContext!.state.set('app:themes_set', (toolContext!.state.get<number>('app:themes_set') ?? 0) + 1);
    toolContext!.state.set('temp:last_theme_request', theme);
    toolContext!.state.set('last_change', `${previous} -> ${theme}`);
    return { status: 'success', previous, theme };
  },
});

const agent = new LlmAgent({
  name: 'preferences_agent',
  model: 'gemini-2.5-flash',
  instruction: 'Theme: {user:theme?}. Themes set in this app: {app:themes_set?}. Last change here: {last_change?}.',
  tools: [setPreference],
});

export async function main(): Promise<void> {
  const runner = new InMemoryRunner({ agent, appName: 'prefs_app' });
  const first = await runner.sessionService.createSession({ appName: 'prefs_app', userId: 'ana' });
  const [setTheme, askAgain] = script.userMessages;
  for await (const event of runner.runAsync({ userId: 'ana', sessionId: first.id, newMessage: createUserContent(setTheme!) })) {
    if (isFinalResponse(event) && event.content?.parts?.[0]?.text) console.log(`[${event.author}] ${event.content.parts[0].text}`);
  }
  const stored = await runner.sessionService.getSession({ appName: 'prefs_app', userId: 'ana', sessionId: first.id });
  console.log(`First session state: ${JSON.stringify(stored!.state)}`);

  const second = await runner.sessionService.createSession({ appName: 'prefs_app', userId: 'ana' });
  console.log(`A new session of the same user starts with: ${JSON.stringify(second.state)}`);
  const other = await runner.sessionService.createSession({ appName: 'prefs_app', userId: 'ben' });
  console.log(`Another user's session starts with: ${JSON.stringify(other.state)}`);
  for await (const event of runner.runAsync({ userId: 'ana', sessionId: second.id, newMessage: createUserContent(askAgain!) })) {
    if (isFinalResponse(event) && event.content?.parts?.[0]?.text) console.log(`[${event.author}] ${event.content.parts[0].text}`);
  }
}
