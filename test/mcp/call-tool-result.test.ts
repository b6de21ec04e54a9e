import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callToolResultToResponse, toolValueToCallResult } from "../../src/mcp/index.js";

describe("callToolResultToResponse: everything a server returned reaches the model, once", () => {
  it("leaves out the text copy of structuredContent however it is spaced, and keeps other text", () => {
    const structuredContent = { total: 3, items: ["a", "b"] };
    const response = callToolResultToResponse("t", {
      content: [
        { type: "text", text: JSON.stringify(structuredContent, null, 2) },
        { type: "text", text: "Three items found." },
      ],
      structuredContent,
    });
    expect(response).toEqual({ text: "Three items found.", structuredContent });
  });

  it("keeps a text block that merely looks like JSON but differs from structuredContent", () => {
    const response = callToolResultToResponse("t", { content: [{ type: "text", text: '{"total":4}' }], structuredContent: { total: 3 } });
    expect(response).toEqual({ text: '{"total":4}', structuredContent: { total: 3 } });
  });

  it("round-trips any served value: what toolsmith's server sends, toolsmith's client reads back whole (fuzzed)", () => {
    let runs = 0;
    const data = fc.dictionary(fc.string({ minLength: 1 }).filter((key) => !["media", "resources", "text"].includes(key)), fc.jsonValue(), { minKeys: 1 });
    fc.assert(
      fc.property(data, fc.boolean(), (value, withSchema) => {
        runs++;
        const served = toolValueToCallResult(value, withSchema ? { type: "object" } : undefined);
        const read = callToolResultToResponse("t", served);
        const roundTripped = withSchema ? read.structuredContent : JSON.parse(String(read.text));
        // Compared as they travel: JSON (where -0 is 0).
        expect(JSON.parse(JSON.stringify(roundTripped))).toEqual(JSON.parse(JSON.stringify(value)));
        expect(withSchema ? read.text : read.structuredContent).toBeUndefined();
      }),
      { numRuns: 300 },
    );
    console.log(`served value round trip: ${runs} random values checked`);
  });
});
