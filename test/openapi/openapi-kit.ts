/** What the OpenAPI test files share: a recording server closed after each test, the tools of a toolset by name, and a plain 200 answer. */
import { onTestFinished } from "vitest";
import type { OpenAPIToolset } from "../../src/openapi/index.js";
import type { Tool } from "../../src/tools/tool.js";
import { createReadonlyContext } from "../support/tool-context.js";
import { startRecordingServer } from "./recording-server.js";

/** A recording server (see {@link startRecordingServer}) that closes when the current test finishes. */
export async function recording(answer?: Parameters<typeof startRecordingServer>[0]) {
  const server = await startRecordingServer(answer);
  onTestFinished(server.close);
  return server;
}

/** The toolset's tools, by name. */
export async function toolsOf(toolset: OpenAPIToolset): Promise<Record<string, Tool>> {
  return Object.fromEntries((await toolset.getTools(await createReadonlyContext())).map((tool) => [tool.name, tool]));
}

/** An operation's `responses` with one JSON 200 answer. */
export const OK_RESPONSES = { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } };
