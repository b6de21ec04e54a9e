import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as toolsmith from "../../src/index.js";
import { call, drain, runOnBoth, text, type Framework } from "./side-by-side.js";

/**
 * ADK 2's `requestInputTool` and the helpers a client reads a waiting session with (`getUserInputRequests`,
 * `requiresUserInput`, `getPendingUserInputRequests`), on `@google/adk` 2.0 and on toolsmith: one model response asks
 * the person a question, needs a confirmation and needs a credential; both read the same three requests, and both
 * see the question answered once the client sends its answer.
 */
describe("user input requests, side by side with @google/adk 2.0", () => {
  const apiKeyConfig = { authScheme: { type: "apiKey", in: "header", name: "X-Key" }, credentialKey: "weather_key" };

  const byKind = (left: Record<string, unknown>, right: Record<string, unknown>) => String(left.kind).localeCompare(String(right.kind));

  /**
   * Ids are random on both: each request without its id. A confirmation's message is its hint, which toolsmith
   * words for the person deciding (docs/adk-compat.md, Confirmation): compared apart.
   */
  function comparable(requests: Array<Record<string, unknown>>) {
    return requests.map(({ interruptId: _id, ...rest }) => {
      const plain = JSON.parse(JSON.stringify(rest)) as Record<string, unknown>;
      if (plain.kind === "confirmation") plain.message = typeof plain.message === "string" ? "(the hint)" : plain.message;
      return plain;
    });
  }

  async function askEverything(f: Framework, model: string) {
    const deleteFile = new f.FunctionTool({ name: "delete_file", description: "Deletes a file.", parameters: z.object({ path: z.string() }), requireConfirmation: true, execute: () => ({ deleted: true }) });
    const weather = new f.FunctionTool({
      name: "weather",
      description: "Weather from a paid API.",
      parameters: z.object({}),
      execute: (_args: unknown, context: { requestCredential(config: unknown): void }) => {
        context.requestCredential(apiKeyConfig);
        return { status: "waiting for a key" };
      },
    });
    const runner = new f.InMemoryRunner({ agent: new f.LlmAgent({ name: "assistant", model, tools: [deleteFile, weather, f.requestInputTool] }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = (await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Clean up, check the weather, and ask me my name." }] } }))) as unknown[];
    // ADK asks for the credential and the confirmation in an event each, toolsmith in one: compared as one list.
    const asked = events.filter((event) => f.requiresUserInput(event)).flatMap((event) => comparable(f.getUserInputRequests(event))).sort(byKind);
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    const pendingBefore = f.getPendingUserInputRequests(stored.events) as Array<{ kind: string; interruptId: string; functionCallName: string; message?: string }>;
    const hint = pendingBefore.find((request) => request.kind === "confirmation")?.message;
    // The client answers the question (only): the input request is no longer pending.
    const input = pendingBefore.find((request) => request.kind === "input")!;
    const answer = { role: "user", parts: [{ functionResponse: { id: input.interruptId, name: input.functionCallName, response: { name: "Ada" } } }] };
    await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: answer }));
    const after = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    const pendingAfter = f.getPendingUserInputRequests(after.events) as Array<{ kind: string }>;
    return { runner, events, output: { hint, asked, pendingBefore: comparable(pendingBefore as never).sort(byKind), pendingAfter: pendingAfter.map((request) => request.kind).sort() } };
  }

  it("reads the same input, confirmation and credential requests from the events, and the same pending ones", async () => {
    const script = [
      { content: { role: "model", parts: [{ functionCall: { name: "delete_file", args: { path: "old.log" } } }, { functionCall: { name: "weather", args: {} } }, { functionCall: { name: "adk_request_input", args: { message: "What is your name?", response_schema: { type: "object", properties: { name: { type: "string" } } } } } }] } },
      text("Hello Ada."),
    ];
    const { adk, toolsmith: ours } = await runOnBoth(script, askEverything);
    const adkOutput = adk.output as { hint: string; asked: unknown[]; pendingBefore: Array<Record<string, unknown>>; pendingAfter: string[] };
    const ourOutput = ours.output as typeof adkOutput;
    // The model's own call to adk_request_input is an input request on both, and so is what each asks the client.
    expect(ourOutput.pendingBefore).toEqual(adkOutput.pendingBefore);
    expect(ourOutput.pendingBefore.map((request) => request.kind)).toEqual(["confirmation", "credential", "input"]);
    expect(ourOutput.pendingBefore.find((request) => request.kind === "input")).toMatchObject({ functionCallName: "adk_request_input", author: "assistant", message: "What is your name?", responseSchema: { type: "object" } });
    expect(ourOutput.pendingBefore.find((request) => request.kind === "confirmation")).toMatchObject({ toolName: "delete_file", message: "(the hint)" });
    expect(ourOutput.hint).toBe('Please approve or reject the call to "delete_file" with {"path":"old.log"}.');
    expect(adkOutput.hint).toBe("Please approve or reject the tool call delete_file() by responding with a FunctionResponse with an expected ToolConfirmation payload.");
    expect(ourOutput.pendingBefore.find((request) => request.kind === "credential")).toMatchObject({ authConfig: { authScheme: { type: "apiKey", name: "X-Key" } } });
    expect(ourOutput.asked).toEqual(adkOutput.asked);
    expect(ourOutput.pendingAfter).toEqual(adkOutput.pendingAfter);
    expect(ourOutput.pendingAfter).toEqual(["confirmation", "credential"]);
  });

  it("declares adk_request_input with ADK's description and parameters", () => {
    const declaration = toolsmith.requestInputTool.declaration();
    expect(declaration.name).toBe(toolsmith.REQUEST_INPUT_FUNCTION_CALL_NAME);
    expect(declaration.description).toContain("Presents a custom message to the user and awaits unstructured or structured input.");
    expect(declaration.parameters).toMatchObject({ properties: { message: { type: "string", description: "The prompt for the user." }, response_schema: { type: "object", description: "Expected schema of the response." } }, required: ["message"] });
  });

  it("reads a credential request written in snake_case, and skips calls without an id", () => {
    const event = toolsmith.createEvent({
      author: "agent",
      content: {
        role: "user",
        parts: [
          { functionCall: { name: "adk_request_credential", args: { function_call_id: "c1", auth_config: { auth_scheme: { type: "apiKey" } } } } },
          { functionCall: { name: "adk_request_input", args: { message: "no id" } } },
          { functionCall: { id: "x", name: "some_tool", args: {} } },
        ],
      },
    });
    expect(toolsmith.getUserInputRequests(event)).toEqual([{ kind: "credential", interruptId: "c1", functionCallName: "adk_request_credential", author: "agent", message: undefined, authConfig: { authScheme: { type: "apiKey" } } }]);
    expect(toolsmith.requiresUserInput(toolsmith.createEvent({ author: "agent", content: { role: "model", parts: [{ text: "hi" }] } }))).toBe(false);
  });

  it("gives the model the question and its answer, where ADK 2.0 leaves both out of the request", async () => {
    const { adk, toolsmith: ours } = await runOnBoth([call("adk_request_input", { message: "Which city?" }), text("Paris it is.")], async (f: Framework, model: string) => {
      const runner = new f.InMemoryRunner({ agent: new f.LlmAgent({ name: "asker", model, tools: [f.requestInputTool] }), appName: "app" });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      const first = (await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Weather?" }] } }))) as Array<{ content: { parts: Array<{ functionCall?: { id: string } }> } }>;
      const id = first[0]!.content.parts[0]!.functionCall!.id;
      const second = await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ functionResponse: { id, name: "adk_request_input", response: { city: "Paris" } } }] } }));
      return { runner, events: [...first, ...second] };
    });
    // Both end the first run waiting and call the model again with the answer stored.
    expect(adk.requests).toHaveLength(2);
    expect(ours.requests).toHaveLength(2);
    expect(ours.events.at(-1)).toEqual(adk.events.at(-1));
    // ADK 2.0 treats adk_request_input as a framework call (meant for its graph workflows' nodes) and leaves the call
    // and the answer out of an LLM agent's request, so its model never reads the answer (docs/adk-compat.md).
    expect(adk.requests[1]!.contents).toEqual([{ role: "user", parts: [{ text: "Weather?" }] }]);
    expect(ours.requests[1]!.contents).toEqual([
      { role: "user", parts: [{ text: "Weather?" }] },
      { role: "model", parts: [{ functionCall: { name: "adk_request_input", args: { message: "Which city?" } } }] },
      { role: "user", parts: [{ functionResponse: { name: "adk_request_input", response: { city: "Paris" } } }] },
    ]);
  });
});
