import { describe, expect, it } from "vitest";
import { isToolsmithError } from "../../src/index.js";
import { OpenAPIToolset, type OpenApiOperationTool } from "../../src/openapi/index.js";
import type { Tool } from "../../src/tools/tool.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";
import { OK_RESPONSES, recording, toolsOf } from "./openapi-kit.js";


function documentWith(paths: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { openapi: "3.1.0", info: { title: "Shop", version: "1" }, paths, ...extra };
}



describe("OpenAPI tool names and descriptions", () => {
  it("turns operationIds into names models accept: separators become _, a leading digit gets op_, at most 64 characters", async () => {
    const long = `list${"Everything".repeat(10)}`;
    const document = documentWith({
      "/a": { get: { operationId: "pets.list-all by owner", responses: OK_RESPONSES } },
      "/b": { get: { operationId: "2fa/verify", responses: OK_RESPONSES } },
      "/c": { get: { operationId: long, responses: OK_RESPONSES } },
      "/d": { get: { operationId: "__private__", responses: OK_RESPONSES } },
    });
    const names = Object.keys(await toolsOf(new OpenAPIToolset({ document, baseUrl: "http://unused.invalid" })));
    expect(names).toEqual(["pets_list_all_by_owner", "op_2fa_verify", long.slice(0, 64), "private"]);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/);
  });

  it("names an operation without operationId from its method and path", async () => {
    const document = documentWith({ "/stores/{storeId}/orders": { get: { responses: OK_RESPONSES }, post: { responses: OK_RESPONSES } } });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: "http://unused.invalid" }));
    expect(Object.keys(tools)).toEqual(["get_stores_storeId_orders", "post_stores_storeId_orders"]);
    expect((tools.get_stores_storeId_orders as OpenApiOperationTool).operation).toEqual({ method: "GET", path: "/stores/{storeId}/orders" });
  });

  it("describes a tool by its summary and description, or by method and path when it has neither", async () => {
    const document = documentWith({
      "/both": { get: { operationId: "both", summary: "Lists things.", description: "Paged, newest first.", responses: OK_RESPONSES } },
      "/one": { get: { operationId: "one", description: "Only a description.", responses: OK_RESPONSES } },
      "/none": { delete: { operationId: "none", responses: OK_RESPONSES } },
    });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: "http://unused.invalid" }));
    expect(tools.both!.description).toBe("Lists things.\n\nPaged, newest first.");
    expect(tools.one!.declaration()!.description).toBe("Only a description.");
    expect(tools.none!.description).toBe("DELETE /none");
  });

  it("refuses a document in which two operations become the same tool, naming it", async () => {
    const document = documentWith({ "/a": { get: { operationId: "get-item", responses: OK_RESPONSES } }, "/b": { get: { operationId: "get_item", responses: OK_RESPONSES } } });
    const toolset = new OpenAPIToolset({ document, baseUrl: "http://unused.invalid" });
    await expect(toolset.getTools(await createReadonlyContext())).rejects.toSatisfy(
      (error: Error) => isToolsmithError(error) && error.code === "OPENAPI_DUPLICATE_OPERATION" && error.message.includes('"get_item"') && error.message.includes("Shop"),
    );
  });
});

