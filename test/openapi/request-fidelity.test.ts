import { join } from "node:path";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isToolsmithError } from "../../src/index.js";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import { compileArgumentsCheck } from "../../src/tools/json-schema-validator.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";
import { OK_RESPONSES, recording, toolsOf } from "./openapi-kit.js";

const examples = dirname(createRequire(import.meta.url).resolve("@readme/oas-examples/package.json"));

function documentWith(paths: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { openapi: "3.0.3", info: { title: "Fidelity", version: "1" }, paths, ...extra };
}

/** The parts of a multipart body: name, filename, content type and content. */
function multipartParts(body: string, contentType: string) {
  const boundary = /boundary=(.+)$/.exec(contentType)![1]!;
  return body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((raw) => {
      const [head, ...rest] = raw.slice(2, -2).split("\r\n\r\n");
      return {
        name: /name="([^"]*)"/.exec(head!)![1],
        filename: /filename="([^"]*)"/.exec(head!)?.[1],
        type: /Content-Type: (.+)/i.exec(head!)?.[1],
        content: rest.join("\r\n\r\n"),
      };
    });
}

describe("OpenAPI form bodies (application/x-www-form-urlencoded)", () => {
  it("serialises each field by its encoding object like a query parameter: arrays repeated or delimited, objects spread or deepObject, JSON for a contentType", async () => {
    const server = await recording();
    const schema = {
      type: "object",
      properties: {
        name: { type: "string" },
        tags: { type: "array", items: { type: "string" } },
        ids: { type: "array", items: { type: "integer" } },
        address: { type: "object", properties: { city: { type: "string" }, zip: { type: "string" } } },
        filter: { type: "object", properties: { color: { type: "string" } } },
        meta: { type: "object" },
      },
    };
    const encoding = { ids: { style: "pipeDelimited", explode: false }, filter: { style: "deepObject", explode: true }, meta: { contentType: "application/json" } };
    const document = documentWith({ "/form": { post: { operationId: "form", requestBody: { content: { "application/x-www-form-urlencoded": { schema, encoding } } }, responses: OK_RESPONSES } } });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.form!.run({ body: { name: "Ada Lovelace", tags: ["x", "y"], ids: [1, 2], address: { city: "London", zip: "W1" }, filter: { color: "red" }, meta: { a: [1] } } }, await createToolContext());
    const request = server.requests[0]!;
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    // OpenAPI 3.1.1 appendix on form bodies: the delimiters and brackets are form-encoded too (| is %7C, [ is %5B).
    expect(request.body).toBe(`name=Ada+Lovelace&tags=x&tags=y&ids=1%7C2&city=London&zip=W1&filter%5Bcolor%5D=red&meta=${encodeURIComponent('{"a":[1]}')}`);
  });
});

