/**
 * Regular expressions in schemas a third party wrote (an MCP server's tool, an OpenAPI document) are not run in
 * toolsmith's process: JavaScript's regular expressions backtrack, and the argument check ran `^(a+)+$` on a
 * model's 31-character string for about 40 seconds (a few characters more: hours), with the event loop blocked and
 * every run of a server stopped. The server that owns the schema checks its own input; the model still sees the pattern.
 * Everything else in those schemas is still checked, and a developer's own tool keeps its patterns.
 */
import { afterEach, describe, expect, it } from "vitest";
import { FunctionTool, InMemorySessionService, LlmAgent, Runner, getFunctionResponses } from "../../src/index.js";
import { MCPToolset } from "../../src/mcp/index.js";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { checkToolArguments } from "../../src/tools/argument-limits.js";
import { schemaWithoutRegexes } from "../../src/tools/json-schema-validator.js";
import { OK_RESPONSES, recording, toolsOf } from "../openapi/openapi-kit.js";
import { createReadonlyContext } from "../support/tool-context.js";

/** Thirty characters that `^(a+)+$` fails on only after about a billion steps in V8. */
const HOSTILE = `${"a".repeat(30)}!`;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe("a schema's regular expressions, from a third party", () => {
  it("are left out of the check, in every schema position, and only there", () => {
    const schema = {
      type: "object",
      properties: {
        // A property named "pattern" is a name, not the keyword.
        pattern: { type: "string", pattern: "^(a+)+$", default: "x", enum: ["x"] },
        list: { type: "array", items: { type: "string", pattern: "(x*)*y" }, prefixItems: [{ pattern: "a" }] },
        either: { anyOf: [{ type: "string", pattern: "b+" }, { $ref: "#/$defs/code" }] },
        map: { type: "object", patternProperties: { "^(a|a)*$": { type: "string" } }, additionalProperties: false },
        keys: { type: "object", propertyNames: { pattern: "^[a-z]+$" } },
        data: { const: { pattern: "kept, it is data" }, examples: [{ pattern: "kept" }] },
      },
      $defs: { code: { type: "string", pattern: "c+" } },
    };
    expect(schemaWithoutRegexes(schema)).toEqual({
      type: "object",
      properties: {
        pattern: { type: "string", default: "x", enum: ["x"] },
        list: { type: "array", items: { type: "string" }, prefixItems: [{}] },
        either: { anyOf: [{ type: "string" }, { $ref: "#/$defs/code" }] },
        map: { type: "object" },
        keys: { type: "object", propertyNames: {} },
        data: { const: { pattern: "kept, it is data" }, examples: [{ pattern: "kept" }] },
      },
      $defs: { code: { type: "string" } },
    });
    // The schema itself, which the model sees, is unchanged.
    expect(schema.properties.pattern.pattern).toBe("^(a+)+$");
  });

  it("of an MCP server's tool are not run: the hostile string reaches the server, which checks its own input; a wrong type is still refused here", async () => {
    const toolset = new MCPToolset({ connection: { command: process.execPath, args: ["--import", "tsx", new URL("../mcp/fixtures/regex-schema-server.ts", import.meta.url).pathname], stderr: "ignore" } });
    cleanups.push(() => toolset.close());
    const [lookup] = await toolset.getTools(await createReadonlyContext());
    expect(lookup!.declaration()!.parameters).toMatchObject({ properties: { code: { pattern: "^(a+)+$" } } });
    expect(checkToolArguments(lookup!, { code: HOSTILE })).toEqual({ ok: true, value: { code: HOSTILE } });
    expect(checkToolArguments(lookup!, { code: 5 })).toMatchObject({ ok: false, result: { invalidArguments: [{ field: "code" }] } });
    expect(checkToolArguments(lookup!, { code: "aa", extra: 1 })).toMatchObject({ ok: false });

    const model = new ScriptedModel([functionCallsResponse({ name: "lookup", args: { code: HOSTILE } }), textResponse("Done.")]);
    const runner = new Runner({ appName: "regex", agent: new LlmAgent({ name: "agent", model, tools: [toolset] }), sessionService: new InMemorySessionService() });
    const session = await runner.sessionService.createSession({ appName: "regex", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("look it up") }));
    const [response] = events.flatMap((event) => getFunctionResponses(event.content));
    expect(JSON.stringify(response!.response)).toContain(`got {\\"code\\":\\"${HOSTILE}\\"}`);
  });

  it("of an OpenAPI document are not run: the request goes to the API, and the rest of the schema is still checked", async () => {
    const server = await recording();
    const document = {
      openapi: "3.1.0",
      info: { title: "Codes", version: "1" },
      paths: { "/codes": { get: { operationId: "find_code", parameters: [{ name: "code", in: "query", required: true, schema: { type: "string", pattern: "^(a+)+$" } }], responses: OK_RESPONSES } } },
    };
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    expect(checkToolArguments(tools.find_code!, { code: HOSTILE })).toEqual({ ok: true, value: { code: HOSTILE } });
    expect(checkToolArguments(tools.find_code!, {})).toMatchObject({ ok: false });
  });

  it("of a developer's own FunctionTool are still run: the developer wrote them", () => {
    const tool = new FunctionTool({ name: "own", description: "d", parameters: { type: "object", properties: { code: { type: "string", pattern: "^[a-z]+$" } } }, execute: () => "ok" });
    expect(checkToolArguments(tool, { code: "ABC" })).toMatchObject({ ok: false, result: { invalidArguments: [{ field: "code" }] } });
    expect(checkToolArguments(tool, { code: "abc" })).toMatchObject({ ok: true });
  });
});
