import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getFunctionResponses, LlmAgent, Runner } from "../../src/index.js";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { startChildServer, type ChildServer } from "../support/child-server.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";

const require = createRequire(import.meta.url);
const examples = dirname(require.resolve("@readme/oas-examples/package.json"));
const prismCli = join(dirname(require.resolve("@stoplight/prism-cli/package.json")), "dist", "index.js");

async function startPrism(spec: string): Promise<ChildServer> {
  // `prism mock` answers from the document and rejects requests that break it with 422.
  const port = await import("../support/child-server.js").then((module) => module.freePort());
  return startChildServer({ args: [prismCli, "mock", "-h", "127.0.0.1", "-p", String(port), spec], ready: /Prism is listening/, port, timeoutMs: 60_000 });
}

describe.each([
  ["3.0", "3.0/json/petstore.json"],
  ["3.1", "3.1/json/petstore.json"],
])("OpenAPIToolset against the Swagger Petstore %s served by prism mock", (_version, spec) => {
  let prism: ChildServer;
  beforeAll(async () => {
    prism = await startPrism(join(examples, spec));
  });
  afterAll(async () => {
    await prism?.stop();
  });

  function petstore(credentials = { api_key: { apiKey: "special-key" }, petstore_auth: { accessToken: "token" } }) {
    return new OpenAPIToolset({ path: join(examples, spec), baseUrl: `http://127.0.0.1:${prism.port}`, credentials });
  }

  it("lets an agent look up a pet and read the answer", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "petstore_getPetById", args: { petId: 1 } }), textResponse("Found doggie.")]);
    const agent = new LlmAgent({ name: "pet_shop", model, tools: [new OpenAPIToolset({ path: join(examples, spec), baseUrl: `http://127.0.0.1:${prism.port}`, credentials: { api_key: { apiKey: "k" } }, prefix: "petstore", toolFilter: ["getPetById", "findPetsByStatus"] })] });
    const runner = new Runner({ appName: "pets", agent });
    const session = await runner.sessionService.createSession({ appName: "pets", userId: "u1" });
    const events = await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage("Pet 1?") }));

    expect(model.requests[0]!.functionDeclarations.map((declaration) => declaration.name).sort()).toEqual(["petstore_findPetsByStatus", "petstore_getPetById"]);
    const response = getFunctionResponses(events[1]!.content)[0]!.response;
    expect(response).toMatchObject({ name: expect.any(String), photoUrls: expect.any(Array) });
  });

  it("sends array query parameters and a JSON body that the mock accepts", async () => {
    const tools = Object.fromEntries((await petstore().getTools(await createReadonlyContext())).map((tool) => [tool.name, tool]));
    expect(Object.keys(tools).length).toBeGreaterThanOrEqual(19);
    const context = await createToolContext();
    const found = await tools.findPetsByStatus!.run({ status: ["available", "sold"] }, context);
    expect(Array.isArray(found)).toBe(true);
    const order = await tools.placeOrder!.run({ body: { petId: 1, quantity: 2, status: "placed" } }, context);
    expect(order).toMatchObject({ id: expect.any(Number), status: expect.any(String) });
  });

  it("returns the mock's 422 for a request that breaks the document as an error result", async () => {
    const tools = Object.fromEntries((await petstore().getTools(await createReadonlyContext())).map((tool) => [tool.name, tool]));
    // Straight to run(), past the argument check, as a model's bad call would be if the schema were looser.
    const response = (await tools.addPet!.run({ body: { name: 42 } }, await createToolContext())) as Record<string, unknown>;
    expect(response).toMatchObject({ status: "error", httpStatus: 422, error: expect.stringContaining("HTTP 422") });
    expect(JSON.stringify(response.body)).toMatch(/photoUrls|name/);
  });

  it("does not call the API when the API key it requires is not configured", async () => {
    const withoutKey = new OpenAPIToolset({ path: join(examples, spec), baseUrl: `http://127.0.0.1:${prism.port}` });
    const getPetById = (await withoutKey.getTools(await createReadonlyContext())).find((tool) => tool.name === "getPetById")!;
    // The operation requires api_key and none is configured: the tool says so without calling.
    expect(await getPetById.run({ petId: 1 }, await createToolContext())).toMatchObject({ status: "error", error: expect.stringContaining("api_key") });
  });
});
