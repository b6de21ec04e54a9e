import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createArtifactService, createSessionService, FunctionTool, getFunctionResponses, LlmAgent, Runner, type Content, type Session } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { startWorker } from "../support/child-process.js";
import { tempDir } from "../support/temp-dir.js";

const dir = tempDir();

describe("a run interrupted by a crash", () => {
  it("continues from the stored session in a new process with a new Runner", async () => {
    const uri = `sqlite://${join(dir, "resume.db")}`;
    const first = startWorker("test/storage/workers/resumable-run.ts", { uri, phase: "start" });
    await first.waitFor((line) => line.toolStarted === true);
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");

    const second = startWorker("test/storage/workers/resumable-run.ts", { uri, phase: "resume" });
    const exit = await second.exited;
    expect(exit, exit.stderr).toMatchObject({ code: 0 });
    const { sent, stored } = second.lines[0] as { sent: Content[]; stored: Session };
    // The model sees the first turn, the call that never finished answered with an error right after it, then the new message.
    expect(sent.map((content) => content.role)).toEqual(["user", "model", "user", "user"]);
    expect(sent[0]!.parts![0]!.text).toBe("Book me a flight to Lisbon");
    expect(sent[1]!.parts![0]!.functionCall).toMatchObject({ name: "book_flight", args: { to: "Lisbon" } });
    expect(sent[2]!.parts![0]!.functionResponse).toMatchObject({ id: sent[1]!.parts![0]!.functionCall!.id, name: "book_flight", response: { status: "error" } });
    expect(sent[3]!.parts![0]!.text).toBe("Did it work?");
    expect(stored.events.map((event) => event.author)).toEqual(["user", "planner", "planner", "user", "planner"]);
    expect(stored.events.at(-1)!.content!.parts![0]!.text).toBe("The booking was interrupted; shall I try again?");
    // The tool's state change died with the process: it was never part of a stored event.
    expect(stored.state).toEqual({ "user:home": "Paris" });
  });
});

describe("artifacts saved by tools through the configured service", () => {
  it("land in the file store, versioned, and are recorded in artifactDelta", async () => {
    const artifactService = await createArtifactService(`file://${join(dir, "tool-artifacts")}`);
    const sessionService = await createSessionService(`sqlite://${join(dir, "tool-artifacts.db")}`);
    const save = new FunctionTool({
      name: "save_report",
      description: "Saves a report.",
      parameters: { type: "object", properties: { body: { type: "string" } } },
      execute: async ({ body }, context) => ({
        version: await context.saveArtifact("report.csv", { inlineData: { mimeType: "text/csv", data: Buffer.from(body as string).toString("base64") } }),
        listed: await context.listArtifacts(),
      }),
    });
    const model = new ScriptedModel([
      functionCallsResponse({ name: "save_report", args: { body: "a,b\n1,2\n" } }),
      functionCallsResponse({ name: "save_report", args: { body: "a,b\n3,4\n" } }),
      textResponse("Saved twice."),
    ]);
    const runner = new Runner({ appName: "reports", agent: new LlmAgent({ name: "agent", model, tools: [save] }), sessionService, artifactService });
    const session = await sessionService.createSession({ appName: "reports", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("save it") }));
    expect(getFunctionResponses(events[3]!.content)[0]!.response).toEqual({ version: 1, listed: ["report.csv"] });
    const stored = (await sessionService.getSession({ appName: "reports", userId: "u", sessionId: session.id }))!;
    expect(stored.events.map((event) => event.actions.artifactDelta)).toEqual([{}, {}, { "report.csv": 0 }, {}, { "report.csv": 1 }, {}]);
    const reopened = await createArtifactService(`file://${join(dir, "tool-artifacts")}`);
    const first = await reopened.loadArtifact({ appName: "reports", userId: "u", sessionId: session.id, filename: "report.csv", version: 0 });
    expect(first).toEqual({ inlineData: { mimeType: "text/csv", data: Buffer.from("a,b\n1,2\n").toString("base64") } });
    await sessionService.close();
  });
});
