import { describe, expect, it } from "vitest";
import { createEvent, findEventByFunctionCallId, findEventByLastFunctionResponseId, findMatchingFunctionCall } from "../../src/index.js";

/** The function-call lookups ADK's runner exports, on edge cases the side-by-side test leaves out. */
describe("the function-call lookups", () => {
  const call = createEvent({ author: "agent", content: { role: "model", parts: [{ functionCall: { id: "c1", name: "ask", args: {} } }] } });
  const answer = createEvent({ author: "user", content: { role: "user", parts: [{ functionResponse: { id: "c1", name: "ask", response: {} } }] } });

  it("read the whole list for an endIndex past its end, where ADK's throws a TypeError", () => {
    expect(findEventByFunctionCallId([call], "c1", 5)).toBe(call);
    expect(findEventByFunctionCallId([], "c1", 3)).toBeUndefined();
  });

  it("find the call the last event answers, and only the last event's", () => {
    expect(findMatchingFunctionCall([call, answer])).toBe(call);
    expect(findMatchingFunctionCall([call, answer, createEvent({ author: "agent", content: { role: "model", parts: [{ text: "done" }] } })])).toBeUndefined();
    expect(findEventByLastFunctionResponseId([answer])).toBeNull();
  });
});
