import { describe, expect, it } from "vitest";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import type { Tool } from "../../src/tools/tool.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";
import { OK_RESPONSES, recording, toolsOf } from "./openapi-kit.js";


function documentWith(paths: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { openapi: "3.0.3", info: { title: "Params", version: "1" }, paths, ...extra };
}



describe("OpenAPI path parameters", () => {
  it("serialises simple, label and matrix styles, percent-encoding each value but keeping the commas between array items", async () => {
    const server = await recording();
    const document = documentWith({
      "/simple/{ids}/label/{tag}/matrix/{point}": {
        get: {
          operationId: "styles",
          parameters: [
            { name: "ids", in: "path", required: true, schema: { type: "array", items: { type: "string" } } },
            { name: "tag", in: "path", required: true, style: "label", schema: { type: "string" } },
            { name: "point", in: "path", required: true, style: "matrix", schema: { type: "string" } },
          ],
          responses: OK_RESPONSES,
        },
      },
    });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.styles!.run({ ids: ["a/b", "c d"], tag: "x", point: "y" }, await createToolContext());
    // RFC 6570 / OpenAPI: simple is "a,b", label is ".x", matrix is ";point=y"; a slash inside a value must not split the path.
    expect(server.requests[0]!.url).toBe("/simple/a%2Fb,c%20d/label/.x/matrix/;point=y");
  });

  it("makes every path parameter required, even when the document forgets `required: true`", async () => {
    const document = documentWith({ "/items/{id}": { get: { operationId: "getItem", parameters: [{ name: "id", in: "path", schema: { type: "integer" } }], responses: OK_RESPONSES } } });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: "http://unused.invalid" }));
    expect(tools.getItem!.declaration()!.parameters).toEqual({ type: "object", properties: { id: { type: "integer" } }, required: ["id"] });
  });

  it("lets an operation's parameter override the path item's parameter of the same name and place", async () => {
    const server = await recording();
    const document = documentWith({
      "/items/{id}": {
        parameters: [
          { name: "id", in: "path", required: true, description: "From the path item.", schema: { type: "string" } },
          { name: "verbose", in: "query", schema: { type: "boolean" } },
        ],
        get: { operationId: "getItem", parameters: [{ name: "id", in: "path", required: true, description: "From the operation.", schema: { type: "integer" } }], responses: OK_RESPONSES },
      },
    });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    const parameters = tools.getItem!.declaration()!.parameters as { properties: Record<string, unknown>; required: string[] };
    expect(parameters.properties).toEqual({ id: { type: "integer", description: "From the operation." }, verbose: { type: "boolean" } });
    expect(parameters.required).toEqual(["id"]);
    await tools.getItem!.run({ id: 7, verbose: false }, await createToolContext());
    expect(server.requests[0]!.url).toBe("/items/7?verbose=false");
  });

  it("gives a name used in both path and query the place as prefix, and sends each to its place", async () => {
    const server = await recording();
    const document = documentWith({
      "/users/{id}": {
        get: {
          operationId: "getUser",
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" } },
            { name: "id", in: "query", schema: { type: "string" } },
          ],
          responses: OK_RESPONSES,
        },
      },
    });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    expect(Object.keys((tools.getUser!.declaration()!.parameters as { properties: object }).properties)).toEqual(["path_id", "query_id"]);
    await tools.getUser!.run({ path_id: "u1", query_id: "q9" }, await createToolContext());
    expect(server.requests[0]!.url).toBe("/users/u1?id=q9");
  });
});