describe("OpenAPI request bodies", () => {
  it("takes a request body from components by $ref, with its description, and requires it when the document does", async () => {
    const server = await recording(() => ({ status: 201, body: { id: 1 } }));
    const document = documentWith(
      { "/orders": { post: { operationId: "createOrder", requestBody: { $ref: "#/components/requestBodies/Order" }, responses: { "201": OK_RESPONSES["200"] } } } },
      {
        components: {
          requestBodies: { Order: { required: true, description: "The order to place.", content: { "application/json": { schema: { $ref: "#/components/schemas/Order" } } } } },
          schemas: { Order: { type: "object", required: ["sku"], properties: { sku: { type: "string" }, quantity: { type: "integer" } } } },
        },
      },
    );
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    expect(tools.createOrder!.declaration()!.parameters).toEqual({
      type: "object",
      properties: { body: { type: "object", required: ["sku"], properties: { sku: { type: "string" }, quantity: { type: "integer" } }, description: "The order to place." } },
      required: ["body"],
    });
    expect(await tools.createOrder!.run({ body: { sku: "A-1", quantity: 2 } }, await createToolContext())).toEqual({ id: 1 });
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ sku: "A-1", quantity: 2 });
  });

  it("calls the body `requestBody` when a parameter is already named body", async () => {
    const server = await recording();
    const document = documentWith({
      "/notes": {
        put: {
          operationId: "putNote",
          parameters: [{ name: "body", in: "query", schema: { type: "string" } }],
          requestBody: { content: { "application/json": { schema: { type: "object", properties: { text: { type: "string" } } } } } },
          responses: OK_RESPONSES,
        },
      },
    });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    expect(Object.keys((tools.putNote!.declaration()!.parameters as { properties: object }).properties)).toEqual(["body", "requestBody"]);
    await tools.putNote!.run({ body: "short", requestBody: { text: "long" } }, await createToolContext());
    expect(server.requests[0]!.url).toBe("/notes?body=short");
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ text: "long" });
  });

  it("prefers JSON when the body may be sent in several media types", async () => {
    const server = await recording();
    const schema = { type: "object", properties: { a: { type: "string" } } };
    const document = documentWith({
      "/x": { post: { operationId: "send", requestBody: { content: { "application/xml": { schema }, "text/plain": { schema: { type: "string" } }, "application/json": { schema } } }, responses: OK_RESPONSES } },
    });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.send!.run({ body: { a: "b" } }, await createToolContext());
    expect(server.requests[0]!.headers["content-type"]).toBe("application/json");
    expect(server.requests[0]!.body).toBe('{"a":"b"}');
  });

  it("sends a vendor JSON media type as JSON under its own Content-Type", async () => {
    const server = await recording();
    const document = documentWith({ "/x": { patch: { operationId: "patchIt", requestBody: { content: { "application/merge-patch+json": { schema: { type: "object" } } } }, responses: OK_RESPONSES } } });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.patchIt!.run({ body: { name: null } }, await createToolContext());
    expect(server.requests[0]!.method).toBe("PATCH");
    expect(server.requests[0]!.headers["content-type"]).toBe("application/merge-patch+json");
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ name: null });
  });

  it("sends a text/plain body as the text itself, not as a JSON string", async () => {
    const server = await recording();
    const document = documentWith({ "/memo": { post: { operationId: "memo", requestBody: { content: { "text/plain": { schema: { type: "string" } } } }, responses: OK_RESPONSES } } });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.memo!.run({ body: 'He said "hi".' }, await createToolContext());
    expect(server.requests[0]!.headers["content-type"]).toBe("text/plain");
    expect(server.requests[0]!.body).toBe('He said "hi".');
  });

  it("writes an array in a form body as repeated fields (form, exploded), as a query parameter would be", async () => {
    const server = await recording();
    const document = documentWith({ "/form": { post: { operationId: "form", requestBody: { content: { "application/x-www-form-urlencoded": { schema: { type: "object" } } } }, responses: OK_RESPONSES } } });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.form!.run({ body: { name: "Ada", tags: ["x", "y"] } }, await createToolContext());
    const form = new URLSearchParams(server.requests[0]!.body);
    expect(form.get("name")).toBe("Ada");
    expect(form.getAll("tags")).toEqual(["x", "y"]);
  });

  it("sends no body and no Content-Type when the model gives no body for an optional one", async () => {
    const server = await recording();
    const document = documentWith({ "/x": { post: { operationId: "maybe", requestBody: { content: { "application/json": { schema: { type: "object" } } } }, responses: OK_RESPONSES } } });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    expect((tools.maybe!.declaration()!.parameters as { required?: string[] }).required).toBeUndefined();
    await tools.maybe!.run({}, await createToolContext());
    expect(server.requests[0]!.body).toBe("");
    expect(server.requests[0]!.headers["content-type"]).toBeUndefined();
  });
});

