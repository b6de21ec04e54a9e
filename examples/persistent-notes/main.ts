/**
 * A note-taking agent whose sessions, artifacts and memory live in
 * `.toolsmith/` and survive restarts: run it twice and the second run finds
 * the first one's note. `npx tsx examples/persistent-notes/main.ts [dir]`.
 * The model is toolsmith's ScriptedModel, as no model is reachable here.
 */
import {
  createArtifactService,
  createMemoryService,
  createSessionService,
  FunctionTool,
  getText,
  isFinalResponse,
  LlmAgent,
  Runner,
  StaleSessionError,
} from "toolsmith";
import { functionCallsResponse, ScriptedModel, textResponse, userMessage } from "toolsmith/testing";

const dir = process.argv[2] ?? ".toolsmith";
const sessionService = await createSessionService(`sqlite://${dir}/toolsmith.db`); // or "postgres://…", "memory://"
const memoryService = await createMemoryService(`sqlite://${dir}/toolsmith.db`);
const artifactService = await createArtifactService(`file://${dir}/artifacts`);

const saveNote = new FunctionTool({
  name: "save_note",
  description: "Saves a note for the user.",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: async ({ text }, context) => {
    const version = await context.saveArtifact("user:notes.md", { inlineData: { mimeType: "text/markdown", data: Buffer.from(String(text)).toString("base64") } });
    context.state.set("user:note_count", version + 1);
    return { status: "saved", version };
  },
});

const model = new ScriptedModel([functionCallsResponse({ name: "save_note", args: { text: "Buy espresso beans" } }), textResponse("Noted: buy espresso beans.")]);
const runner = new Runner({ appName: "notes", agent: new LlmAgent({ name: "notes_agent", model, tools: [saveNote] }), sessionService, artifactService, memoryService });

const session = await sessionService.createSession({ appName: "notes", userId: "ada" });
for await (const event of runner.runAsync({ userId: "ada", sessionId: session.id, newMessage: userMessage("Remember: buy espresso beans") })) {
  if (isFinalResponse(event)) console.log("agent:", getText(event.content));
}

// Make the finished session searchable from the user's later sessions.
const stored = await sessionService.getSession({ appName: "notes", userId: "ada", sessionId: session.id });
await memoryService.addSessionToMemory(stored!);
const { memories } = await memoryService.searchMemory({ appName: "notes", userId: "ada", query: "espresso" });
console.log(`memories about espresso: ${memories.length}; notes saved so far: ${String(stored!.state["user:note_count"])}`);

// A copy read before another writer appended is refused, never merged silently: reload and retry.
const stale = (await sessionService.getSession({ appName: "notes", userId: "ada", sessionId: session.id }))!;
await sessionService.appendEvent({ session: stored!, event: { ...stale.events[0]!, id: "another-writer", timestamp: Date.now() } });
try {
  await sessionService.appendEvent({ session: stale, event: { ...stale.events[0]!, id: "late-writer", timestamp: Date.now() } });
} catch (error) {
  if (!(error instanceof StaleSessionError)) throw error;
  console.log("stale copy refused:", error.code);
}

await Promise.all([sessionService.close(), memoryService.close(), artifactService.close()]);
