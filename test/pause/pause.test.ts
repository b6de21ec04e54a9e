/** The pause module on its own: the call index, the client's answers, who owns a call, and repairs. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Content, FunctionCall } from "../../src/content/content.js";
import { createEvent, type Event, type EventInit } from "../../src/events/event.js";
import { CallIndex, unansweredCalls } from "../../src/pause/call-index.js";
import { ClientResponseError, clientRequestEvent, originalCallFrom, ownerOfCall, readClientAnswers, REQUEST_CONFIRMATION, REQUEST_CREDENTIAL } from "../../src/pause/client-requests.js";
import { pausedResponse, pauseReasonOf } from "../../src/pause/paused-call.js";
import { repairInterruptedCalls } from "../../src/pause/repair-interrupted-calls.js";
import { createEventActions } from "../../src/events/event-actions.js";

const event = (init: Omit<EventInit, "invocationId"> & { invocationId?: string }): Event => createEvent({ invocationId: "inv-1", ...init });
const calls = (author: string, list: FunctionCall[], extra: Partial<EventInit> = {}) => event({ author, content: { role: "model", parts: list.map((functionCall) => ({ functionCall })) }, ...extra });
const responses = (author: string, list: Array<{ id: string; name: string; response: Record<string, unknown> }>, extra: Partial<EventInit> = {}) =>
  event({ author, content: { role: "user", parts: list.map((functionResponse) => ({ functionResponse })) }, ...extra });
const answer = (id: string, name: string, response: Record<string, unknown>): Content => ({ role: "user", parts: [{ functionResponse: { id, name, response } }] });

/** A history where `refund` paused for a confirmation, and the request event that asks for it. */
function pausedForConfirmation() {
  const call = { id: "call-1", name: "refund", args: { amount: 30 } };
  const actions = createEventActions();
  actions.requestedToolConfirmations["call-1"] = { hint: "Refund 30?", confirmed: false };
  const request = clientRequestEvent({ invocationId: "inv-1" }, "shop", [call], actions)!;
  const requestId = request.content!.parts![0]!.functionCall!.id!;
  const history = [calls("shop", [call]), responses("shop", [{ id: "call-1", name: "refund", response: pausedResponse("confirmation") }], { actions: { requestedToolConfirmations: actions.requestedToolConfirmations } }), request];
  return { history, requestId, request };
}

