import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { call, drain, runOnBoth, text, type Framework } from "./side-by-side.js";

/**
 * ADK's `getUserChoiceTool` on `@google/adk` 2.0 and on toolsmith: the model offers options, the run ends waiting
 * for the person's choice, and the choice, sent as the call's function response in the next run, reaches the
 * model right after its call. toolsmith also stores a paused placeholder for the call meanwhile (docs/adk-compat.md,
 * long-running tools), which the choice replaces in the model's request.
 */
describe("getUserChoiceTool, side by side with @google/adk 2.0", () => {
  async function chooseTea(f: Framework, model: string) {
    const runner = new f.InMemoryRunner({ agent: new f.LlmAgent({ name: "barista", model, tools: [f.getUserChoiceTool] }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const first = (await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Something to drink?" }] } }))) as Array<{ content?: { parts?: Array<{ functionCall?: { id: string } }> }; longRunningToolIds?: string[] }>;
    const callId = first[0]!.content!.parts![0]!.functionCall!.id;
    const choice = { role: "user", parts: [{ functionResponse: { id: callId, name: "get_user_choice", response: { choice: "tea" } } }] };
    const second = await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: choice }));
    return { runner, events: [...first, ...second], output: { firstRun: first.length, waitingOn: first[0]!.longRunningToolIds?.includes(callId) } };
  }

  it("ends the run waiting for the choice, and gives the model the choice right after its call", async () => {
    const { adk, toolsmith: ours } = await runOnBoth([call("get_user_choice", { options: ["tea", "coffee"] }), text("Tea it is.")], chooseTea);
    // The model is asked once a run on both: first for the options, then with the choice.
    expect(ours.requests).toHaveLength(2);
    expect(adk.requests).toHaveLength(2);
    expect(ours.requests[0]!.tools).toEqual(adk.requests[0]!.tools);
    expect(ours.requests[1]!.contents).toEqual(adk.requests[1]!.contents);
    expect(ours.requests[1]!.contents).toEqual([
      { role: "user", parts: [{ text: "Something to drink?" }] },
      { role: "model", parts: [{ functionCall: { name: "get_user_choice", args: { options: ["tea", "coffee"] } } }] },
      { role: "user", parts: [{ functionResponse: { name: "get_user_choice", response: { choice: "tea" } } }] },
    ]);
    expect(adk.output).toEqual({ firstRun: 1, waitingOn: true });
    // toolsmith's first run also stores the placeholder that keeps the call answered while it waits.
    expect(ours.output).toEqual({ firstRun: 2, waitingOn: true });
    expect(ours.events[1]).toMatchObject({ content: { parts: [{ functionResponse: { name: "get_user_choice", response: { status: "paused", waitingFor: "client" } } }] } });
    expect(ours.events.at(-1)).toEqual(adk.events.at(-1));
  });

  it("declares ADK's name, description and parameter, with ADK's long-running note", () => {
    const declaration = toolsmith.getUserChoiceTool.declaration();
    expect(declaration.name).toBe("get_user_choice");
    expect(declaration.description).toBe("Presents a list of options to the user and awaits their selection.\n\nNOTE: This is a long-running operation. Do not call this tool again if it has already returned some intermediate or pending status.");
    expect(declaration.parameters).toMatchObject({ type: "object", properties: { options: { type: "array", items: { type: "string" }, description: "List of options to present to the user." } }, required: ["options"] });
    expect(toolsmith.getUserChoiceTool.isLongRunning).toBe(true);
  });

  it("refuses options that are not a list of strings before it runs, and the model can correct itself", async () => {
    const model = new ScriptedModel([call("get_user_choice", { options: "tea or coffee" }), call("get_user_choice", { options: ["tea", "coffee"] })]);
    const runner = new toolsmith.InMemoryRunner({ agent: new toolsmith.LlmAgent({ name: "barista", model, tools: [toolsmith.getUserChoiceTool] }) });
    const session = await runner.sessionService.createSession({ appName: "InMemoryRunner", userId: "u" });
    const events = (await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Drink?" }] } }))) as toolsmith.Event[];
    const responses = events.flatMap((event) => toolsmith.getFunctionResponses(event.content));
    expect(responses[0]!.response).toMatchObject({ status: "error", invalidArguments: [{ field: "options" }] });
    expect(responses[1]!.response).toMatchObject({ status: "paused", waitingFor: "client" });
    expect(events.at(-1)!.actions.skipSummarization).toBe(true);
  });
});
