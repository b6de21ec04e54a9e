import * as adk from "@google/adk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";

/** ADK's agent-registry helpers `cleanName` and `isGoogleApi`, side by side with `@google/adk` 2.0. */
describe("cleanName, side by side with @google/adk 2.0", () => {
  it("makes the same identifier as ADK's from names with spaces, punctuation, leading digits and other scripts", () => {
    const names = ["Weather agent (v2)", "3d-printer", "__private__", "a--b..c", "ÉcoleBot", "名前", "___", "", "9", "_9lives", "ok_name", "tab\tand\nnewline", "emoji 🚀 bot"];
    const cleaned = names.map((name) => toolsmith.cleanName(name));
    expect(cleaned).toEqual(names.map((name) => adk.cleanName(name)));
    expect(cleaned.slice(0, 4)).toEqual(["Weather_agent_v2", "_3d_printer", "private", "a_b_c"]);
  });

  it("agrees with ADK's on 2,000 random names", () => {
    const character = fc.constantFrom("a", "Z", "_", "-", " ", ".", "0", "7", "é", "🚀", "$");
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(character, { maxLength: 10 }).map((characters) => characters.join(""))), (name) => {
        expect(toolsmith.cleanName(name)).toBe(adk.cleanName(name));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("isGoogleApi, side by side with @google/adk 2.0", () => {
  it("answers as ADK's for Google's API hosts, look-alikes and text that is not a URL", () => {
    const urls = [
      "https://aiplatform.googleapis.com/v1/projects/p",
      "https://googleapis.com/",
      "https://us-central1-aiplatform.googleapis.com:443/x",
      "http://GOOGLEAPIS.COM/",
      "https://googleapis.com.example.org/",
      "https://evilgoogleapis.com/",
      "https://example.org/?next=https://x.googleapis.com",
      "https://user:pw@storage.googleapis.com/b",
      "storage.googleapis.com",
      "not a url",
      "",
    ];
    const answers = urls.map((url) => [url, toolsmith.isGoogleApi(url)]);
    expect(answers).toEqual(urls.map((url) => [url, adk.isGoogleApi(url)]));
    expect(answers.filter(([, answer]) => answer).length).toBe(5);
  });

  it("agrees with ADK's on 1,000 random URLs", () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl(), fc.domain().map((domain) => `https://${domain}.googleapis.com/`), fc.string()), (url) => {
        expect(toolsmith.isGoogleApi(url)).toBe(adk.isGoogleApi(url));
      }),
      { numRuns: 1000 },
    );
  });
});