describe("CallIndex", () => {
  it("finds each call with its event and its latest response, and lists the calls still unanswered in order", () => {
    const first = calls("a", [{ id: "c1", name: "x" }, { id: "c2", name: "y" }]);
    const later = calls("a", [{ id: "c3", name: "z" }]);
    const index = new CallIndex([first, responses("a", [{ id: "c1", name: "x", response: pausedResponse("client") }]), later]);
    index.add(responses("a", [{ id: "c1", name: "x", response: { ok: true } }]));
    expect(index.call("c2")?.event).toBe(first);
    expect(index.response("c1")?.response).toEqual({ ok: true });
    expect([...index.unanswered()].map(({ call }) => call.id)).toEqual(["c2", "c3"]);
    expect(index.call("missing")).toBeUndefined();
  });

  it("unansweredCalls lists exactly what the index lists, over hostile histories: ids called again, answered before they were called, several parts an event, no ids", () => {
    // Few ids, so that repeats, early answers and answered-then-called-again ids are common.
    const id = fc.constantFrom("a", "b", "c", "d", undefined);
    const part = fc.oneof(
      id.map((callId) => ({ functionCall: { id: callId, name: "tool", args: {} } })),
      id.map((callId) => ({ functionResponse: { id: callId, name: "tool", response: {} } })),
      fc.constant({ text: "words" }),
    );
    const history = fc.array(
      fc.array(part, { maxLength: 4 }).map((parts) => event({ author: "agent", content: parts.length ? { role: "model", parts } : undefined })),
      { maxLength: 12 },
    );
    let withLeftovers = 0;
    fc.assert(
      fc.property(history, (events) => {
        const expected = [...new CallIndex(events).unanswered()];
        const found = unansweredCalls(events);
        if (expected.length > 0) withLeftovers++;
        expect(found.map(({ call, event: from }) => [call, from])).toEqual(expected.map(({ call, event: from }) => [call, from]));
      }),
      { numRuns: 2_000 },
    );
    console.log(`unansweredCalls against CallIndex: 2,000 histories, ${withLeftovers} with unanswered calls, all equal`);
    expect(withLeftovers).toBeGreaterThan(100);
  });

  it("unansweredCalls lists exactly what the index lists when more calls are in flight than its short list follows: wide parallel batches, answered in any order, some not", () => {
    // A batch of up to 60 parallel calls, then their responses in a shuffled order, some left out or repeated.
    const batch = fc.integer({ min: 1, max: 60 }).chain((width) =>
      fc.tuple(fc.constant(width), fc.shuffledSubarray(Array.from({ length: width }, (_, index) => index), { minLength: Math.max(0, width - 2) }), fc.boolean()),
    );
    const history = fc.array(batch, { minLength: 1, maxLength: 4 }).map((batches) =>
      batches.flatMap(([width, answered, repeatFirst], batchIndex) => {
        const id = (index: number) => `b${batchIndex}-${index}`;
        const calls = event({ author: "agent", content: { role: "model", parts: Array.from({ length: width }, (_, index) => ({ functionCall: { id: id(index), name: "tool", args: {} } })) } });
        const order = repeatFirst && answered.length > 0 ? [...answered, answered[0]!] : answered;
        const responses = event({ author: "agent", content: { role: "user", parts: order.map((index) => ({ functionResponse: { id: id(index), name: "tool", response: {} } })) } });
        return order.length > 0 ? [calls, responses] : [calls];
      }),
    );
    let past = 0;
    let withLeftovers = 0;
    fc.assert(
      fc.property(history, (events) => {
        const expected = [...new CallIndex(events).unanswered()];
        if (events.some((each) => (each.content?.parts?.length ?? 0) > 32 && each.content?.role === "model")) past++;
        if (expected.length > 0) withLeftovers++;
        expect(unansweredCalls(events).map(({ call, event: from }) => [call, from])).toEqual(expected.map(({ call, event: from }) => [call, from]));
      }),
      { numRuns: 1_000 },
    );
    console.log(`unansweredCalls against CallIndex: 1,000 histories of wide batches, ${past} with more than 32 calls in flight, ${withLeftovers} with unanswered calls, all equal`);
    expect(past).toBeGreaterThan(100);
    expect(withLeftovers).toBeGreaterThan(100);
  });

  it("keeps the credential request a tool stored, with the secrets the client never sees", () => {
    const authConfig = { authScheme: { type: "oauth2" as const }, exchangedAuthCredential: { authType: "oauth2" as const, oauth2: { codeVerifier: "secret-verifier" } } };
    const index = new CallIndex([responses("a", [{ id: "c1", name: "x", response: pausedResponse("credential") }], { actions: { requestedAuthConfigs: { c1: authConfig } } })]);
    expect(index.authRequest("c1")?.exchangedAuthCredential?.oauth2?.codeVerifier).toBe("secret-verifier");
  });
});

describe("clientRequestEvent", () => {
  it("asks for a confirmation and a credential in one event whose calls are long-running, without the PKCE verifier or client secret", () => {
    const actions = createEventActions();
    actions.requestedToolConfirmations["c1"] = { hint: "ok?", confirmed: false };
    actions.requestedAuthConfigs["c2"] = {
      authScheme: { type: "oauth2" },
      rawAuthCredential: { authType: "oauth2", oauth2: { clientId: "id", clientSecret: "s3cret" } },
      exchangedAuthCredential: { authType: "oauth2", oauth2: { authUri: "https://idp/authorize", codeVerifier: "v3rifier" } },
    };
    const request = clientRequestEvent({ invocationId: "inv-9", branch: "root.child" }, "agent", [{ id: "c1", name: "pay", args: { amount: 1 } }, { id: "c2", name: "mail" }], actions)!;
    const parts = request.content!.parts!.map((part) => part.functionCall!);
    expect(parts.map((call) => call.name)).toEqual([REQUEST_CONFIRMATION, REQUEST_CREDENTIAL]);
    expect(request.longRunningToolIds).toEqual(parts.map((call) => call.id));
    expect(parts[0]!.args).toEqual({ originalFunctionCall: { id: "c1", name: "pay", args: { amount: 1 } }, toolConfirmation: { hint: "ok?", confirmed: false } });
    expect(JSON.stringify(parts[1]!.args)).not.toMatch(/s3cret|v3rifier/);
    expect(parts[1]!.args).toMatchObject({ functionCallId: "c2", authConfig: { exchangedAuthCredential: { oauth2: { authUri: "https://idp/authorize" } } } });
    expect([request.branch, request.invocationId, request.author]).toEqual(["root.child", "inv-9", "agent"]);
    // As in ADK, it carries the confirmations it asks for (not the credential configs, which hold secrets).
    expect(request.actions.requestedToolConfirmations).toEqual({ c1: { hint: "ok?", confirmed: false } });
    expect(request.actions.requestedAuthConfigs).toEqual({});
  });

  it("makes no event when no call asked for anything", () => {
    expect(clientRequestEvent({ invocationId: "i" }, "a", [{ id: "c1", name: "x" }], createEventActions())).toBeUndefined();
  });
});

