import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { createMcpServer, type McpHttpListener } from "../../src/mcp/index.js";
import { bookTableTool } from "../mcp/fixtures/book-table-tool.js";
import { cli } from "./cli-harness.js";

const booked = { runs: 0, answers: [] as ElicitResult[] };
const served = createMcpServer({
  tools: [
    bookTableTool(booked, {
      type: "object",
      properties: { people: { type: "integer", minimum: 1 }, area: { type: "string", enum: ["inside", "terrace"], default: "inside" } },
      required: ["people"],
    }),
  ],
});
let listener: McpHttpListener;

beforeAll(async () => {
  listener = await served.listen();
  process.env.TOOLSMITH_TEST_MCP_URL = listener.url;
});
afterAll(async () => {
  delete process.env.TOOLSMITH_TEST_MCP_URL;
  await listener.close();
  await served.close();
});

describe("toolsmith run asks an MCP server's question at the prompt", () => {
  // One run of the CLI for every case: the app's module (and its toolset) is loaded once per process.
  it("asks each field of the form (Enter keeps the default), re-asks an answer that does not fit, and sends n as decline and c as dismiss", async () => {
    const typed = ["book a table", "y", "4", "", "book", "y", "four", "", "y", "2", "terrace", "book", "n", "book", "c", "/exit"];
    const { code, stdout } = await cli(["run", "test/fixtures/agents/mcp-booking.ts"], typed);
    console.log(stdout);
    expect(code).toBe(0);
    expect(stdout).toContain("  ? The MCP server asks: For how many people?\nanswer? [y = answer / n = decline / c = dismiss] y\n    people *: 4\n    area (inside / terrace) [inside]: \n");
    expect(stdout).toContain('Booked: {\\"people\\":4,\\"area\\":\\"inside\\"}');
    expect(stdout).toMatch(/\? The MCP server asks: For how many people\? \(the answer does not fit the form: .*people/);
    expect(stdout).toContain('Booked: {\\"people\\":2,\\"area\\":\\"terrace\\"}');
    expect(stdout).toContain("Not booked (decline).");
    expect(stdout).toContain("Not booked (cancel).");
    expect(booked.answers).toEqual([
      { action: "accept", content: { people: 4, area: "inside" } },
      { action: "accept", content: { people: 2, area: "terrace" } },
      { action: "decline" },
      { action: "cancel" },
    ]);
  });
});