describe("OpenAPI multipart bodies", () => {
  it("sends one part per field: text as text, array items as repeated parts, objects as JSON parts, files as file parts with the encoding's type", async () => {
    const server = await recording();
    const schema = {
      type: "object",
      properties: {
        title: { type: "string" },
        count: { type: "integer" },
        labels: { type: "array", items: { type: "string" } },
        owner: { type: "object", properties: { id: { type: "integer" } } },
        file: { type: "string", format: "binary" },
        attachments: { type: "array", items: { type: "string", format: "binary" } },
        csv: { type: "string", contentMediaType: "text/csv" },
      },
    };
    const encoding = { file: { contentType: "image/png" }, csv: { contentType: "text/csv" } };
    const document = documentWith({ "/upload": { post: { operationId: "upload", requestBody: { content: { "multipart/form-data": { schema, encoding } } }, responses: OK_RESPONSES } } });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.upload!.run({ body: { title: 'A "quoted" title', count: 3, labels: ["a", "b"], owner: { id: 7 }, file: "PNG…", attachments: ["one", "two"], csv: "a,b\n1,2" } }, await createToolContext());
    const request = server.requests[0]!;
    expect(request.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=toolsmith-/);
    expect(multipartParts(request.body, request.headers["content-type"]!)).toEqual([
      { name: "title", filename: undefined, type: undefined, content: 'A "quoted" title' },
      { name: "count", filename: undefined, type: undefined, content: "3" },
      { name: "labels", filename: undefined, type: undefined, content: "a" },
      { name: "labels", filename: undefined, type: undefined, content: "b" },
      { name: "owner", filename: undefined, type: "application/json", content: '{"id":7}' },
      { name: "file", filename: "file", type: "image/png", content: "PNG…" },
      { name: "attachments", filename: "attachments", type: "application/octet-stream", content: "one" },
      { name: "attachments", filename: "attachments", type: "application/octet-stream", content: "two" },
      { name: "csv", filename: "csv", type: "text/csv", content: "a,b\n1,2" },
    ]);
  });

  it("serialises a multipart field by its encoding's style when it names one (OpenAPI 3.1), as text parts", async () => {
    const server = await recording();
    const object = { type: "object", properties: { foo: { type: "string" }, bar: { type: "string" } } };
    const schema = { type: "object", properties: { packed: object, spread: object, list: { type: "array", items: { type: "string" } } } };
    const encoding = { packed: { style: "form", explode: false }, spread: { style: "form", explode: true }, list: { style: "pipeDelimited", explode: false } };
    const document = { ...documentWith({ "/u": { post: { operationId: "u", requestBody: { content: { "multipart/form-data": { schema, encoding } } }, responses: OK_RESPONSES } } }), openapi: "3.1.0" };
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.u!.run({ body: { packed: { foo: "a", bar: "b" }, spread: { foo: "c", bar: "d" }, list: ["x", "y"] } }, await createToolContext());
    const request = server.requests[0]!;
    expect(multipartParts(request.body, request.headers["content-type"]!).map((part) => [part.name, part.content, part.type])).toEqual([
      ["packed", "foo,a,bar,b", undefined],
      ["foo", "c", undefined],
      ["bar", "d", undefined],
      ["list", "x|y", undefined],
    ]);
  });

  it("escapes quotes and line breaks in part names, so a field name cannot add headers to its part", async () => {
    const server = await recording();
    const document = documentWith({ "/u": { post: { operationId: "u", requestBody: { content: { "multipart/form-data": { schema: { type: "object", additionalProperties: { type: "string" } } } } }, responses: OK_RESPONSES } } });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.u!.run({ body: { 'x"\r\nContent-Type: evil': "v" } }, await createToolContext());
    expect(server.requests[0]!.body).toContain('name="x%22%0D%0AContent-Type: evil"\r\n\r\nv\r\n');
    expect(server.requests[0]!.body).not.toMatch(/\r\nContent-Type: evil/);
  });
});

describe("OpenAPI GET and HEAD operations", () => {
  it("offers no body argument and sends none, even when the document gives them a requestBody", async () => {
    const server = await recording();
    const requestBody = { content: { "application/json": { schema: { type: "object", properties: { a: { type: "string" } } } } } };
    const document = documentWith({ "/x": { get: { operationId: "read", requestBody, responses: OK_RESPONSES }, head: { operationId: "peek", requestBody, responses: OK_RESPONSES }, delete: { operationId: "remove", requestBody, responses: OK_RESPONSES } } });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    expect(tools.read!.declaration()!.parameters).toEqual({ type: "object", properties: {} });
    expect(tools.peek!.declaration()!.parameters).toEqual({ type: "object", properties: {} });
    expect(Object.keys((tools.remove!.declaration()!.parameters as { properties: object }).properties)).toEqual(["body"]);
    const context = await createToolContext();
    await tools.read!.run({ body: { a: "ignored" } }, context);
    await tools.peek!.run({}, context);
    expect(server.requests.map((request) => [request.method, request.body, request.headers["content-type"]])).toEqual([
      ["GET", "", undefined],
      ["HEAD", "", undefined],
    ]);
  });
});

describe("OpenAPI schema defaults and deprecated fields", () => {
  const schema = {
    type: "object",
    required: ["name"],
    properties: {
      name: { type: "string" },
      limit: { type: "integer", default: 20, description: "Page size." },
      parent: { type: "string", nullable: true, default: null },
      legacy: { type: "string", deprecated: true, default: "v1" },
    },
  };

  it("tells the model each default and deprecation in the description, without a default keyword the validator would fill in", async () => {
    const document = documentWith({ "/items": { post: { operationId: "create", requestBody: { required: true, content: { "application/json": { schema } } }, responses: OK_RESPONSES } } });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: "http://unused.invalid" }));
    const body = (tools.create!.declaration()!.parameters as { properties: { body: { properties: Record<string, unknown> } } }).properties.body;
    expect(body.properties).toEqual({
      name: { type: "string" },
      limit: { type: "integer", description: "Page size. Default when left out: 20." },
      parent: { type: ["string", "null"], description: "Default when left out: null." },
      legacy: { type: "string", description: "Deprecated: leave out unless needed. Default when left out: \"v1\"." },
    });
  });

  it("sends only what the model gave: no default filled in, no deprecated field, and a `default: null` schema accepts the call", async () => {
    const server = await recording();
    const document = documentWith({
      "/items": {
        post: {
          operationId: "create",
          parameters: [{ name: "sort", in: "query", schema: { type: "string", enum: ["asc", "desc"], default: null } }],
          requestBody: { required: true, content: { "application/json": { schema } } },
          responses: OK_RESPONSES,
        },
      },
    });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    const check = compileArgumentsCheck(tools.create!.declaration()!.parameters!, "create")({ body: { name: "a" } });
    // Before, the validator filled in sort: null and refused it, as null is not one of the enum.
    expect(check).toEqual({ ok: true, value: { body: { name: "a" } } });
    await tools.create!.run(check.ok ? check.value : {}, await createToolContext());
    expect(server.requests[0]!.url).toBe("/items");
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ name: "a" });
  });
});

