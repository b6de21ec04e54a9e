import { describe, expect, it } from "vitest";
import { createEvent } from "../../src/events/event.js";
import { questionIdsOf } from "../../src/pause/user-input-requests.js";
import { requestInputEvents, RequestInput } from "../../src/workflow/request-input.js";

/** Which waiting ids of an event are questions to the person, as a paused workflow waits on them. */
describe("questionIdsOf", () => {
  it("gives a question's interrupt id, and nothing for its paused placeholder", () => {
    const [question, placeholder] = requestInputEvents(new RequestInput({ interruptId: "sure", message: "Sure?" }), "ask", "e-1", undefined);
    expect(questionIdsOf(question!)).toEqual(["sure"]);
    expect(questionIdsOf(placeholder!)).toEqual([]);
  });

  it("gives nothing for a model's call to a long-running tool, which waits for a result, not for the person", () => {
    const call = createEvent({ author: "clerk", invocationId: "e-1", content: { role: "model", parts: [{ functionCall: { id: "c1", name: "open_ticket", args: {} } }] }, longRunningToolIds: ["c1"] });
    expect(questionIdsOf(call)).toEqual([]);
  });

  it("gives a confirmation request's id", () => {
    const confirmation = createEvent({
      author: "clerk",
      invocationId: "e-1",
      content: { role: "user", parts: [{ functionCall: { id: "adk-1", name: "adk_request_confirmation", args: { originalFunctionCall: { id: "c2", name: "pay", args: {} }, toolConfirmation: { hint: "Pay?" } } } }] },
      longRunningToolIds: ["adk-1"],
    });
    expect(questionIdsOf(confirmation)).toEqual(["adk-1"]);
  });
});
