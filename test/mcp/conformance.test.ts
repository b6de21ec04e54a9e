import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createMcpServer } from "../../src/mcp/index.js";
import { figuresLine, passed, runConformance, scenarioOutcomes, singleScenarioOutcome } from "./conformance-suite.js";
import { conformancePrompts, conformanceResources, conformanceResourceTemplates, conformanceTools } from "./fixtures/conformance-tools.js";

const clientScript = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "conformance-client.ts");

// The scenarios toolsmith passes today; a scenario leaving this list is a regression. The README's
// "Conformance" section explains each scenario missing from it.
// Every server scenario but server-sse-polling, which ends with no check passed and two warnings: its raw POST
// declares protocol 2025-03-26, and the SDK's transport sends the priming event (an SSE id to resume from) only
// to 2025-11-25 clients, as older ones cannot parse its empty data. test/mcp/resumable-streams.test.ts shows
// the resumption with a current client.
const SERVER_PASSES = [
  "server-initialize", "logging-set-level", "ping", "completion-complete", "tools-list", "tools-call-simple-text", "tools-call-image",
  "tools-call-audio", "tools-call-embedded-resource", "tools-call-mixed-content", "tools-call-with-logging", "tools-call-error",
  "tools-call-with-progress", "tools-call-sampling", "tools-call-elicitation", "json-schema-2020-12", "elicitation-sep1034-defaults",
  "server-sse-multiple-streams", "elicitation-sep1330-enums", "resources-list", "resources-read-text",
  "resources-read-binary", "resources-templates-read", "resources-subscribe", "resources-unsubscribe", "prompts-list",
  "prompts-get-simple", "prompts-get-with-args", "prompts-get-embedded-resource", "prompts-get-with-image", "dns-rebinding-protection",
];
// Every client scenario, the authorization ones included.
const CLIENT_PASSES = [
  "initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry", "auth/metadata-default", "auth/metadata-var1",
  "auth/metadata-var2", "auth/metadata-var3", "auth/basic-cimd", "auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined", "auth/scope-step-up", "auth/scope-retry-limit", "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post", "auth/token-endpoint-auth-none", "auth/resource-mismatch", "auth/pre-registration",
  "auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback", "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
];

describe("the MCP conformance suite", () => {
  it("runs every server scenario against toolsmith's MCP server and prints the figures", async () => {
    const server = createMcpServer({
      name: "toolsmith-conformance",
      tools: conformanceTools(),
      resources: conformanceResources(),
      resourceTemplates: conformanceResourceTemplates(),
      prompts: conformancePrompts(),
    });
    const listener = await server.listen();
    try {
      const outcomes = scenarioOutcomes(await runConformance(["server", "--url", listener.url, "--suite", "all"]));
      console.log(figuresLine("server", outcomes));
      expect(outcomes).toHaveLength(32);
      expect(outcomes.filter(passed).map((outcome) => outcome.scenario)).toEqual(expect.arrayContaining(SERVER_PASSES));
    } finally {
      await listener.close();
      await server.close();
    }
  }, 240_000);

  it("runs every client scenario against MCPToolset and prints the figures", async () => {
    const command = `${process.execPath} --import tsx ${clientScript}`;
    const outcomes = scenarioOutcomes(await runConformance(["client", "--command", command, "--suite", "all", "--timeout", "20000"]));
    // sse-retry times the client's reconnection, which 23 clients started at once on a small machine delay: its
    // figure is taken from a run of its own.
    const sseRetry = outcomes.findIndex((outcome) => outcome.scenario === "sse-retry");
    outcomes[sseRetry] = singleScenarioOutcome("sse-retry", await runConformance(["client", "--command", command, "--scenario", "sse-retry", "--timeout", "20000"]));
    console.log(figuresLine("client", outcomes));
    expect(outcomes).toHaveLength(23);
    expect(outcomes.filter(passed).map((outcome) => outcome.scenario)).toEqual(expect.arrayContaining(CLIENT_PASSES));
  }, 240_000);
});
