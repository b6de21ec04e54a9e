// After ADK's "Artifacts" guide and the Tools page's document-analysis tool: one tool saves a report as an
// artifact (a new version each time), another lists the session's artifacts and loads one; the program
// then reads the versions through the artifact service, as the guide's examples do.
import { Context, FunctionTool, InMemoryRunner, LlmAgent, isFinalResponse } from '@google/adk';
import { createUserContent } from '@google/genai';
import { z } from 'zod';
import { script } from './script.js';

const saveReport = new FunctionTool({
  name: 'save_report',
  description: 'Saves a report as an artifact.',
  parameters: z.object({ filename: z.string(), text: z.string() }),
  execute: async ({ filename, text }, toolContext?: Context) => {
    const version = await toolContext!.saveArtifact(filename, { text });
    return { status: 'success', filename, version };
  },
});

const readReport = new FunctionTool({
  name: 'read_report',
  description: 'Lists the artifacts and reads one.',
  parameters: z.object({ filename: z.string() }),
  execute: async ({ filename }, toolContext?: Context) => {
    const available = await toolContext!.listArtifacts();
    const part = await toolContext!.loadArtifact(filename);
    if (!part) return { status: 'error', error_message: `Document '${filename}' not found.`, available };
    return { status: 'success', available, text: part.text };
  },
});

const agent = new LlmAgent({ name: 'report_agent', model: 'gemini-2.5-flash', instruction: 'Save and read reports with your tools.', tools: [saveReport, readReport] });

export async function main(): Promise<void> {
  const runner = new InMemoryRunner({ agent, appName: 'reports_app' });
  const session = await runner.sessionService.createSession({ appName: 'reports_app', userId: 'user' });
  for (const message of script.userMessages) {
    for await (const event of runner.runAsync({ userId: 'user', sessionId: session.id, newMessage: createUserContent(message) })) {
      if (event.actions.artifactDelta && Object.keys(event.actions.artifactDelta).length > 0) console.log(`[${event.author}] artifacts changed: ${JSON.stringify(event.actions.artifactDelta)}`);
      if (isFinalResponse(event) && event.content?.parts?.[0]?.text) console.log(`[${event.author}] ${event.content.parts[0].text}`);
    }
  }
  const versions = await runner.artifactService!.listVersions({ appName: 'reports_app', userId: 'user', sessionId: session.id, filename: 'q3.txt' });
  const first = await runner.artifactService!.loadArtifact({ appName: 'reports_app', userId: 'user', sessionId: session.id, filename: 'q3.txt', version: 0 });
  console.log(`q3.txt versions: ${JSON.stringify(versions)}; version 0 says: ${first?.text}`);
}
