import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { getFunctionResponses, isToolsmithError, LlmAgent, REQUEST_CREDENTIAL, Runner, type AuthConfig } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import { compileArgumentsCheck } from "../../src/tools/json-schema-validator.js";
import type { Tool } from "../../src/tools/tool.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";
import { recording, toolsOf } from "./openapi-kit.js";

const require = createRequire(import.meta.url);
const examples = dirname(require.resolve("@readme/oas-examples/package.json"));
const fixtures = join(dirname(fileURLToPath(import.meta.url)), "fixtures");


describe("OpenAPIToolset reading documents", () => {
  it("makes one tool per operation of a YAML 3.1 document with a relative file $ref, named from operationId", async () => {
    const tools = await toolsOf(new OpenAPIToolset({ path: join(fixtures, "notes.yaml") }));
    expect(Object.keys(tools).sort()).toEqual(["create_note", "get_ping", "listNotes"]);
    const list = tools.listNotes!.declaration()!;
    expect(list.description).toBe("Lists the notes of a folder.");
    expect(list.parameters).toMatchObject({
      type: "object",
      properties: { folderId: { type: "string", description: "The folder." }, tags: { type: "array" }, filter: { type: "object" }, "X-Trace": { type: "string" }, session: { type: "string" } },
      required: ["folderId"],
    });
    const create = tools.create_note!.declaration()!.parameters as { properties: { body: Record<string, any> }; required: string[] };
    expect(create.required).toEqual(["folderId", "body"]);
    // The note schema came from schemas/note.yaml; `id` is read-only and so not part of a request; the recursion is cut, keeping its type.
    expect(Object.keys(create.properties.body.properties)).toEqual(["title", "body", "children"]);
    expect(create.properties.body.properties.children.items.properties.children.items).toEqual({ type: "object", description: expect.stringContaining("recursive") });
  });

  it("turns every example specification into tools whose schemas compile", async () => {
    const names = ["3.0/json/petstore.json", "3.0/json/circular.json", "3.0/json/callbacks.json", "3.0/json/parameters-style.json", "3.0/json/security-multiple.json", "3.0/json/server-variables.json", "3.0/yaml/petstore.yaml", "3.1/json/petstore.json", "3.1/json/train-travel.json", "3.1/json/schema-types.json"];
    for (const name of names) {
      const tools = Object.values(await toolsOf(new OpenAPIToolset({ path: join(examples, name), url: "https://api.example.com/openapi.json" })));
      expect(tools.length, name).toBeGreaterThan(0);
      for (const tool of tools) {
        const parameters = tool.declaration()!.parameters!;
        expect(() => JSON.stringify(parameters), `${name} ${tool.name}`).not.toThrow();
        expect(() => compileArgumentsCheck(parameters, tool.name), `${name} ${tool.name}`).not.toThrow();
      }
    }
  });

  it("asks for confirmation as requireConfirmation says, and offers only the filtered operations under a prefix", async () => {
    const toolset = new OpenAPIToolset({
      path: join(examples, "3.0/json/petstore.json"),
      toolFilter: ["getPetById", "deletePet"],
      prefix: "pets",
      requireConfirmation: (toolName, args) => toolName === "deletePet" && args.petId !== 0,
    });
    const tools = await toolsOf(toolset);
    expect(Object.keys(tools).sort()).toEqual(["pets_deletePet", "pets_getPetById"]);
    const context = await createToolContext();
    expect(await tools.pets_deletePet!.requiresConfirmation!({ petId: 7 }, context)).toBe(true);
    expect(await tools.pets_getPetById!.requiresConfirmation!({ petId: 7 }, context)).toBe(false);
  });

  it("accepts the document as JSON text", async () => {
    const text = readFileSync(join(examples, "3.0/json/petstore.json"), "utf8");
    const tools = await toolsOf(new OpenAPIToolset({ document: text }));
    expect(Object.keys(tools)).toContain("getPetById");
  });

  it("refuses a Swagger 2.0 document, unreadable text and a missing referenced file, saying what to do", async () => {
    const swagger = new OpenAPIToolset({ path: join(examples, "2.0/json/petstore.json") });
    await expect(swagger.getTools(await createReadonlyContext())).rejects.toSatisfy(
      (error: Error) => isToolsmithError(error) && error.code === "OPENAPI_UNSUPPORTED_VERSION" && /OpenAPI 3\.0 or 3\.1/.test(error.message),
    );
    const garbage = new OpenAPIToolset({ document: "openapi: [unclosed" });
    await expect(garbage.getTools(await createReadonlyContext())).rejects.toSatisfy((error: Error) => isToolsmithError(error) && error.code === "OPENAPI_UNREADABLE");
    const dangling = new OpenAPIToolset({ document: { openapi: "3.0.3", info: { title: "x", version: "1" }, paths: { "/a": { get: { operationId: "a", parameters: [{ $ref: "./nowhere.yaml" }], responses: {} } } } }, path: join(fixtures, "base.yaml") });
    await expect(dangling.getTools(await createReadonlyContext())).rejects.toSatisfy((error: Error) => isToolsmithError(error) && error.code === "OPENAPI_UNREADABLE" && /nowhere/.test(error.message));
  });
});

