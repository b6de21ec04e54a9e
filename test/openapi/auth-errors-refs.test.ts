import { describe, expect, it } from "vitest";
import { LlmAgent, Runner } from "../../src/index.js";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { compileArgumentsCheck } from "../../src/tools/json-schema-validator.js";
import type { Tool } from "../../src/tools/tool.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";
import { OK_RESPONSES, recording, toolsOf } from "./openapi-kit.js";
import { startRecordingServer } from "./recording-server.js";




/** A document with the given security schemes, one operation per entry of `operations` (name to its `security`). */
function securedDocument(schemes: Record<string, unknown>, operations: Record<string, unknown[] | undefined>, documentSecurity?: unknown[]) {
  const paths: Record<string, unknown> = {};
  for (const [name, security] of Object.entries(operations)) {
    paths[`/${name}`] = {
      get: {
        operationId: name,
        parameters: [{ name: "q", in: "query", schema: { type: "string" } }],
        ...(security ? { security } : {}),
        responses: OK_RESPONSES,
      },
    };
  }
  return { openapi: "3.0.3", info: { title: "Secured", version: "1" }, paths, components: { securitySchemes: schemes }, ...(documentSecurity ? { security: documentSecurity } : {}) };
}

describe("OpenAPI authentication", () => {
  it("adds a query API key next to the model's own query arguments, and a header API key under the scheme's header name", async () => {
    const server = await recording();
    const document = securedDocument(
      { queryKey: { type: "apiKey", in: "query", name: "key" }, headerKey: { type: "apiKey", in: "header", name: "X-Api-Key" } },
      { byQuery: [{ queryKey: [] }], byHeader: [{ headerKey: [] }] },
    );
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url, credentials: { queryKey: { apiKey: "k 1" }, headerKey: { apiKey: "k2" } } }));
    const context = await createToolContext();
    await tools.byQuery!.run({ q: "cats" }, context);
    await tools.byHeader!.run({ q: "dogs" }, context);
    const [byQuery, byHeader] = server.requests;
    expect(byQuery!.url).toBe("/byQuery?q=cats&key=k%201");
    expect(byQuery!.headers["x-api-key"]).toBeUndefined();
    expect(byHeader!.url).toBe("/byHeader?q=dogs");
    expect(byHeader!.headers["x-api-key"]).toBe("k2");
  });

  it("sends a bearer token as `Authorization: Bearer`, whatever the case of the scheme name, and over a fixed Authorization header", async () => {
    const server = await recording();
    const document = securedDocument({ lower: { type: "http", scheme: "bearer" }, upper: { type: "http", scheme: "Bearer", bearerFormat: "JWT" } }, { lower: [{ lower: [] }], upper: [{ upper: [] }] });
    const toolset = new OpenAPIToolset({ document, baseUrl: server.url, headers: { Authorization: "Bearer stale" }, credentials: { lower: { token: "t-lower" }, upper: { token: "t-upper" } } });
    const tools = await toolsOf(toolset);
    const context = await createToolContext();
    await tools.lower!.run({}, context);
    await tools.upper!.run({}, context);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(["Bearer t-lower", "Bearer t-upper"]);
  });

  it("applies the document's security to every operation, except one that opts out with an empty list", async () => {
    const server = await recording();
    const document = securedDocument({ headerKey: { type: "apiKey", in: "header", name: "X-Api-Key" } }, { secured: undefined, open: [] }, [{ headerKey: [] }]);
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url, credentials: { headerKey: { apiKey: "secret" } } }));
    const context = await createToolContext();
    await tools.secured!.run({}, context);
    await tools.open!.run({}, context);
    expect(server.requests.map((request) => request.headers["x-api-key"])).toEqual(["secret", undefined]);
  });

  it("reads a security scheme that is itself a $ref", async () => {
    const server = await recording();
    const document = securedDocument({ alias: { $ref: "#/components/securitySchemes/real" }, real: { type: "apiKey", in: "header", name: "X-Real" } }, { op: [{ alias: [] }] });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url, credentials: { alias: { apiKey: "via-ref" } } }));
    await tools.op!.run({}, await createToolContext());
    expect(server.requests[0]!.headers["x-real"]).toBe("via-ref");
  });

  it("answers with an error result, without calling the API, when the credential is of the wrong kind or the scheme is not defined", async () => {
    const server = await recording();
    const document = securedDocument({ headerKey: { type: "apiKey", in: "header", name: "X-Api-Key" } }, { wrongKind: [{ headerKey: [] }], undefinedScheme: [{ ghost: [] }] });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url, credentials: { headerKey: { token: "a bearer token, not an API key" }, ghost: { apiKey: "x" } } }));
    const context = await createToolContext();
    expect(await tools.wrongKind!.run({}, context)).toEqual({ status: "error", error: expect.stringContaining("no credential is configured for headerKey") });
    expect(await tools.undefinedScheme!.run({}, context)).toEqual({ status: "error", error: expect.stringContaining("no credential is configured for ghost") });
    expect(server.requests).toHaveLength(0);
  });

  it("names every scheme it lacks when no alternative can be satisfied", async () => {
    const document = securedDocument({ a: { type: "apiKey", in: "header", name: "A" }, b: { type: "http", scheme: "basic" } }, { op: [{ a: [] }, { b: [] }] });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: "http://unused.invalid" }));
    const result = (await tools.op!.run({}, await createToolContext())) as { error: string };
    expect(result.error).toContain("no credential is configured for a or b");
  });
});

