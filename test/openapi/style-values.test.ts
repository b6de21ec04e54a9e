import { describe, expect, it } from "vitest";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import { createToolContext } from "../support/tool-context.js";
import { OK_RESPONSES, recording, toolsOf } from "./openapi-kit.js";

// The values of the Style Values table in OpenAPI 3.0.3 / 3.1.0 §4.8.12.4 ("Parameter Object" → "Style Examples"):
// a primitive 5, an array [3, 4, 5] and an object {"role": "admin", "firstName": "Alex"}, for a parameter named id.
const VALUES = { primitive: 5, array: [3, 4, 5], object: { role: "admin", firstName: "Alex" } } as const;
const SCHEMAS = { primitive: { type: "integer" }, array: { type: "array", items: { type: "integer" } }, object: { type: "object", properties: { role: { type: "string" }, firstName: { type: "string" } } } };
type Kind = keyof typeof VALUES;

/** Sends `id` of the given kind with one style and explode setting, and returns what the server received. */
async function send(location: "path" | "query" | "header" | "cookie", kind: Kind, style: string, explode: boolean) {
  const server = await recording();
  const path = location === "path" ? "/users/{id}" : "/users";
  const document = {
    openapi: "3.1.0",
    info: { title: "Styles", version: "1" },
    paths: { [path]: { get: { operationId: "call", parameters: [{ name: "id", in: location, required: true, style, explode, schema: SCHEMAS[kind] }], responses: OK_RESPONSES } } },
  };
  const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
  await tools.call!.run({ id: VALUES[kind] }, await createToolContext());
  const request = server.requests[0]!;
  if (location === "path") return request.url.slice("/users/".length);
  if (location === "query") return request.url.slice("/users?".length);
  if (location === "header") return request.headers.id as string;
  return request.headers.cookie as string;
}

