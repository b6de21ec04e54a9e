/**
 * One program, run on `@google/adk` 2.0 and on toolsmith, that records what
 * the model is told about tools: each tool's `_getDeclaration()`, and the
 * system instruction and contents of each request, which `processLlmRequest`
 * of the built-in tools changes. `scripts/record-adk-tool-declarations.ts`
 * writes ADK's record to `test/fixtures/adk/tool-declarations.json`;
 * `adk-tool-declarations.test.ts` compares toolsmith's with it.
 */
import { z } from "zod";
import { call, drain, runOn, text, type Framework } from "../adk-compat/side-by-side.js";

/** What the program records. */
export interface ToolDeclarationsRecord {
  /** `_getDeclaration()` of each tool, by a label. */
  declarations: Record<string, unknown>;
  /** Each model request of a run with every built-in tool: instruction and contents. */
  requests: { systemInstruction: string; contents: unknown[]; tools: string[] }[];
}

/** The tools whose declarations are recorded, made with the framework's classes. */
function toolsOf(f: Framework): Record<string, { _getDeclaration(): unknown }> {
  const execute = async () => ({ status: "ok" });
  return {
    LOAD_MEMORY: f.LOAD_MEMORY,
    PRELOAD_MEMORY: f.PRELOAD_MEMORY,
    EXIT_LOOP: f.EXIT_LOOP,
    LOAD_ARTIFACTS: f.LOAD_ARTIFACTS,
    functionToolWithZod: new f.FunctionTool({
      name: "get_weather",
      description: "Retrieves the weather for a city.",
      parameters: z.object({ city: z.string().describe("The city name."), days: z.number().int().optional() }),
      execute,
    }),
    functionToolWithoutParameters: new f.FunctionTool({ name: "now", description: "The time.", execute }),
    longRunningFunctionTool: new f.LongRunningFunctionTool({ name: "ask_for_approval", description: "Asks a manager to approve.", execute }),
    longRunningWithoutDescription: new f.LongRunningFunctionTool({ name: "start_job", description: "", execute }),
    functionToolFlaggedLongRunning: new f.FunctionTool({ name: "flagged", description: "Flagged.", isLongRunning: true, execute }),
  };
}

/** Runs the program on one framework. */
export async function recordToolDeclarations(framework: "adk" | "toolsmith"): Promise<ToolDeclarationsRecord> {
  let declarations: Record<string, unknown> = {};
  const script = [text("Noted."), call("load_artifacts", { artifact_names: ["report.txt"] }), call("load_memory", { query: "colour" }), text("Teal, and the report says 42.")];
  const record = await runOn(framework, script, async (f, model) => {
    declarations = Object.fromEntries(Object.entries(toolsOf(f)).map(([label, tool]) => [label, structuredClone(tool._getDeclaration() ?? null)]));
    const first = new f.InMemoryRunner({ agent: new f.LlmAgent({ name: "listener", model }), appName: "app" });
    const earlier = await first.sessionService.createSession({ appName: "app", userId: "u" });
    await drain(first.runAsync({ userId: "u", sessionId: earlier.id, newMessage: { role: "user", parts: [{ text: "My favourite colour is teal." }] } }));
    await first.memoryService.addSessionToMemory(await first.sessionService.getSession({ appName: "app", userId: "u", sessionId: earlier.id }));
    const agent = new f.LlmAgent({ name: "helper", model, instruction: "Help the user.", tools: [f.PRELOAD_MEMORY, f.LOAD_MEMORY, f.LOAD_ARTIFACTS, f.EXIT_LOOP] });
    const runner = new f.InMemoryRunner({ agent, appName: "app" });
    (runner as { memoryService: unknown }).memoryService = first.memoryService;
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    await runner.artifactService.saveArtifact({ appName: "app", userId: "u", sessionId: session.id, filename: "report.txt", artifact: { text: "Quarterly: 42" } });
    const events = await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "What is my favourite colour, and what does the report say?" }] } }));
    return { runner, events };
  });
  // Memories carry the time they were stored; the rest is the same on every run.
  const requests = JSON.parse(JSON.stringify(record.requests).replace(/Time: [^\\"]+/g, "Time: <time>").replace(/"timestamp":"[^"]+"/g, '"timestamp":"<time>"'));
  return { declarations, requests };
}
