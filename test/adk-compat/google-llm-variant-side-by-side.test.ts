import * as adk from "@google/adk";
import { afterEach, describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";
import { Gemini } from "../../src/models/gemini/index.js";

/**
 * `GoogleLLMVariant`, `Gemini.apiBackend` and `BaseTool.apiVariant`, side by side with `@google/adk` 2.0: the same
 * enum, and the same variant read from the same options and environment.
 */
const VARIABLES = ["GOOGLE_GENAI_USE_ENTERPRISE", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENAI_API_KEY"];
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

/** Sets exactly these variables (of those above), the others unset. */
function environment(values: Record<string, string>): void {
  for (const name of VARIABLES) delete process.env[name];
  Object.assign(process.env, values);
}

/** A tool of the framework's `BaseTool`, only to read its `apiVariant`. */
// Written once for both frameworks, against ADK's names.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function probeTool(f: any): { apiVariant: string } {
  class Probe extends f.BaseTool {
    constructor() {
      super({ name: "probe", description: "Reads the variant." });
    }
    async runAsync() {
      return {};
    }
  }
  return new Probe() as unknown as { apiVariant: string };
}

describe("GoogleLLMVariant, side by side with @google/adk 2.0", () => {
  it("has ADK's names and values", () => {
    expect({ ...toolsmith.GoogleLLMVariant }).toEqual({ ...adk.GoogleLLMVariant });
    expect(toolsmith.GoogleLLMVariant.VERTEX_AI).toBe("VERTEX_AI");
  });

  it("BaseTool.apiVariant reads the environment as ADK's does, the enterprise variable winning over the older one", () => {
    const cases: Record<string, string>[] = [
      {},
      { GOOGLE_GENAI_USE_ENTERPRISE: "true" },
      { GOOGLE_GENAI_USE_ENTERPRISE: "1" },
      { GOOGLE_GENAI_USE_ENTERPRISE: "TRUE" },
      { GOOGLE_GENAI_USE_ENTERPRISE: "yes" },
      { GOOGLE_GENAI_USE_ENTERPRISE: "false", GOOGLE_GENAI_USE_VERTEXAI: "true" },
      { GOOGLE_GENAI_USE_ENTERPRISE: "", GOOGLE_GENAI_USE_VERTEXAI: "1" },
      { GOOGLE_GENAI_USE_VERTEXAI: "true" },
      { GOOGLE_GENAI_USE_VERTEXAI: "0" },
    ];
    const adkTool = probeTool(adk);
    const ourTool = probeTool(toolsmith);
    const read = cases.map((values) => {
      environment(values);
      return { values, adk: adkTool.apiVariant, toolsmith: ourTool.apiVariant };
    });
    expect(read.map(({ values, toolsmith: variant }) => ({ values, variant }))).toEqual(read.map(({ values, adk: variant }) => ({ values, variant })));
    expect(read.filter((entry) => entry.toolsmith === "VERTEX_AI").length).toBe(4);
  });

  it("Gemini.apiBackend is Vertex AI or the Gemini API as ADK's model chose, from its options or the environment", () => {
    const cases: Array<{ environment: Record<string, string>; options: Record<string, unknown> }> = [
      { environment: {}, options: { apiKey: "key" } },
      { environment: { GOOGLE_API_KEY: "key" }, options: {} },
      { environment: {}, options: { vertexai: true, project: "p", location: "us-central1" } },
      { environment: { GOOGLE_GENAI_USE_ENTERPRISE: "true", GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "global" }, options: {} },
      { environment: { GOOGLE_GENAI_USE_VERTEXAI: "1", GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "global" }, options: {} },
      { environment: { GOOGLE_GENAI_USE_ENTERPRISE: "false", GOOGLE_API_KEY: "key" }, options: {} },
    ];
    const backends = cases.map(({ environment: values, options }) => {
      environment(values);
      return {
        adk: new adk.Gemini({ model: "gemini-2.5-flash", ...options }).apiBackend,
        toolsmith: new Gemini({ model: "gemini-2.5-flash", ...options }).apiBackend,
      };
    });
    expect(backends.map((entry) => entry.toolsmith)).toEqual(backends.map((entry) => entry.adk));
    expect(backends.map((entry) => entry.toolsmith)).toEqual(["GEMINI_API", "GEMINI_API", "VERTEX_AI", "VERTEX_AI", "VERTEX_AI", "GEMINI_API"]);
  });
});
