import * as adk from "@google/adk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";

/** `isGemini2OrAbove`, side by side with `@google/adk` 2.0: the same answer for the same model name. */
describe("isGemini2OrAbove, side by side with @google/adk 2.0", () => {
  it("answers as ADK's for Gemini's model names, Vertex AI resource names and names that only look like them", () => {
    const names = [
      "gemini-2.5-flash",
      "gemini-2.0-flash-001",
      "gemini-3-pro-preview",
      "gemini-3.1-flash-lite",
      "gemini-10.0-ultra",
      "gemini-1.5-pro",
      "gemini-1.0-pro-002",
      "gemini-pro",
      "gemini-live-2.5-flash-preview",
      "gemini-2.",
      "gemini-2..5-flash",
      "gemini-02.5-flash",
      "gemini-",
      "gemini",
      "models/gemini-2.5-flash",
      "projects/p/locations/us-central1/publishers/google/models/gemini-2.0-flash-001",
      "projects/p/locations/us-central1/publishers/google/models/gemini-1.5-pro",
      "projects/p/locations/us-central1/endpoints/123",
      "gpt-4o",
      "anthropic/claude-sonnet-4",
      "",
    ];
    const answers = names.map((name) => [name, toolsmith.isGemini2OrAbove(name)]);
    expect(answers).toEqual(names.map((name) => [name, adk.isGemini2OrAbove(name)]));
    expect(answers.filter(([, answer]) => answer).map(([name]) => name)).toEqual([
      "gemini-2.5-flash",
      "gemini-2.0-flash-001",
      "gemini-3-pro-preview",
      "gemini-3.1-flash-lite",
      "gemini-10.0-ultra",
      "gemini-02.5-flash",
      "projects/p/locations/us-central1/publishers/google/models/gemini-2.0-flash-001",
    ]);
  });

  it("says no to a missing name, as ADK's does", () => {
    expect(toolsmith.isGemini2OrAbove(undefined)).toBe(adk.isGemini2OrAbove(undefined as unknown as string));
    expect(toolsmith.isGemini2OrAbove(undefined)).toBe(false);
  });

  it("agrees with ADK's on 2,000 random names built from Gemini's parts", () => {
    const part = fc.constantFrom("gemini-", "gemini", "1", "2", "3", "0", "10", ".", "-", "flash", "pro", "live", "projects/p/locations/l/publishers/google/models/", "x/");
    fc.assert(
      fc.property(fc.array(part, { maxLength: 7 }).map((parts) => parts.join("")), (name) => {
        expect(toolsmith.isGemini2OrAbove(name)).toBe(adk.isGemini2OrAbove(name));
      }),
      { numRuns: 2000 },
    );
  });
});