describe("OpenAPI responses the model reads", () => {
  const document = {
    openapi: "3.0.3",
    info: { title: "Answers", version: "1" },
    paths: {
      "/items/{id}": { get: { operationId: "getItem", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: OK_RESPONSES } },
      "/items": { delete: { operationId: "clearItems", responses: { "204": { description: "gone" } } } },
    },
  };

  it("turns a 4xx into an error result with the status, the parsed JSON body and advice to fix the arguments", async () => {
    const server = await recording(() => ({ status: 404, body: { error: "no item 42" } }));
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    const result = (await tools.getItem!.run({ id: "42" }, await createToolContext())) as Record<string, unknown>;
    expect(result).toEqual({ status: "error", error: expect.any(String), httpStatus: 404, body: { error: "no item 42" } });
    expect(result.error).toBe("GET /items/{id} failed with HTTP 404 Not Found. Check the arguments against the error body and try again.");
  });

  it("turns a 5xx into an error result that says the service failed, with a text body as text", async () => {
    const server = await recording(() => ({ status: 503, body: "upstream timed out" }));
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    const result = (await tools.getItem!.run({ id: "1" }, await createToolContext())) as Record<string, unknown>;
    expect(result).toMatchObject({ status: "error", httpStatus: 503, body: "upstream timed out" });
    expect(result.error).toContain("The service failed; try again later");
  });

  it("returns a success body as parsed JSON, as text when it is not JSON or not valid JSON, and as null when empty", async () => {
    const replies = [
      { status: 200, body: '{"a":1}', contentType: "application/problem+json" },
      { status: 200, body: "plain words", contentType: "text/plain" },
      { status: 200, body: "{not json", contentType: "application/json" },
      { status: 204, body: "" },
    ];
    const server = await recording(() => replies.shift()!);
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    const context = await createToolContext();
    expect(await tools.getItem!.run({ id: "1" }, context)).toEqual({ a: 1 });
    expect(await tools.getItem!.run({ id: "2" }, context)).toBe("plain words");
    expect(await tools.getItem!.run({ id: "3" }, context)).toBe("{not json");
    expect(await tools.clearItems!.run({}, context)).toBeNull();
  });

  it("gives the model the API's error body in the function response, and the model's next turn follows", async () => {
    const server = await recording(() => ({ status: 422, body: { detail: "id must be numeric" } }));
    const model = new ScriptedModel([functionCallsResponse({ name: "getItem", args: { id: "abc" } }), textResponse("The id must be a number.")]);
    const agent = new LlmAgent({ name: "shop", model, tools: [new OpenAPIToolset({ document, baseUrl: server.url })] });
    const runner = new Runner({ appName: "shop", agent });
    const session = await runner.sessionService.createSession({ appName: "shop", userId: "u1" });
    const events = await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage("item abc?") }));

    expect(server.requests.map((request) => request.url)).toEqual(["/items/abc"]);
    const sent = model.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse!;
    expect(sent.name).toBe("getItem");
    expect(sent.response).toMatchObject({ status: "error", httpStatus: 422, body: { detail: "id must be numeric" }, error: expect.stringContaining("HTTP 422") });
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("The id must be a number.");
  });

  it("tells the model the call failed when the API cannot be reached at all", async () => {
    // Started and closed at once, so nothing listens at its address any more.
    const server = await startRecordingServer();
    const baseUrl = server.url;
    await server.close();
    const model = new ScriptedModel([functionCallsResponse({ name: "getItem", args: { id: "1" } }), textResponse("The shop is down.")]);
    const agent = new LlmAgent({ name: "shop", model, tools: [new OpenAPIToolset({ document, baseUrl })] });
    const runner = new Runner({ appName: "shop", agent });
    const session = await runner.sessionService.createSession({ appName: "shop", userId: "u1" });
    const events = await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage("item 1?") }));

    const sent = model.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse!.response;
    expect(sent).toMatchObject({ status: "error", error: expect.stringContaining('Tool "getItem" failed') });
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("The shop is down.");
  });
});