describe("OpenAPI schemas compiled for 3.0 and 3.1", () => {
  it("keeps a required name the schema does not define in properties, so the model is asked for it", async () => {
    const document = documentWith({
      "/x": { post: { operationId: "x", requestBody: { content: { "application/json": { schema: { type: "object", required: ["id", "extra"], properties: { id: { type: "string" }, stamp: { type: "string", readOnly: true } } } } } }, responses: OK_RESPONSES } },
    });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: "http://unused.invalid" }));
    const parameters = tools.x!.declaration()!.parameters!;
    expect((parameters as { properties: { body: unknown } }).properties.body).toEqual({ type: "object", required: ["id", "extra"], properties: { id: { type: "string" } } });
    const check = compileArgumentsCheck(parameters, "x");
    expect(check({ body: { id: "1" } }).ok).toBe(false);
    expect(check({ body: { id: "1", extra: 2 } }).ok).toBe(true);
  });

  it("admits null beside a 3.0 `nullable` schema that has no type of its own ($ref, allOf)", async () => {
    const document = documentWith(
      { "/x": { post: { operationId: "x", requestBody: { content: { "application/json": { schema: { type: "object", properties: { owner: { allOf: [{ $ref: "#/components/schemas/Owner" }], nullable: true } } } } } }, responses: OK_RESPONSES } } },
      { components: { schemas: { Owner: { type: "object", required: ["id"], properties: { id: { type: "integer" } } } } } },
    );
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: "http://unused.invalid" }));
    const check = compileArgumentsCheck(tools.x!.declaration()!.parameters!, "x");
    expect(check({ body: { owner: null } }).ok).toBe(true);
    expect(check({ body: { owner: { id: 1 } } }).ok).toBe(true);
    expect(check({ body: { owner: { name: "no id" } } }).ok).toBe(false);
  });

  it("reads 3.1's numeric exclusiveMinimum as it is and 3.0's boolean one as a bound", async () => {
    const operation = (bound: Record<string, unknown>) => ({ get: { operationId: "x", parameters: [{ name: "n", in: "query", schema: { type: "number", ...bound } }], responses: OK_RESPONSES } });
    const v30 = await toolsOf(new OpenAPIToolset({ document: documentWith({ "/x": operation({ minimum: 0, exclusiveMinimum: true }) }), baseUrl: "http://unused.invalid" }));
    const v31 = await toolsOf(new OpenAPIToolset({ document: { ...documentWith({ "/x": operation({ exclusiveMinimum: 0 }) }), openapi: "3.1.0" }, baseUrl: "http://unused.invalid" }));
    for (const tools of [v30, v31]) {
      const check = compileArgumentsCheck(tools.x!.declaration()!.parameters!, "x");
      expect([check({ n: 0 }).ok, check({ n: 0.1 }).ok]).toEqual([false, true]);
    }
  });
});

