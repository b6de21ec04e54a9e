import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createMcpServer } from "../../src/mcp/index.js";
import { conformanceTools } from "./fixtures/conformance-tools.js";

const require = createRequire(import.meta.url);
const suite = join(dirname(require.resolve("@modelcontextprotocol/conformance/package.json")), "dist", "index.js");
const clientScript = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "conformance-client.ts");

/** Runs the MCP conformance suite (0.1.13) with a time limit and returns what it printed. */
function conformance(args: string[], timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve) => {
    execFile(process.execPath, [suite, ...args], { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (_error, stdout, stderr) => resolve(`${stdout}\n${stderr}`));
  });
}

/** Scenario names the summary marks as passed (`✓ name: …`). */
function passedScenarios(output: string): string[] {
  return [...output.matchAll(/✓ ([\w/.-]+):/g)].map((match) => match[1]!);
}

// What toolsmith's server implements: tools (with every content type), ping, Streamable HTTP streams and host checks.
// Resources, prompts, completion, logging, sampling and elicitation are not implemented.
const SERVER_SCENARIOS_EXPECTED_TO_PASS = [
  "server-initialize",
  "ping",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-error",
  "tools-call-with-progress",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
];

describe("the MCP conformance suite", () => {
  it("passes its server scenarios for tools against toolsmith's MCP server", async () => {
    const server = createMcpServer({ name: "toolsmith-conformance", tools: conformanceTools() });
    const listener = await server.listen();
    try {
      const active = await conformance(["server", "--url", listener.url]);
      const schema = await conformance(["server", "--url", listener.url, "--scenario", "json-schema-2020-12"]);
      // The suite's summary is not printed: its "N passed, N failed" lines would read as this run's totals in CI.
      expect(passedScenarios(active)).toEqual(expect.arrayContaining(SERVER_SCENARIOS_EXPECTED_TO_PASS));
      expect(schema).toMatch(/Passed: 4\/4, 0 failed/);
    } finally {
      await listener.close();
      await server.close();
    }
  }, 240_000);

  it.each(["initialize", "tools_call", "sse-retry", "elicitation-sep1034-client-defaults"])("passes the client scenario %s with MCPToolset", async (scenario) => {
    const output = await conformance(["client", "--command", `${process.execPath} --import tsx ${clientScript}`, "--scenario", scenario, "--timeout", "30000"], 90_000);
    expect(output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
  }, 120_000);
});
