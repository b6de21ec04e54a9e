/**
 * How much of an API's answer an OpenAPI tool reads. The body goes to the model and is stored in the session, so an
 * answer of a file, a huge list or a stream that never ends would fill memory, the session and the model's context.
 * Past `maxResponseBytes` (1 MiB by default) the model gets the first bytes, marked, and told the call ran.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import { createToolContext } from "../support/tool-context.js";
import { OK_RESPONSES, recording, toolsOf } from "./openapi-kit.js";

const document = { openapi: "3.1.0", info: { title: "Big", version: "1" }, paths: { "/items": { get: { operationId: "list_items", responses: OK_RESPONSES } } } };

describe("an OpenAPI tool's response body", () => {
  it("is read up to maxResponseBytes (1 MiB by default); past it the model gets the first bytes, marked, and told not to repeat the call", async () => {
    const items = Array.from({ length: 60_000 }, (_, index) => ({ id: index, name: `item number ${index}` }));
    const server = await recording(() => ({ status: 200, body: items }));
    const [byDefault, small] = await Promise.all([toolsOf(new OpenAPIToolset({ document, baseUrl: server.url })), toolsOf(new OpenAPIToolset({ document, baseUrl: server.url, maxResponseBytes: 100 }))]);
    const whole = JSON.stringify(items);
    expect(whole.length).toBeGreaterThan(2 * 1_048_576);

    const cut = (await byDefault.list_items!.run({}, await createToolContext())) as { truncated: boolean; body: string; note: string };
    expect(cut.truncated).toBe(true);
    expect(cut.body).toBe(whole.slice(0, 1_048_576));
    expect(cut.note).toBe("The response was longer than 1048576 bytes; body holds the first 1048576, as text. The call ran: ask for less (a page, a filter, fewer fields) rather than repeating it for the rest.");
    expect(await small.list_items!.run({}, await createToolContext())).toEqual({ truncated: true, body: whole.slice(0, 100), note: expect.stringContaining("longer than 100 bytes") });
  });

  it("is parsed as before when it fits, and an error answer past the limit keeps its status, marked truncated", async () => {
    let status = 200;
    const server = await recording(() => ({ status, body: status === 200 ? { ok: true } : "x".repeat(500) }));
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url, maxResponseBytes: 200 }));
    expect(await tools.list_items!.run({}, await createToolContext())).toEqual({ ok: true });
    status = 500;
    expect(await tools.list_items!.run({}, await createToolContext())).toMatchObject({ status: "error", httpStatus: 500, body: "x".repeat(200), truncated: true });
  });

  it("ends at the limit when the server never stops sending", async () => {
    let chunksSent = 0;
    const endless = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => {
        chunksSent++;
        response.write("y".repeat(16_384));
      }, 1);
      response.on("close", () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => endless.close(() => resolve())));
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: `http://127.0.0.1:${(endless.address() as AddressInfo).port}`, maxResponseBytes: 65_536 }));
    const result = (await tools.list_items!.run({}, await createToolContext())) as { truncated: boolean; body: string };
    expect(result.truncated).toBe(true);
    expect(result.body).toBe("y".repeat(65_536));
    console.log(`an endless response: read ${result.body.length} bytes, then let go after ${chunksSent} chunks of 16 KiB had been sent`);
    endless.closeAllConnections();
  });

  it("refuses a limit that is no whole number of bytes", () => {
    for (const given of [0, -1, 1.5, "1MB"]) {
      expect(() => new OpenAPIToolset({ document, maxResponseBytes: given as number })).toThrow(/^OpenAPIToolset: maxResponseBytes is how many bytes of a response body to read, a whole number from 1; it got /);
    }
  });
});
