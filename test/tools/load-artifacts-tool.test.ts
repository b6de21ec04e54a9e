import { describe, expect, it } from "vitest";
import { BaseTool, getFunctionResponses, isBaseTool, LlmAgent, LOAD_ARTIFACTS, LoadArtifactsTool, Runner, type LlmRequest } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { toolHarness } from "./builtin/tool-harness.js";

const emptyRequest = (): LlmRequest => ({ contents: [], systemInstruction: "", functionDeclarations: [], config: {} });
const base64 = (text: string) => btoa(text);

describe("LoadArtifactsTool", () => {
  it("is ADK's tool: one shared instance, a BaseTool, with ADK's declaration", () => {
    expect(LOAD_ARTIFACTS).toBeInstanceOf(LoadArtifactsTool);
    expect(isBaseTool(LOAD_ARTIFACTS) && LOAD_ARTIFACTS instanceof BaseTool).toBe(true);
    expect(LOAD_ARTIFACTS._getDeclaration().parameters.properties.artifact_names.description).toBe("The names of the artifacts to load.");
    expect(LOAD_ARTIFACTS.declaration()!.parameters).toEqual({
      type: "object",
      properties: { artifact_names: { type: "array", items: { type: "string" }, description: "The names of the artifacts to load." } },
    });
  });

  it("adds nothing to the request when the session has no artifacts", async () => {
    const { context } = await toolHarness();
    const request = emptyRequest();
    await LOAD_ARTIFACTS.processLlmRequest({ toolContext: context(), llmRequest: request });
    expect(request).toEqual(emptyRequest());
  });

  it("finds a user-scoped artifact by its bare name, as ADK does", async () => {
    const harness = await toolHarness();
    await harness.context().saveArtifact("user:profile.txt", { text: "Likes tea." });
    const { request, context } = await requestAfterCallWith(harness, ["profile.txt"]);
    await LOAD_ARTIFACTS.processLlmRequest({ toolContext: context(), llmRequest: request });
    expect(request.contents.at(-1)).toEqual({ role: "user", parts: [{ text: "Artifact profile.txt is:" }, { text: "Likes tea." }] });
  });

  it("gives the model text files as text, keeps images inline, and names binary files it cannot read", async () => {
    const harness = await toolHarness();
    const save = (name: string, mimeType: string, data: string) => harness.context().saveArtifact(name, { inlineData: { mimeType, data } });
    await save("notes.csv", "application/csv; charset=utf-8", base64("a,b\n1,2"));
    await save("photo.png", "image/png", base64("PNG"));
    await save("blob.bin", "application/octet-stream", base64("x".repeat(2048)));
    const { request, context } = await requestAfterCallWith(harness, ["notes.csv", "photo.png", "blob.bin"]);
    await LOAD_ARTIFACTS.processLlmRequest({ toolContext: context(), llmRequest: request });
    expect(request.contents.slice(1).map((content) => content.parts![1])).toEqual([
      { text: "a,b\n1,2" },
      { inlineData: { mimeType: "image/png", data: base64("PNG") } },
      { text: "[Binary artifact: blob.bin, type: application/octet-stream, size: 2.0 KB. Content cannot be displayed inline.]" },
    ]);
  });

  it("answers a name that is no artifact with an error listing the artifacts there are", async () => {
    const harness = await toolHarness();
    await harness.context().saveArtifact("report.txt", { text: "42" });
    const { response } = await requestAfterCallWith(harness, ["report.md"]);
    expect(response).toEqual({ status: "error", error: 'No artifact named "report.md". Available: report.txt. Call load_artifacts again with names from that list.' });
  });

  it("loads an artifact for the model in a Runner run without storing its content in the session", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "load_artifacts", args: { artifact_names: ["report.txt"] } }), textResponse("It says 42.")]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "reader", model, tools: [LOAD_ARTIFACTS] }) });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    await runner.artifactService.saveArtifact({ appName: "app", userId: "u", sessionId: session.id, filename: "report.txt", artifact: { text: "Quarterly: 42" } });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("What does the report say?") }));
    expect(model.requests[0]!.systemInstruction).toContain('You have a list of artifacts:\n  ["report.txt"]');
    expect(model.requests[1]!.contents.at(-1)).toEqual({ role: "user", parts: [{ text: "Artifact report.txt is:" }, { text: "Quarterly: 42" }] });
    expect(events.flatMap((event) => getFunctionResponses(event.content)).map((response) => response.response)).toEqual([
      { artifact_names: ["report.txt"], status: "artifact contents temporarily inserted and removed. to access these artifacts, call load_artifacts tool again." },
    ]);
    expect(JSON.stringify(await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))).not.toContain("Quarterly");
  });
});

/** A request whose last message is the response to a load_artifacts call naming these artifacts. */
async function requestAfterCallWith(harness: Awaited<ReturnType<typeof toolHarness>>, names: string[]) {
  const response = await harness.call(LOAD_ARTIFACTS, { artifact_names: names });
  const request = emptyRequest();
  request.contents = [{ role: "user", parts: [{ functionResponse: { id: "1", name: "load_artifacts", response } }] }];
  return { ...harness, request, response };
}
