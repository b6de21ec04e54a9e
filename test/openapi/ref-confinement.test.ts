import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { ConfigurationError } from "../../src/index.js";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import { toolsOf } from "./openapi-kit.js";

const SECRET = "TOP SECRET FROM DISK";

/** A folder with a document (`spec/openapi.json`, its query parameter's schema a `$ref`), a schema file beside it and a secret one outside. */
function layout(ref: string) {
  const root = mkdtempSync(join(tmpdir(), "toolsmith-refs-"));
  mkdirSync(join(root, "spec", "schemas"), { recursive: true });
  writeFileSync(join(root, "spec", "schemas", "query.yaml"), "type: string\ndescription: the query\n");
  writeFileSync(join(root, "secret.yaml"), `type: string\ndescription: ${SECRET}\n`);
  symlinkSync(join(root, "secret.yaml"), join(root, "spec", "schemas", "linked.yaml"));
  const document = documentWith(ref);
  writeFileSync(join(root, "spec", "openapi.json"), JSON.stringify(document));
  return { root, path: join(root, "spec", "openapi.json"), document };
}

function documentWith(ref: string) {
  return {
    openapi: "3.0.3",
    info: { title: "Refs", version: "1" },
    servers: [{ url: "http://127.0.0.1:9" }],
    paths: { "/search": { get: { operationId: "search", parameters: [{ name: "q", in: "query", schema: { $ref: ref } }], responses: { "200": { description: "ok" } } } } },
  };
}

async function refusal(toolset: OpenAPIToolset): Promise<ConfigurationError> {
  const error = await toolsOf(toolset).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConfigurationError);
  expect(String((error as Error).message)).not.toContain(SECRET);
  return error as ConfigurationError;
}

describe("the files an OpenAPI document's $refs may read", () => {
  it("reads files in the document's folder and the folders under it, however the $ref names them", async () => {
    for (const ref of ["./schemas/query.yaml", "schemas/../schemas/query.yaml"]) {
      const { path } = layout(ref);
      const tools = await toolsOf(new OpenAPIToolset({ path }));
      expect(tools.search!.declaration()!.parameters).toMatchObject({ properties: { q: { type: "string", description: "the query" } } });
    }
    const { path, root } = layout("");
    writeFileSync(path, JSON.stringify(documentWith(pathToFileURL(join(root, "spec", "schemas", "query.yaml")).href)));
    expect((await toolsOf(new OpenAPIToolset({ path }))).search).toBeDefined();
  });

  it("refuses a file outside the document's folder, named relatively, absolutely or through a link inside it", async () => {
    for (const ref of ["../secret.yaml", "./schemas/linked.yaml"]) {
      const { path, root } = layout(ref);
      const error = await refusal(new OpenAPIToolset({ path }));
      expect(error.code).toBe("OPENAPI_REF_REFUSED");
      expect(error.message).toMatch(new RegExp(`names the file .* in a \\$ref, outside its folder ${join(root, "spec").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\. Move that file into the document's folder \\(or one under it\\), or put what it holds in the document\\.$`));
    }
    const { path, root } = layout("");
    writeFileSync(path, JSON.stringify(documentWith(pathToFileURL(join(root, "secret.yaml")).href)));
    expect((await refusal(new OpenAPIToolset({ path }))).code).toBe("OPENAPI_REF_REFUSED");
  });

  it("lets a document fetched from a URL, or given inline without a path, read no file at all", async () => {
    const { root } = layout("");
    const hostile = documentWith(pathToFileURL(join(root, "secret.yaml")).href);
    const server = createServer((_request, response) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(hostile)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.json`;
    const fetched = await refusal(new OpenAPIToolset({ url }));
    expect(fetched.message).toBe(`The document fetched from ${url} names the file ${join(root, "secret.yaml")} in a $ref, and may read no file on this machine. Put what it refers to in the document, or give it as \`path\` with its files beside it.`);
    const inline = await refusal(new OpenAPIToolset({ document: documentWith(".env") }));
    expect(inline.message).toMatch(/^A document given inline without `path` names the file .*\.env in a \$ref, and may read no file on this machine\./);
  });
});