describe("OpenAPI relative server URLs and server variables", () => {
  it("resolves `/v1` against the host and `v1` against the folder of the address the document was served from, fetching it from there", async () => {
    const server = await recording((request) => (request.url.endsWith(".json") ? { status: 200, body: documentWith({ "/ping": { get: { operationId: "ping", responses: OK_RESPONSES } } }, { servers: [{ url: request.url.includes("root") ? "/v1" : "v2" }] }) } : { status: 200, body: { ok: true } }));
    const context = await createToolContext();
    for (const name of ["root", "folder"]) await (await toolsOf(new OpenAPIToolset({ url: `${server.url}/specs/${name}.json` }))).ping!.run({}, context);
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual(["GET /specs/root.json", "GET /v1/ping", "GET /specs/folder.json", "GET /specs/v2/ping"]);
  });

  it("resolves a relative server against `url` also when the document itself is given, and a document without servers against its `/`", async () => {
    const server = await recording();
    const context = await createToolContext();
    const withServer = documentWith({ "/a": { get: { operationId: "a", responses: OK_RESPONSES } } }, { servers: [{ url: "/api" }] });
    const without = documentWith({ "/b": { get: { operationId: "b", responses: OK_RESPONSES } } });
    await (await toolsOf(new OpenAPIToolset({ document: withServer, url: `${server.url}/docs/openapi.yaml` }))).a!.run({}, context);
    await (await toolsOf(new OpenAPIToolset({ document: without, url: `${server.url}/docs/openapi.yaml` }))).b!.run({}, context);
    expect(server.requests.map((request) => request.url)).toEqual(["/api/a", "/b"]);
  });

  it("refuses a relative server it cannot resolve with an error that says to pass baseUrl or url", async () => {
    const relative = documentWith({ "/a": { get: { operationId: "a", responses: OK_RESPONSES } } }, { servers: [{ url: "/v1" }] });
    const context = await createReadonlyContext();
    const fromObject = new OpenAPIToolset({ document: relative });
    await expect(fromObject.getTools(context)).rejects.toThrow('The server URL "/v1" of "Fidelity" is relative to where the document is served, and the document was given without an address. Pass baseUrl (where to send requests) or url (the address the document is served from).');
    const fromFile = new OpenAPIToolset({ path: join(import.meta.dirname, "fixtures", "relative-server.yaml") });
    await expect(fromFile.getTools(context)).rejects.toSatisfy((error: Error) => isToolsmithError(error) && error.code === "MISSING_BASE_URL" && error.message.includes(`was read from file://${join(import.meta.dirname, "fixtures", "relative-server.yaml")}. Pass baseUrl`));
    // With baseUrl the relative server is not needed.
    expect(Object.keys(await toolsOf(new OpenAPIToolset({ document: relative, baseUrl: "http://api.example" })))).toEqual(["a"]);
  });

  it("fills server variables from serverVariables, checked against their enum, or from their defaults", async () => {
    const echo: typeof fetch = async (url) => new Response(JSON.stringify({ url: String(url) }), { headers: { "content-type": "application/json" } });
    const servers = [{ url: "https://{region}.api.example/{version}", variables: { region: { default: "eu", enum: ["eu", "us"] }, version: { default: "v1" } } }];
    const document = documentWith({ "/a": { get: { operationId: "a", responses: OK_RESPONSES } } }, { servers });
    const context = await createToolContext();
    expect(await (await toolsOf(new OpenAPIToolset({ document, fetch: echo }))).a!.run({}, context)).toEqual({ url: "https://eu.api.example/v1/a" });
    expect(await (await toolsOf(new OpenAPIToolset({ document, fetch: echo, serverVariables: { region: "us", version: "v2" } }))).a!.run({}, context)).toEqual({ url: "https://us.api.example/v2/a" });
    await expect(new OpenAPIToolset({ document, serverVariables: { region: "mars" } }).getTools(await createReadonlyContext())).rejects.toThrow(
      'The server variable "region" of https://{region}.api.example/{version} is "mars", which is not one of "eu", "us". Pass one of them in serverVariables.',
    );
  });

  it("says when the document cannot be fetched from its url", async () => {
    const server = await recording(() => ({ status: 404, body: "no" }));
    await expect(new OpenAPIToolset({ url: `${server.url}/missing.json` }).getTools(await createReadonlyContext())).rejects.toThrow(`The OpenAPI document at ${server.url}/missing.json could not be fetched: HTTP 404. Check the address, or pass the document itself.`);
  });
});

describe("Loading OpenAPI documents quietly", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("prints nothing on the console while loading every example specification and checking its tools' schemas", async () => {
    const printed: unknown[][] = [];
    for (const method of ["warn", "error", "log", "info"] as const) vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push([method, ...args]));
    const { readdirSync } = await import("node:fs");
    let tools = 0;
    for (const version of ["3.0", "3.1"]) {
      for (const file of readdirSync(join(examples, version, "json")).filter((name) => name.endsWith(".json"))) {
        const toolset = new OpenAPIToolset({ path: join(examples, version, "json", file), baseUrl: "http://api.example" });
        for (const tool of await toolset.getTools(await createReadonlyContext())) {
          compileArgumentsCheck(tool.declaration()!.parameters!, tool.name)({});
          tools++;
        }
      }
    }
    expect(tools).toBeGreaterThan(200);
    expect(printed).toEqual([]);
  });
});