describe("OpenAPI $refs in tool schemas", () => {
  const document = {
    openapi: "3.0.3",
    info: { title: "Refs", version: "1" },
    paths: {
      "/pets/{petId}": {
        put: {
          operationId: "updatePet",
          parameters: [{ $ref: "#/components/parameters/PetIdAlias" }],
          requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
          responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } } },
        },
      },
    },
    components: {
      parameters: { PetIdAlias: { $ref: "#/components/parameters/PetId" }, PetId: { name: "petId", in: "path", description: "The pet.", schema: { type: "integer" } } },
      schemas: {
        Pet: {
          type: "object",
          required: ["id", "name"],
          example: { id: 1, name: "Rex" },
          xml: { name: "pet" },
          properties: {
            id: { type: "integer", readOnly: true },
            name: { type: "string", nullable: true },
            status: { type: "string", enum: ["available", "sold"], nullable: true },
            owner: { $ref: "#/components/schemas/a~1b" },
          },
        },
        "a/b": { type: "object", properties: { email: { type: "string", format: "email" } } },
      },
    },
  };

  it("follows a parameter $ref through another $ref, keeping its description", async () => {
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: "http://unused.invalid" }));
    const parameters = tools.updatePet!.declaration()!.parameters as { properties: Record<string, unknown>; required: string[] };
    expect(parameters.properties.petId).toEqual({ type: "integer", description: "The pet." });
    expect(parameters.required).toEqual(["petId", "body"]);
  });

  it("inlines the body schema: read-only properties dropped (and no longer required), 3.0 nullable as a null type, escaped pointers followed, examples left out", async () => {
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: "http://unused.invalid" }));
    const body = (tools.updatePet!.declaration()!.parameters as { properties: Record<string, unknown> }).properties.body;
    expect(body).toEqual({
      type: "object",
      required: ["name"],
      properties: {
        name: { type: ["string", "null"] },
        status: { type: ["string", "null"], enum: ["available", "sold", null] },
        owner: { type: "object", properties: { email: { type: "string", format: "email" } } },
      },
    });
    expect(JSON.stringify(body)).not.toContain("$ref");
  });

  it("lets the model send null for a nullable enum, as for any other nullable property", async () => {
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: "http://unused.invalid" }));
    const check = compileArgumentsCheck(tools.updatePet!.declaration()!.parameters!, "updatePet");
    expect(check({ petId: 1, body: { name: null, status: null } })).toMatchObject({ ok: true });
    expect(check({ petId: 1, body: { name: "Rex", status: "lost" } })).toMatchObject({ ok: false });
  });

  it("reads OpenAPI 3.0's boolean exclusiveMinimum/exclusiveMaximum as JSON Schema's numeric bounds, so the call is checked, not refused", async () => {
    const bounded = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: { "/items": { get: { operationId: "listItems", parameters: [{ name: "limit", in: "query", schema: { type: "integer", minimum: 0, exclusiveMinimum: true, maximum: 100, exclusiveMaximum: false } }], responses: { "200": { description: "ok" } } } } },
    };
    const tools = await toolsOf(new OpenAPIToolset({ document: bounded, baseUrl: "http://unused.invalid" }));
    const parameters = tools.listItems!.declaration()!.parameters!;
    expect((parameters as { properties: Record<string, unknown> }).properties.limit).toEqual({ type: "integer", exclusiveMinimum: 0, maximum: 100 });
    const check = compileArgumentsCheck(parameters, "listItems");
    expect(check({ limit: 0 })).toMatchObject({ ok: false, issues: [{ field: "limit", problem: expect.stringContaining("> 0") }] });
    expect(check({ limit: 100 })).toMatchObject({ ok: true });
  });

  it("sends the arguments of a $ref'd parameter and body to the API", async () => {
    const server = await recording((request) => ({ status: 200, body: { id: 5, ...JSON.parse(request.body) } }));
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    const result = await tools.updatePet!.run({ petId: 5, body: { name: "Rex", status: null } }, await createToolContext());
    expect(server.requests[0]!.method).toBe("PUT");
    expect(server.requests[0]!.url).toBe("/pets/5");
    expect(result).toEqual({ id: 5, name: "Rex", status: null });
  });

  it("reads a path item that is a $ref to components (OpenAPI 3.1)", async () => {
    const server = await recording();
    const withPathItem = {
      openapi: "3.1.0",
      info: { title: "Items", version: "1" },
      paths: { "/health": { $ref: "#/components/pathItems/Health" } },
      components: { pathItems: { Health: { get: { operationId: "health", responses: OK_RESPONSES } } } },
    };
    const tools = await toolsOf(new OpenAPIToolset({ document: withPathItem, baseUrl: server.url }));
    expect(Object.keys(tools)).toEqual(["health"]);
    await tools.health!.run({}, await createToolContext());
    expect(server.requests[0]!.url).toBe("/health");
  });
});
