import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FunctionTool } from "../../src/index.js";
import { createMcpServer, elicitFromClient, type McpHttpListener } from "../../src/mcp/index.js";
import { cli } from "./cli-harness.js";

const answers: unknown[] = [];
const served = createMcpServer({
  tools: [
    new FunctionTool({
      name: "book_table",
      description: "Books a table after asking how many people.",
      execute: async (_args, context) => {
        const answer = await elicitFromClient(context, {
          message: "For how many people?",
          requestedSchema: {
            type: "object",
            properties: { people: { type: "integer", minimum: 1 }, area: { type: "string", enum: ["inside", "terrace"], default: "inside" } },
            required: ["people"],
          },
        });
        answers.push(answer);
        return answer.action === "accept" ? `Booked for ${String(answer.content?.people)} (${String(answer.content?.area)}).` : `Not booked (${answer.action}).`;
      },
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
    expect(stdout).toContain("Booked for 4 (inside).");
    expect(stdout).toMatch(/\? The MCP server asks: For how many people\? \(the answer does not fit the form: .*people/);
    expect(stdout).toContain("Booked for 2 (terrace).");
    expect(stdout).toContain("Not booked (decline).");
    expect(stdout).toContain("Not booked (cancel).");
    expect(answers).toEqual([
      { action: "accept", content: { people: 4, area: "inside" } },
      { action: "accept", content: { people: 2, area: "terrace" } },
      { action: "decline" },
      { action: "cancel" },
    ]);
  });
});