describe("OpenAPI query parameters", () => {
  const queryOperation = (parameters: unknown[]) => documentWith({ "/search": { get: { operationId: "search", parameters, responses: OK_RESPONSES } } });

  it("serialises arrays as repeated keys (form, explode), comma-joined (explode false), pipe- and space-delimited", async () => {
    const server = await recording();
    const array = { type: "array", items: { type: "string" } };
    const document = queryOperation([
      { name: "exploded", in: "query", schema: array },
      { name: "joined", in: "query", explode: false, schema: array },
      { name: "piped", in: "query", style: "pipeDelimited", schema: array },
      { name: "spaced", in: "query", style: "spaceDelimited", schema: array },
    ]);
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.search!.run({ exploded: ["a", "b"], joined: ["c", "d"], piped: ["e", "f"], spaced: ["g", "h"] }, await createToolContext());
    const query = new URL(server.requests[0]!.url, server.url).searchParams;
    expect(query.getAll("exploded")).toEqual(["a", "b"]);
    expect(query.getAll("joined")).toEqual(["c,d"]);
    expect(query.getAll("piped")).toEqual(["e|f"]);
    expect(query.getAll("spaced")).toEqual(["g h"]);
  });

  it("spreads an exploded form object into its own keys, and writes an unexploded one as key,value pairs", async () => {
    const server = await recording();
    const object = { type: "object", properties: { color: { type: "string" }, size: { type: "integer" } } };
    const document = queryOperation([
      { name: "spread", in: "query", schema: object },
      { name: "packed", in: "query", explode: false, schema: object },
    ]);
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.search!.run({ spread: { color: "red", size: 3 }, packed: { color: "blue", size: 4 } }, await createToolContext());
    const query = new URL(server.requests[0]!.url, server.url).searchParams;
    expect(query.get("color")).toBe("red");
    expect(query.get("size")).toBe("3");
    expect(query.get("spread")).toBeNull();
    expect(query.get("packed")).toBe("color,blue,size,4");
  });

  it("leaves out arguments the model did not give, and encodes reserved characters in values", async () => {
    const server = await recording();
    const document = queryOperation([
      { name: "q", in: "query", required: true, schema: { type: "string" } },
      { name: "page", in: "query", schema: { type: "integer" } },
    ]);
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.search!.run({ q: "a&b=c #1" }, await createToolContext());
    // %20, not "+": "+" means a space only in form bodies, and some servers read it as a plus in a query.
    expect(server.requests[0]!.url).toBe("/search?q=a%26b%3Dc%20%231");
    expect(new URL(server.requests[0]!.url, server.url).searchParams.get("q")).toBe("a&b=c #1");
  });

  it("takes a parameter's schema from its `content` when it has no `schema`", async () => {
    const document = queryOperation([{ name: "filter", in: "query", content: { "application/json": { schema: { type: "object", properties: { a: { type: "string" } } } } } }]);
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: "http://unused.invalid" }));
    expect((tools.search!.declaration()!.parameters as { properties: Record<string, unknown> }).properties.filter).toEqual({ type: "object", properties: { a: { type: "string" } } });
  });
});

describe("OpenAPI header and cookie parameters", () => {
  it("sends arrays and objects in headers in the simple style, exploded when asked", async () => {
    const server = await recording();
    const document = documentWith({
      "/h": {
        get: {
          operationId: "headers",
          parameters: [
            { name: "X-List", in: "header", schema: { type: "array", items: { type: "integer" } } },
            { name: "X-Pairs", in: "header", schema: { type: "object" } },
            { name: "X-Exploded", in: "header", explode: true, schema: { type: "object" } },
          ],
          responses: OK_RESPONSES,
        },
      },
    });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.headers!.run({ "X-List": [1, 2, 3], "X-Pairs": { role: "admin", id: 5 }, "X-Exploded": { role: "admin", id: 5 } }, await createToolContext());
    expect(server.requests[0]!.headers).toMatchObject({ "x-list": "1,2,3", "x-pairs": "role,admin,id,5", "x-exploded": "role=admin,id=5" });
  });

  it("does not offer Accept, Content-Type or Authorization header parameters as arguments, since OpenAPI says they are ignored", async () => {
    const document = documentWith({
      "/h": {
        get: {
          operationId: "reserved",
          parameters: [
            { name: "Accept", in: "header", schema: { type: "string" } },
            { name: "content-type", in: "header", schema: { type: "string" } },
            { name: "Authorization", in: "header", required: true, schema: { type: "string" } },
            { name: "X-Kept", in: "header", schema: { type: "string" } },
          ],
          responses: OK_RESPONSES,
        },
      },
    });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: "http://unused.invalid" }));
    expect(tools.reserved!.declaration()!.parameters).toEqual({ type: "object", properties: { "X-Kept": { type: "string" } } });
  });

  it("joins several cookies into one Cookie header with their values encoded, an array one cookie per item (form, exploded by default)", async () => {
    const server = await recording();
    const document = documentWith({
      "/c": {
        get: {
          operationId: "cookies",
          parameters: [
            { name: "session", in: "cookie", schema: { type: "string" } },
            { name: "prefs", in: "cookie", schema: { type: "array", items: { type: "string" } } },
          ],
          responses: OK_RESPONSES,
        },
      },
    });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.cookies!.run({ session: "a; b", prefs: ["dark", "wide"] }, await createToolContext());
    expect(server.requests[0]!.headers.cookie).toBe("session=a%3B%20b; prefs=dark; prefs=wide");
  });

  it("sends the toolset's fixed headers with every call, while an argument for the same header wins", async () => {
    const server = await recording();
    const document = documentWith({ "/h": { get: { operationId: "tenant", parameters: [{ name: "X-Tenant", in: "header", schema: { type: "string" } }], responses: OK_RESPONSES } } });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url, headers: { "X-Tenant": "default", "X-Client": "toolsmith" } }));
    const context = await createToolContext();
    await tools.tenant!.run({}, context);
    await tools.tenant!.run({ "X-Tenant": "acme" }, context);
    expect(server.requests.map((request) => [request.headers["x-tenant"], request.headers["x-client"]])).toEqual([
      ["default", "toolsmith"],
      ["acme", "toolsmith"],
    ]);
  });
});