describe("OpenAPIToolset requests, recorded by a server in the test", () => {
  it("puts path, query (form and deepObject), header, cookie and body arguments where the document says", async () => {
    const server = await recording((request) => ({ status: request.method === "POST" ? 201 : 200, body: request.method === "POST" ? { id: "n1", title: "Hi" } : [] }));
    const tools = await toolsOf(new OpenAPIToolset({ path: join(fixtures, "notes.yaml"), baseUrl: `${server.url}/v1`, headers: { "User-Agent": "toolsmith-test" } }));
    const context = await createToolContext();

    expect(await tools.listNotes!.run({ folderId: "a b", tags: ["x", "y"], filter: { author: "ada", year: 1843 }, "X-Trace": "t-1", session: "s=1" }, context)).toEqual([]);
    expect(await tools.create_note!.run({ folderId: "f1", body: { title: "Hi", body: "there" } }, context)).toEqual({ id: "n1", title: "Hi" });

    const [list, create] = server.requests;
    expect(list!.method).toBe("GET");
    expect(decodeURIComponent(list!.url)).toBe("/v1/folders/a b/notes?tags=x&tags=y&filter[author]=ada&filter[year]=1843");
    expect(list!.url.startsWith("/v1/folders/a%20b/notes?")).toBe(true);
    expect(list!.headers).toMatchObject({ "x-trace": "t-1", cookie: "session=s%3D1", accept: "application/json", "user-agent": "toolsmith-test" });
    expect(create!.method).toBe("POST");
    expect(create!.url).toBe("/v1/folders/f1/notes");
    expect(create!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(create!.body)).toEqual({ title: "Hi", body: "there" });
  });

  it("encodes form and multipart bodies as the document says", async () => {
    const server = await recording();
    const form = (type: string) => ({ requestBody: { content: { [type]: { schema: { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } } } } } }, responses: { "200": { description: "ok" } } });
    const document = { openapi: "3.0.3", info: { title: "Forms", version: "1" }, paths: { "/form": { post: { operationId: "sendForm", ...form("application/x-www-form-urlencoded") } }, "/upload": { post: { operationId: "upload", ...form("multipart/form-data") } } } };
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    const context = await createToolContext();
    await tools.sendForm!.run({ body: { name: "Ada Lovelace", age: 36 } }, context);
    await tools.upload!.run({ body: { name: "Ada", age: 36 } }, context);
    const [urlEncoded, multipart] = server.requests;
    expect(urlEncoded!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(urlEncoded!.body).toBe("name=Ada+Lovelace&age=36");
    expect(multipart!.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(multipart!.body).toMatch(/name="name"\r\n\r\nAda\r\n/);
  });

  it("uses the document's server with its variables when no baseUrl is given", async () => {
    const tools = await toolsOf(new OpenAPIToolset({ path: join(fixtures, "notes.yaml"), fetch: async (url) => new Response(JSON.stringify({ url: String(url) }), { headers: { "content-type": "application/json" } }) }));
    expect(await tools.get_ping!.run({}, await createToolContext())).toEqual({ url: "http://notes.invalid/v1/ping" });
  });

  it("applies API keys in query, cookie and header, and HTTP basic and bearer credentials", async () => {
    const server = await recording();
    const tools = await toolsOf(
      new OpenAPIToolset({
        path: join(examples, "3.0/json/security.json"),
        baseUrl: server.url,
        credentials: {
          apiKey_query: { apiKey: "q-key" },
          apiKey_cookie: { apiKey: "c-key" },
          apiKey_header: { apiKey: "h-key" },
          basic: { username: "ada", password: "lovelace" },
          bearer: { token: "b-token" },
        },
      }),
    );
    const context = await createToolContext();
    for (const name of ["get_anything_apiKey", "post_anything_apiKey", "put_anything_apiKey", "post_anything_basic", "post_anything_bearer"]) await tools[name]!.run({}, context);
    const [query, cookie, header, basic, bearer] = server.requests;
    expect(query!.url).toBe("/anything/apiKey?apiKey=q-key");
    expect(cookie!.headers.cookie).toBe("api_key=c-key");
    expect(header!.headers["x-api-key"]).toBe("h-key");
    expect(basic!.headers.authorization).toBe(`Basic ${Buffer.from("ada:lovelace").toString("base64")}`);
    expect(bearer!.headers.authorization).toBe("Bearer b-token");
  });

  it("asks the client for an OAuth 2 credential through the credentials flow and uses the one it supplies", async () => {
    const server = await recording();
    const tools = await toolsOf(new OpenAPIToolset({ path: join(examples, "3.0/json/security.json"), baseUrl: server.url }));
    const first = await createToolContext();
    expect(await tools.post_anything_oauth2!.run({}, first)).toMatchObject({ status: "pending" });
    const requested = first.actions.requestedAuthConfigs["call-1"]!;
    expect(requested.authScheme).toMatchObject({ type: "oauth2", scopes: ["write:things"] });
    expect(server.requests).toHaveLength(0);

    // What the runner stores when the client answers the adk_request_credential call.
    const answered = await createToolContext();
    answered.state.set(`temp:${requested.credentialKey}`, { oauth2: { accessToken: "granted-token" } });
    await tools.post_anything_oauth2!.run({}, answered);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer granted-token");
  });

  it("picks the first security requirement it has every credential for, and applies all of its schemes", async () => {
    const server = await recording();
    const spec = join(examples, "3.0/json/security-multiple.json");
    const keys = { apiKey_cookie: { apiKey: "c" }, apiKey_header: { apiKey: "h" }, apiKey_query: { apiKey: "q" } };
    const tools = await toolsOf(new OpenAPIToolset({ path: spec, baseUrl: server.url, credentials: keys }));
    const context = await createToolContext();
    await tools.post_anything_or!.run({}, context); // oauth2 OR apiKey_header: the header
    await tools.post_anything_many_and_or!.run({}, context); // only the last requirement (cookie AND header AND query) is complete
    const [or, many] = server.requests;
    expect(or!.headers["x-api-key"]).toBe("h");
    expect(or!.headers.authorization).toBeUndefined();
    expect(many!.url).toBe("/anything/many-and-or?apiKey=q");
    expect(many!.headers).toMatchObject({ cookie: "api_key=c", "x-api-key": "h" });
    expect(context.actions.requestedAuthConfigs).toEqual({});

    const withoutKeys = await toolsOf(new OpenAPIToolset({ path: spec, baseUrl: server.url }));
    const waiting = await createToolContext();
    expect(await withoutKeys.post_anything_or!.run({}, waiting)).toMatchObject({ status: "pending" });
    expect(Object.values(waiting.actions.requestedAuthConfigs)[0]!.authScheme.type).toBe("oauth2");
  });

  it("pauses for an OAuth 2 credential, and calls the API with the token once the client supplies it", async () => {
    const server = await recording();
    const toolset = new OpenAPIToolset({ path: join(examples, "3.0/json/security.json"), baseUrl: server.url, toolFilter: ["post_anything_oauth2"] });
    const model = new ScriptedModel([functionCallsResponse({ id: "call-9", name: "post_anything_oauth2", args: {} }), textResponse("Done.")]);
    const runner = new Runner({ appName: "oauth", agent: new LlmAgent({ name: "assistant", model, tools: [toolset] }) });
    const session = await runner.sessionService.createSession({ appName: "oauth", userId: "u1" });
    const events = await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage("do it") }));
    const toolEvent = events.find((event) => getFunctionResponses(event.content).length > 0)!;
    expect(getFunctionResponses(toolEvent.content)[0]!.response).toMatchObject({ status: "paused", waitingFor: "credential" });
    expect(toolEvent.actions.requestedAuthConfigs["call-9"]).toMatchObject({ authScheme: { type: "oauth2" }, credentialKey: expect.any(String) });
    expect(server.requests).toHaveLength(0);

    const request = events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CREDENTIAL)!.functionCall!;
    const authConfig = (request.args as { authConfig: AuthConfig }).authConfig;
    const answer = { ...authConfig, exchangedAuthCredential: { authType: "oauth2", oauth2: { accessToken: "token-123" } } };
    const resumed = await collect(
      runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: { role: "user", parts: [{ functionResponse: { id: request.id, name: REQUEST_CREDENTIAL, response: answer } }] } }),
    );
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe("Done.");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer token-123");
  });

  it("answers with an error result naming the scheme when no credential is configured", async () => {
    const server = await recording();
    const tools = await toolsOf(new OpenAPIToolset({ path: join(examples, "3.0/json/security.json"), baseUrl: server.url }));
    expect(await tools.post_anything_basic!.run({}, await createToolContext())).toEqual({ status: "error", error: expect.stringContaining("no credential is configured for basic") });
    expect(server.requests).toHaveLength(0);
  });

  it("turns a response outside 2xx into an error result with the status and body", async () => {
    const server = await recording(() => ({ status: 401, body: { message: "bad key" } }));
    const tools = await toolsOf(new OpenAPIToolset({ path: join(examples, "3.0/json/security.json"), baseUrl: server.url, credentials: { apiKey_header: { apiKey: "wrong" } } }));
    expect(await tools.post_status_401!.run({}, await createToolContext())).toEqual({
      status: "error",
      error: expect.stringContaining("HTTP 401"),
      httpStatus: 401,
      body: { message: "bad key" },
    });
  });
});