describe("readClientAnswers", () => {
  it("reads an approval, keeping the hint and the requested payload, under the paused call's id", () => {
    const { history, requestId } = pausedForConfirmation();
    const answers = readClientAnswers(new CallIndex(history), answer(requestId, REQUEST_CONFIRMATION, { confirmed: true }));
    expect([...answers]).toEqual([["call-1", { confirmation: { hint: "Refund 30?", confirmed: true, payload: undefined } }]]);
  });

  it("unwraps an answer sent as a JSON string under response, as some clients send it", () => {
    const { history, requestId } = pausedForConfirmation();
    const answers = readClientAnswers(new CallIndex(history), answer(requestId, REQUEST_CONFIRMATION, { response: JSON.stringify({ confirmed: false, payload: { note: "no" } }) }));
    expect(answers.get("call-1")?.confirmation).toEqual({ hint: "Refund 30?", confirmed: false, payload: { note: "no" } });
  });

  it("refuses with INVALID_CONFIRMATION an answer whose confirmed is not a boolean, saying what to send", () => {
    const { history, requestId } = pausedForConfirmation();
    const read = () => readClientAnswers(new CallIndex(history), answer(requestId, REQUEST_CONFIRMATION, { confirmed: "yes" }));
    expect(read).toThrow(ClientResponseError);
    expect(read).toThrow(expect.objectContaining({ code: "INVALID_CONFIRMATION", message: `The answer to "${requestId}" must be {"confirmed": true} or {"confirmed": false}, optionally with "payload".` }));
  });

  it("refuses a confirmation that claims other arguments than the call it approves", () => {
    const { history, requestId } = pausedForConfirmation();
    const forged = answer(requestId, REQUEST_CONFIRMATION, { confirmed: true, originalFunctionCall: { id: "call-1", name: "refund", args: { amount: 3000 } } });
    expect(() => readClientAnswers(new CallIndex(history), forged)).toThrow(expect.objectContaining({ code: "CONFIRMATION_MISMATCH" }));
  });

  it("refuses an answer to a request that was already answered, and to an unknown call", () => {
    const { history, requestId } = pausedForConfirmation();
    const answered = [...history, responses("user", [{ id: requestId, name: REQUEST_CONFIRMATION, response: { confirmed: true } }]), responses("shop", [{ id: "call-1", name: "refund", response: { ok: true } }])];
    expect(() => readClientAnswers(new CallIndex(answered), answer(requestId, REQUEST_CONFIRMATION, { confirmed: true }))).toThrow(expect.objectContaining({ code: "REQUEST_ALREADY_ANSWERED" }));
    expect(() => readClientAnswers(new CallIndex(history), answer("nope", REQUEST_CONFIRMATION, { confirmed: true }))).toThrow(expect.objectContaining({ code: "UNKNOWN_FUNCTION_CALL" }));
  });

  it("passes a credential answer on with the stored request beside it", () => {
    const stored = { authScheme: { type: "apiKey" as const }, credentialKey: "k" };
    const history = [
      calls("a", [{ id: "c1", name: "mail" }]),
      responses("a", [{ id: "c1", name: "mail", response: pausedResponse("credential") }], { actions: { requestedAuthConfigs: { c1: stored } } }),
      calls("a", [{ id: "req-1", name: REQUEST_CREDENTIAL, args: { functionCallId: "c1", authConfig: stored } }], { longRunningToolIds: ["req-1"] }),
    ];
    const sent = { authScheme: { type: "apiKey" as const }, rawAuthCredential: { authType: "apiKey" as const, apiKey: "k-123" } };
    expect(readClientAnswers(new CallIndex(history), answer("req-1", REQUEST_CREDENTIAL, sent)).get("c1")).toEqual({ credential: { answer: sent, requested: stored } });
  });

  it("accepts a result for a long-running call that is still pending, and refuses one for a call that was not long-running", () => {
    const history = [calls("a", [{ id: "lr", name: "approve" }, { id: "plain", name: "add" }], { longRunningToolIds: ["lr"] }), responses("a", [{ id: "lr", name: "approve", response: { status: "pending" } }, { id: "plain", name: "add", response: { sum: 2 } }])];
    expect(readClientAnswers(new CallIndex(history), answer("lr", "approve", { status: "approved" })).size).toBe(0);
    expect(() => readClientAnswers(new CallIndex(history), answer("plain", "add", { sum: 3 }))).toThrow(expect.objectContaining({ code: "UNKNOWN_FUNCTION_CALL" }));
  });
});

