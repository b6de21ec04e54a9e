import { describe, expect, it } from "vitest";
import { InMemoryRunner, LlmAgent } from "../../src/index.js";
import { collect, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

async function instructionFor(instruction: string, artifacts: Record<string, { text?: string; inlineData?: { mimeType: string; data: string } }>) {
  const model = new ScriptedModel([textResponse("ok")]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "reader", model, instruction, disallowTransferToParent: true, disallowTransferToPeers: true }), appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u", state: { topic: "{artifact.notes}" } });
  for (const [filename, artifact] of Object.entries(artifacts)) await runner.artifactService.saveArtifact({ appName: "app", userId: "u", sessionId: session.id, filename, artifact });
  const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
  const failed = events.find((event) => event.errorCode);
  // A missing required artifact ends the run with an error event; it is turned back into a rejection here.
  if (failed) throw Object.assign(new Error(failed.errorMessage), { code: failed.errorCode });
  return model.requests[0]!.systemInstruction;
}

describe("{artifact.name} in instructions, as ADK fills it", () => {
  it("puts the artifact's text in the instruction, text files decoded, in one pass with state", async () => {
    const csv = Buffer.from("a,b\n1,2").toString("base64");
    expect(await instructionFor("Notes: {artifact.notes}. Data: {artifact.data.csv}. Topic: {topic}.", { notes: { text: "Use {braces} freely" }, "data.csv": { inlineData: { mimeType: "text/csv", data: csv } } })).toBe(
      "Notes: Use {braces} freely. Data: a,b\n1,2. Topic: {artifact.notes}.",
    );
  });

  it("leaves an optional missing artifact empty, and names a required missing one in the error", async () => {
    expect(await instructionFor("Extra: [{artifact.extra?}]", {})).toBe("Extra: []");
    await expect(instructionFor("Extra: {artifact.extra}", {})).rejects.toMatchObject({ code: "MISSING_ARTIFACT", message: expect.stringContaining('the session has no artifact "extra"') });
  });
});