describe("OpenAPI Accept header", () => {
  it("asks for JSON when a success response offers it, for another JSON type or the only type otherwise, and for nothing when no response has content", async () => {
    const server = await recording();
    const document = documentWith({
      "/both": { get: { operationId: "both", responses: { "200": { description: "ok", content: { "application/xml": {}, "application/json": {} } } } } },
      "/vendor": { get: { operationId: "vendor", responses: { "200": { description: "ok", content: { "text/csv": {}, "application/hal+json": {} } } } } },
      "/csv": { get: { operationId: "csv", responses: { default: { description: "ok", content: { "text/csv": {} } }, "404": { description: "no", content: { "application/json": {} } } } } },
      "/empty": { delete: { operationId: "empty", responses: { "204": { description: "gone" } } } },
    });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    const context = await createToolContext();
    for (const name of ["both", "vendor", "csv", "empty"]) await tools[name]!.run({}, context);
    // Node's fetch adds "*/*" itself when no Accept is given.
    expect(server.requests.map((request) => request.headers.accept)).toEqual(["application/json", "application/hal+json", "text/csv", "*/*"]);
  });

  it("keeps an Accept header the toolset was configured with", async () => {
    const server = await recording();
    const document = documentWith({ "/x": { get: { operationId: "x", responses: OK_RESPONSES } } });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url, headers: { accept: "application/vnd.shop.v2+json" } }));
    await tools.x!.run({}, await createToolContext());
    expect(server.requests[0]!.headers.accept).toBe("application/vnd.shop.v2+json");
  });
});

describe("OpenAPI servers and base URLs", () => {
  const echoUrl: typeof fetch = async (url) => new Response(JSON.stringify({ url: String(url) }), { headers: { "content-type": "application/json" } });

  it("uses the operation's own servers over the path item's, and the path item's over the document's", async () => {
    const document = documentWith(
      {
        "/a": { get: { operationId: "documentLevel", responses: OK_RESPONSES } },
        "/b": { servers: [{ url: "https://path.example/api" }], get: { operationId: "pathLevel", responses: OK_RESPONSES }, post: { operationId: "operationLevel", servers: [{ url: "https://op.example" }], responses: OK_RESPONSES } },
      },
      { servers: [{ url: "https://{region}.doc.example/{base}", variables: { region: { default: "eu" }, base: { default: "v2" } } }, { url: "https://second.example" }] },
    );
    const tools = await toolsOf(new OpenAPIToolset({ document, fetch: echoUrl }));
    const context = await createToolContext();
    expect(await tools.documentLevel!.run({}, context)).toEqual({ url: "https://eu.doc.example/v2/a" });
    expect(await tools.pathLevel!.run({}, context)).toEqual({ url: "https://path.example/api/b" });
    expect(await tools.operationLevel!.run({}, context)).toEqual({ url: "https://op.example/b" });
  });

  it("sends every operation to the baseUrl option when it is given, whatever servers the document names, without doubling a trailing slash", async () => {
    const server = await recording();
    const document = documentWith(
      { "/a": { get: { operationId: "a", responses: OK_RESPONSES } }, "/b": { get: { operationId: "b", servers: [{ url: "https://op.invalid" }], responses: OK_RESPONSES } } },
      { servers: [{ url: "https://doc.invalid" }] },
    );
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: `${server.url}/prefix/` }));
    const context = await createToolContext();
    await tools.a!.run({}, context);
    await tools.b!.run({}, context);
    expect(server.requests.map((request) => request.url)).toEqual(["/prefix/a", "/prefix/b"]);
  });
});