describe("ownerOfCall", () => {
  it("follows a call inside an agent tool's branch out to the agent that called the agent tool", () => {
    const outer = calls("planner", [{ id: "call:42", name: "researcher" }]);
    const inner = calls("researcher", [{ id: "inner-1", name: "search" }], { branch: "planner.researcher@call_42" });
    const index = new CallIndex([outer, inner]);
    expect(ownerOfCall(index, "inner-1")).toBe("planner");
    expect(ownerOfCall(index, "call:42")).toBe("planner");
    expect(ownerOfCall(index, "unknown")).toBeUndefined();
  });
});

describe("repairInterruptedCalls", () => {
  it("answers every call a killed run left open with an error, one event per agent and branch, leaving answered and client calls alone", () => {
    const history = [
      calls("a", [{ id: "done", name: "x" }, { id: "open-1", name: "y" }]),
      responses("a", [{ id: "done", name: "x", response: {} }]),
      calls("b", [{ id: "open-2", name: "z" }], { branch: "root.b" }),
      calls("a", [{ id: "ask", name: REQUEST_CONFIRMATION }]),
    ];
    const repairs = repairInterruptedCalls(new CallIndex(history).unanswered(), "inv-2");
    expect(repairs.map((repair) => [repair.author, repair.branch, repair.invocationId, repair.content!.parts!.map((part) => part.functionResponse!.id)])).toEqual([
      ["a", undefined, "inv-2", ["open-1"]],
      ["b", "root.b", "inv-2", ["open-2"]],
    ]);
    expect(repairs[0]!.content!.parts![0]!.functionResponse!.response).toEqual({
      status: "error",
      error: 'The call to "y" was interrupted before it finished (the previous run stopped), so its result is unknown. Call it again if it is still needed.',
    });
    expect(repairInterruptedCalls(new CallIndex(history.slice(0, 2).concat(responses("a", [{ id: "open-1", name: "y", response: {} }]))).unanswered(), "i")).toEqual([]);
  });
});

describe("paused responses", () => {
  it("say what the call waits for, and are told apart from any other response", () => {
    expect(pauseReasonOf(pausedResponse("credential"))).toBe("credential");
    expect(pausedResponse("confirmation")).toEqual({ status: "paused", waitingFor: "confirmation", message: "This call is waiting for the user's confirmation and has not run. It will run if the user approves." });
    expect([pauseReasonOf({ status: "pending" }), pauseReasonOf(undefined)]).toEqual([undefined, undefined]);
  });
});

describe("originalCallFrom", () => {
  it("returns the call a confirmation request asks about, from object or JSON-text arguments (seed 001's OriginalCallFrom)", () => {
    const { request } = pausedForConfirmation();
    const wrapper = request.content!.parts![0]!.functionCall!;
    expect(originalCallFrom(wrapper)).toEqual({ id: "call-1", name: "refund", args: { amount: 30 } });
    expect(originalCallFrom({ ...wrapper, args: JSON.stringify(wrapper.args) as never })).toEqual({ id: "call-1", name: "refund", args: { amount: 30 } });
  });

  it("says what is wrong with anything that is no confirmation request", () => {
    expect(() => originalCallFrom({ name: "refund", args: {} })).toThrow(/"refund" is not a confirmation request \(adk_request_confirmation\)/);
    expect(() => originalCallFrom({ name: REQUEST_CONFIRMATION, args: "{oops" as never })).toThrow(/text that is not JSON/);
    expect(() => originalCallFrom({ name: REQUEST_CONFIRMATION, args: { toolConfirmation: {} } })).toThrow(/has no originalFunctionCall with a name/);
  });
});
