import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { jsonSchemaOfGenaiSchema } from "../../src/tools/base-tool.js";
import { recordToolDeclarations, type ToolDeclarationsRecord } from "./adk-tool-declarations.js";

// Recorded from @google/adk 2.0 by scripts/record-adk-tool-declarations.ts.
const adk: ToolDeclarationsRecord = JSON.parse(readFileSync(new URL("../fixtures/adk/tool-declarations.json", import.meta.url), "utf8"));
const BUILT_IN = ["LOAD_MEMORY", "PRELOAD_MEMORY", "EXIT_LOOP", "LOAD_ARTIFACTS"];

/** A declaration with its parameters in JSON Schema, whichever dialect it was written in. */
function inJsonSchema(declaration: unknown): unknown {
  const { parameters, ...rest } = declaration as { parameters?: Record<string, unknown> };
  if (!parameters) return rest;
  const { $schema: _dialect, ...schema } = jsonSchemaOfGenaiSchema(parameters);
  return { ...rest, parameters: schema };
}

describe("what the model is told about tools, compared with @google/adk 2.0", () => {
  let toolsmith: ToolDeclarationsRecord;
  beforeAll(async () => {
    toolsmith = await recordToolDeclarations("toolsmith");
  });

  it("records every tool the program declares, on both", () => {
    expect(Object.keys(toolsmith.declarations).sort()).toEqual(Object.keys(adk.declarations).sort());
  });

  it("declares LOAD_MEMORY, PRELOAD_MEMORY, EXIT_LOOP and LOAD_ARTIFACTS word for word as ADK", () => {
    for (const label of BUILT_IN) expect(toolsmith.declarations[label], label).toEqual(adk.declarations[label]);
  });

  it("declares function tools with ADK's names, descriptions (long-running note included) and parameters, in JSON Schema", () => {
    for (const label of Object.keys(adk.declarations).filter((candidate) => !BUILT_IN.includes(candidate))) {
      expect(inJsonSchema(toolsmith.declarations[label]), label).toEqual(inJsonSchema(adk.declarations[label]));
    }
  });

  it("changes each request as ADK's built-in tools do: memories and artifacts in the instruction, loaded artifacts after the call", () => {
    expect(toolsmith.requests).toEqual(adk.requests);
    expect(toolsmith.requests[2]!.contents.at(-1)).toEqual({ role: "user", parts: [{ text: "Artifact report.txt is:" }, { text: "Quarterly: 42" }] });
  });
});
