import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { A2AProtocolError } from "../../src/a2a/index.js";
import { toA2AParts, toGenAIPart, toGenAIParts } from "../../src/a2a/parts.js";
import type { Part } from "../../src/content/content.js";
import { isToolsmithError } from "../../src/errors/toolsmith-error.js";

/**
 * Parts between genai's shape (events, what models see) and A2A's (text, file and data parts), as ADK converts
 * them: every kind of part survives the trip there and back, and a peer's part that is not A2A, or data that
 * claims to be a function call but is not one, is refused with `A2A_INVALID_MESSAGE`, whatever it holds.
 */

const json = fc.jsonValue({ maxDepth: 3 });
const record = fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 4 });
const id = fc.option(fc.string({ minLength: 1, maxLength: 12 }), { nil: undefined });
const genaiPart: fc.Arbitrary<Part> = fc.oneof(
  fc.record({ text: fc.string() }),
  fc.record({ text: fc.string(), thought: fc.constant(true) }),
  fc.record({ inlineData: fc.record({ data: fc.base64String(), mimeType: fc.constantFrom("image/png", "application/pdf") }) }),
  fc.record({ fileData: fc.record({ fileUri: fc.webUrl(), mimeType: fc.constantFrom("video/mp4", "text/plain") }) }),
  fc.record({ functionCall: fc.record({ name: fc.string({ minLength: 1 }), args: record, id }, { requiredKeys: ["name", "args"] }) }),
  fc.record({ functionResponse: fc.record({ name: fc.string({ minLength: 1 }), response: record, id }, { requiredKeys: ["name", "response"] }) }),
  fc.record({ executableCode: fc.record({ code: fc.string(), language: fc.constant("PYTHON") }) }),
  fc.record({ codeExecutionResult: fc.record({ outcome: fc.constant("OUTCOME_OK"), output: fc.string() }) }),
) as fc.Arbitrary<Part>;

/** A text part read back carries `thought: false` when it was no thought, as ADK's conversion writes it. */
const asReadBack = (part: Part): Part => (part.text !== undefined && !part.thought ? { ...part, thought: false } : part);

describe("A2A parts", () => {
  it("carry every kind of genai part there and back unchanged (2,000 random parts)", () => {
    fc.assert(
      fc.property(fc.array(genaiPart, { maxLength: 5 }), (parts) => {
        expect(toGenAIParts(toA2AParts(parts))).toEqual(parts.map(asReadBack));
      }),
      { numRuns: 2_000 },
    );
  });

  it("are written as ADK writes them: typed data parts, thoughts and long-running calls marked", () => {
    const parts = toA2AParts(
      [{ text: "thinking", thought: true }, { functionCall: { id: "c1", name: "approve", args: { amount: 5 } } }, { functionResponse: { id: "c1", name: "approve", response: { status: "pending" } } }, { fileData: { fileUri: "gs://b/v.mp4", mimeType: "video/mp4" }, videoMetadata: { startOffset: "1s" } }],
      ["c1"],
    );
    expect(parts).toEqual([
      { kind: "text", text: "thinking", metadata: { adk_thought: true } },
      { kind: "data", data: { id: "c1", name: "approve", args: { amount: 5 } }, metadata: { adk_type: "function_call", adk_is_long_running: true } },
      { kind: "data", data: { id: "c1", name: "approve", response: { status: "pending" } }, metadata: { adk_type: "function_response", adk_is_long_running: true } },
      { kind: "file", file: { uri: "gs://b/v.mp4", mimeType: "video/mp4" }, metadata: { adk_video_metadata: { startOffset: "1s" } } },
    ]);
  });

  it("read untyped data as its JSON text, as ADK does", () => {
    expect(toGenAIPart({ kind: "data", data: { city: "Paris", temperature: 21 } })).toEqual({ text: '{"city":"Paris","temperature":21}' });
  });

  it("refuse a peer's part that is not A2A with A2A_INVALID_MESSAGE, naming what is wrong", () => {
    const refusals: Array<[unknown, string]> = [
      [{ kind: "image", url: "x" }, 'Unknown A2A part kind "image": a part is "text", "file" or "data".'],
      [{ kind: "text", text: 42 }, "A text part's text must be a string, not 42."],
      [{ kind: "file", file: { name: "a.txt" } }, "A file part's file must have `bytes` (base64) or `uri` as a string."],
      [{ kind: "data", data: "hello" }, 'A data part\'s data must be an object, not "hello".'],
      [{ kind: "data", data: { args: {} }, metadata: { adk_type: "function_call" } }, "A function_call part's name must be a string, not undefined."],
      [{ kind: "data", data: { name: "x", args: [1, 2] }, metadata: { adk_type: "function_call" } }, "A function_call part's args must be an object, not [1,2]."],
      [{ kind: "data", data: { name: "x", id: 7, response: {} }, metadata: { adk_type: "function_response" } }, "A function_response part's id must be a string, not 7."],
      [null, "An A2A part must be an object, not null."],
    ];
    for (const [part, reason] of refusals) {
      let thrown: unknown;
      try {
        toGenAIPart(part as never);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(A2AProtocolError);
      expect((thrown as A2AProtocolError).code).toBe("A2A_INVALID_MESSAGE");
      expect((thrown as Error).message).toBe(`${reason} The A2A peer sent something toolsmith cannot read; check the peer's A2A version (0.3 is supported).`);
    }
    expect(() => toGenAIParts({ kind: "text" } as never)).toThrow("A message's parts must be a list");
  });

  it("never fail but with A2A_INVALID_MESSAGE, and give only well-formed calls, whatever a hostile peer sends (5,000 values)", () => {
    const hostilePart = fc.oneof(
      json,
      fc.record({ kind: fc.constantFrom("text", "file", "data", "other"), text: json, file: json, data: json, metadata: fc.oneof(json, fc.record({ adk_type: fc.constantFrom("function_call", "function_response", "executable_code", "nope"), adk_thought: json })) }, { requiredKeys: ["kind"] }),
      fc.record({ kind: fc.constant("data"), data: fc.record({ name: json, args: json, response: json, id: json }, { requiredKeys: [] }), metadata: fc.record({ adk_type: fc.constantFrom("function_call", "function_response") }) }),
    );
    const tally = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(hostilePart, (part) => {
        try {
          const read = toGenAIPart(part as never);
          tally.accepted++;
          for (const call of [read.functionCall, read.functionResponse]) {
            if (!call) continue;
            expect(typeof call.name).toBe("string");
            expect(call.id === undefined || typeof call.id === "string").toBe(true);
          }
          if (read.functionCall?.args !== undefined) expect(Object.prototype.toString.call(read.functionCall.args)).toBe("[object Object]");
        } catch (error) {
          tally.refused++;
          expect(isToolsmithError(error) && error.code === "A2A_INVALID_MESSAGE").toBe(true);
        }
      }),
      { numRuns: 5_000 },
    );
    console.log(`hostile A2A parts: ${tally.accepted} read, ${tally.refused} refused with A2A_INVALID_MESSAGE, 0 other failures`);
    expect(tally.accepted).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
  });
});
