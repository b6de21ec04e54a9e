import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";
import { drain, runOnBoth } from "./side-by-side.js";

/**
 * `generateClientFunctionCallId` and `populateClientFunctionCallId`, side by side with `@google/adk` 2.0: the same
 * id format, the same calls named, and the LLM loop naming a model's calls the same way.
 */
const UUID_V4 = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";
const CLIENT_ID = new RegExp(`^adk-${UUID_V4}$`);

/** A model's event with calls that have an id, have none, and have an empty one, beside parts that are not calls. */
// Written once for both frameworks, against ADK's names.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function modelEvent(f: any) {
  return f.createEvent({
    author: "agent",
    content: {
      role: "model",
      parts: [{ text: "Looking." }, { functionCall: { name: "a", args: {} } }, { functionCall: { id: "given", name: "b", args: {} } }, { functionCall: { id: "", name: "c", args: {} } }, { functionResponse: { name: "d", response: {} } }],
    },
  });
}

/** The event's function calls with each id made by the framework replaced by a mark. */
function callsWithIdsMarked(event: { content?: { parts?: Array<{ functionCall?: { id?: string; name?: string } }> } }) {
  return (event.content?.parts ?? []).flatMap((part) => (part.functionCall ? [{ name: part.functionCall.name, id: CLIENT_ID.test(part.functionCall.id ?? "") ? "<adk-uuid>" : part.functionCall.id }] : []));
}

describe("client function call ids, side by side with @google/adk 2.0", () => {
  it("generateClientFunctionCallId makes ADK's ids: adk- and a random UUID v4, a new one each time", () => {
    const made = { adk: Array.from({ length: 200 }, () => adk.generateClientFunctionCallId()), toolsmith: Array.from({ length: 200 }, () => toolsmith.generateClientFunctionCallId()) };
    for (const ids of [made.adk, made.toolsmith]) {
      expect(ids.filter((id) => !CLIENT_ID.test(id))).toEqual([]);
      expect(new Set(ids).size).toBe(ids.length);
    }
    expect(made.toolsmith[0]!.length).toBe(made.adk[0]!.length);
  });

  it("populateClientFunctionCallId names the calls without an id or with an empty one, in place, as ADK's does", () => {
    const adkEvent = modelEvent(adk);
    const ourEvent = modelEvent(toolsmith);
    expect(toolsmith.populateClientFunctionCallId(ourEvent)).toBe(adk.populateClientFunctionCallId(adkEvent));
    expect(callsWithIdsMarked(ourEvent)).toEqual(callsWithIdsMarked(adkEvent));
    expect(callsWithIdsMarked(ourEvent)).toEqual([
      { name: "a", id: "<adk-uuid>" },
      { name: "b", id: "given" },
      { name: "c", id: "<adk-uuid>" },
    ]);
    // A second pass finds every call named and changes nothing.
    const before = JSON.stringify(ourEvent.content);
    toolsmith.populateClientFunctionCallId(ourEvent);
    expect(JSON.stringify(ourEvent.content)).toBe(before);
  });

  it("leaves an event without content as it is, as ADK's does", () => {
    const adkEvent = adk.createEvent({ author: "agent" });
    const ourEvent = toolsmith.createEvent({ author: "agent" });
    adk.populateClientFunctionCallId(adkEvent);
    toolsmith.populateClientFunctionCallId(ourEvent);
    expect(ourEvent.content).toEqual(adkEvent.content);
    expect(ourEvent.content).toBeUndefined();
  });

  it("an LLM agent names the calls its model gave no id (or an empty one) as ADK's does, and keeps the ids it gave", async () => {
    const script = [
      { content: { role: "model", parts: [{ functionCall: { name: "look", args: {} } }, { functionCall: { id: "", name: "look", args: {} } }, { functionCall: { id: "model-1", name: "look", args: {} } }] } },
      { content: { role: "model", parts: [{ text: "Done." }] } },
    ];
    const { adk: onAdk, toolsmith: onToolsmith } = await runOnBoth(script, async (f, model) => {
      const look = new f.FunctionTool({ name: "look", description: "Looks.", execute: async () => ({ seen: true }) });
      const runner = new f.InMemoryRunner({ agent: new f.LlmAgent({ name: "looker", model, tools: [look] }), appName: "app" });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      const events = (await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "look" }] } }))) as Array<{ partial?: boolean; content?: { parts?: Array<{ functionCall?: { id?: string }; functionResponse?: { id?: string } }> } }>;
      const calls = events.find((event) => event.content?.parts?.some((part) => part.functionCall))!;
      const responses = events.find((event) => event.content?.parts?.some((part) => part.functionResponse))!;
      return {
        runner,
        events,
        output: {
          calls: callsWithIdsMarked(calls as never),
          // Each response answers its call by the id the call was given.
          answeredByCallId: responses.content!.parts!.map((part) => part.functionResponse!.id).sort().join() === calls.content!.parts!.map((part) => part.functionCall!.id).sort().join(),
        },
      };
    });
    expect(onToolsmith.output).toEqual(onAdk.output);
    expect(onToolsmith.output).toEqual({
      calls: [
        { name: "look", id: "<adk-uuid>" },
        { name: "look", id: "<adk-uuid>" },
        { name: "look", id: "model-1" },
      ],
      answeredByCallId: true,
    });
  });
});