describe("OpenAPI parameter serialisation, row by row of the specification's Style Values table", () => {
  // [style, explode, primitive, array, object] exactly as the table writes them (with `%20` for spaces).
  const pathRows: [string, boolean, string, string, string][] = [
    ["matrix", false, ";id=5", ";id=3,4,5", ";id=role,admin,firstName,Alex"],
    ["matrix", true, ";id=5", ";id=3;id=4;id=5", ";role=admin;firstName=Alex"],
    ["label", false, ".5", ".3,4,5", ".role,admin,firstName,Alex"],
    ["label", true, ".5", ".3.4.5", ".role=admin.firstName=Alex"],
    ["simple", false, "5", "3,4,5", "role,admin,firstName,Alex"],
    ["simple", true, "5", "3,4,5", "role=admin,firstName=Alex"],
  ];
  it.each(pathRows)("path %s, explode %s", async (style, explode, primitive, array, object) => {
    expect([await send("path", "primitive", style, explode), await send("path", "array", style, explode), await send("path", "object", style, explode)]).toEqual([primitive, array, object]);
  });

  const queryRows: [string, boolean, string, string | undefined, string | undefined][] = [
    ["form", false, "id=5", "id=3,4,5", "id=role,admin,firstName,Alex"],
    ["form", true, "id=5", "id=3&id=4&id=5", "role=admin&firstName=Alex"],
    ["spaceDelimited", false, "id=5", "id=3%204%205", "id=role%20admin%20firstName%20Alex"],
    ["pipeDelimited", false, "id=5", "id=3|4|5", "id=role|admin|firstName|Alex"],
    ["deepObject", true, "id=5", undefined, "id[role]=admin&id[firstName]=Alex"],
  ];
  it.each(queryRows)("query %s, explode %s", async (style, explode, primitive, array, object) => {
    expect(await send("query", "primitive", style, explode)).toBe(primitive);
    if (array !== undefined) expect(await send("query", "array", style, explode)).toBe(array);
    if (object !== undefined) expect(await send("query", "object", style, explode)).toBe(object);
  });

  it.each([
    [false, "5", "3,4,5", "role,admin,firstName,Alex"],
    [true, "5", "3,4,5", "role=admin,firstName=Alex"],
  ] as const)("header simple, explode %s", async (explode, primitive, array, object) => {
    expect([await send("header", "primitive", "simple", explode), await send("header", "array", "simple", explode), await send("header", "object", "simple", explode)]).toEqual([primitive, array, object]);
  });

  it.each([
    [false, "id=5", "id=3,4,5", "id=role,admin,firstName,Alex"],
    [true, "id=5", "id=3; id=4; id=5", "role=admin; firstName=Alex"],
  ] as const)("cookie form, explode %s (one cookie per exploded item, joined by the Cookie header's `; `)", async (explode, primitive, array, object) => {
    expect([await send("cookie", "primitive", "form", explode), await send("cookie", "array", "form", explode), await send("cookie", "object", "form", explode)]).toEqual([primitive, array, object]);
  });

  it("percent-encodes each value but not the delimiters between them, in every place", async () => {
    const server = await recording();
    const array = { type: "array", items: { type: "string" } };
    const document = {
      openapi: "3.0.3",
      info: { title: "Encoding", version: "1" },
      paths: {
        "/files/{names}": {
          get: {
            operationId: "files",
            parameters: [
              { name: "names", in: "path", required: true, style: "matrix", explode: true, schema: array },
              { name: "q", in: "query", style: "pipeDelimited", explode: false, schema: array },
              { name: "f", in: "query", style: "deepObject", explode: true, schema: { type: "object" } },
            ],
            responses: OK_RESPONSES,
          },
        },
      },
    };
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.files!.run({ names: ["a/b", "c;d"], q: ["x|y", "z&w"], f: { "a b": "1=2", nested: { deep: true } } }, await createToolContext());
    expect(server.requests[0]!.url).toBe("/files/;names=a%2Fb;names=c%3Bd?q=x%7Cy|z%26w&f[a%20b]=1%3D2&f[nested][deep]=true");
  });

  it("keeps reserved characters of a query value as they are when the parameter allows them, but not & = # +", async () => {
    const server = await recording();
    const document = {
      openapi: "3.0.3",
      info: { title: "Reserved", version: "1" },
      paths: { "/go": { get: { operationId: "go", parameters: [{ name: "to", in: "query", allowReserved: true, schema: { type: "string" } }, { name: "plain", in: "query", schema: { type: "string" } }], responses: OK_RESPONSES } } },
    };
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.go!.run({ to: "/a/b?c:d@e,f&g=h#i+j", plain: "/a?b" }, await createToolContext());
    expect(server.requests[0]!.url).toBe("/go?to=/a/b?c:d@e,f%26g%3Dh%23i%2Bj&plain=%2Fa%3Fb");
  });
});

describe("OpenAPI parameters described by `content`", () => {
  it("sends the value as one JSON text in query, path, header and cookie, not spread by a style", async () => {
    const server = await recording();
    const json = { "application/json": { schema: { type: "object", properties: { lat: { type: "number" }, tags: { type: "array", items: { type: "string" } } } } } };
    const document = {
      openapi: "3.0.3",
      info: { title: "Content", version: "1" },
      paths: {
        "/near/{where}": {
          get: {
            operationId: "near",
            parameters: [
              { name: "where", in: "path", required: true, content: json },
              { name: "filter", in: "query", content: json },
              { name: "X-Filter", in: "header", content: json },
              { name: "pref", in: "cookie", content: json },
            ],
            responses: OK_RESPONSES,
          },
        },
      },
    };
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    const value = { lat: 1.5, tags: ["a b", "c"] };
    await tools.near!.run({ where: value, filter: value, "X-Filter": value, pref: value }, await createToolContext());
    const request = server.requests[0]!;
    const text = JSON.stringify(value);
    expect(request.url).toBe(`/near/${encodeURIComponent(text)}?filter=${encodeURIComponent(text)}`);
    expect(new URL(request.url, server.url).searchParams.get("filter")).toBe(text);
    expect(request.headers["x-filter"]).toBe(text);
    expect(request.headers.cookie).toBe(`pref=${encodeURIComponent(text)}`);
  });
});
