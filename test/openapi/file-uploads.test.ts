import { Buffer } from "node:buffer";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getFunctionResponses, InMemoryArtifactService, LlmAgent, Runner } from "../../src/index.js";
import { compileAnthropicSchema } from "../../src/models/schema/compile-anthropic-schema.js";
import { compileGeminiSchema } from "../../src/models/schema/compile-gemini-schema.js";
import { compileOpenAISchema } from "../../src/models/schema/compile-openai-schema.js";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { compileArgumentsCheck } from "../../src/tools/json-schema-validator.js";
import { startChildServer, freePort, type ChildServer } from "../support/child-server.js";
import { ToolContext } from "../../src/tools/tool-context.js";
import { createInvocation, createToolContext } from "../support/tool-context.js";
import { OK_RESPONSES, recording, toolsOf } from "./openapi-kit.js";
import type { RecordedRequest } from "./recording-server.js";
import { createRequire } from "node:module";
import { dirname } from "node:path";

const UPLOADS = join(import.meta.dirname, "fixtures", "uploads.yaml");
const prismCli = join(dirname(createRequire(import.meta.url).resolve("@stoplight/prism-cli/package.json")), "dist", "index.js");

/** Eight bytes that are not UTF-8 and hold a CRLF, as a PNG's signature does. */
const PNG_SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The body's parts as undici's multipart parser reads them: files with their name, type and bytes. */
async function partsOf(request: RecordedRequest) {
  const form = await new Response(request.raw, { headers: { "content-type": request.headers["content-type"]! } }).formData();
  const parts: { name: string; filename?: string; type?: string; bytes?: Uint8Array; text?: string }[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") parts.push({ name, text: value });
    else parts.push({ name, filename: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return parts;
}

/** A tool context whose session has the given artifacts. */
async function contextWithArtifacts(artifacts: Record<string, { data: Uint8Array; mimeType: string }>) {
  const context = new ToolContext({ invocation: (await createInvocation()).clone({ artifactService: new InMemoryArtifactService() }), functionCallId: "call-1" });
  for (const [name, artifact] of Object.entries(artifacts)) await context.saveArtifact(name, { inlineData: { data: Buffer.from(artifact.data).toString("base64"), mimeType: artifact.mimeType } });
  return context;
}

describe("OpenAPI multipart file fields take an artifact name or base64 content", () => {
  it("offers the model an artifact name or base64 for each file field, keeping the field's description, in a schema every provider compiles", async () => {
    const server = await recording();
    const tools = await toolsOf(new OpenAPIToolset({ path: UPLOADS, baseUrl: server.url }));
    const body = (tools.uploadPhoto!.declaration()!.parameters as any).properties.body;
    expect(body.properties.caption).toEqual({ type: "string" });
    expect(body.properties.photo.description).toMatch(/^The photo\. A file: give `artifact`, the name of an artifact saved in this session, or `base64`/);
    expect(body.properties.photo.anyOf.map((branch: any) => branch.required)).toEqual([["base64"], ["artifact"]]);
    const files = (tools.uploadAlbum!.declaration()!.parameters as any).properties.body.properties.files;
    expect(files).toMatchObject({ type: "array", items: { description: expect.stringContaining("A file (application/pdf)") } });

    const parameters = tools.uploadPhoto!.declaration()!.parameters!;
    expect(() => compileGeminiSchema(parameters)).not.toThrow();
    expect(compileOpenAISchema(parameters, { strict: false }).schema).toBeTruthy();
    expect(compileAnthropicSchema(parameters).schema).toBeTruthy();
    // The tool's own argument check accepts either input and refuses neither.
    const check = compileArgumentsCheck(parameters, "uploadPhoto");
    expect(check({ petId: 1, body: { photo: { artifact: "cat.png" } } }).ok).toBe(true);
    expect(check({ petId: 1, body: { photo: { base64: "iVBORw0KGgo=" } } }).ok).toBe(true);
    expect(check({ petId: 1, body: { photo: {} } }).ok).toBe(false);
  });

  it("sends an artifact's bytes as a file part named after the artifact, with the artifact's MIME type", async () => {
    const server = await recording();
    const tools = await toolsOf(new OpenAPIToolset({ path: UPLOADS, baseUrl: server.url }));
    const context = await contextWithArtifacts({ "cat.png": { data: PNG_SIGNATURE, mimeType: "image/png" } });
    await tools.uploadPhoto!.run({ petId: 7, body: { caption: "Tom", photo: { artifact: "cat.png" } } }, context);

    expect(server.requests[0]!.url).toBe("/pets/7/photo");
    expect(await partsOf(server.requests[0]!)).toEqual([
      { name: "caption", text: "Tom" },
      { name: "photo", filename: "cat.png", type: "image/png", bytes: PNG_SIGNATURE },
    ]);
  });

  it("sends base64 content as the decoded bytes, with the filename and type the model gave, and each item of a file array as its own part", async () => {
    const server = await recording();
    const tools = await toolsOf(new OpenAPIToolset({ path: UPLOADS, baseUrl: server.url }));
    const pdf = Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1");
    await tools.uploadAlbum!.run({ body: { files: [{ base64: pdf.toString("base64"), filename: "a.pdf" }, { base64: Buffer.from([0, 255, 13, 10]).toString("base64"), filename: "b.bin", contentType: "application/octet-stream" }] } }, await createToolContext());
    await tools.uploadDocuments!.run({ body: { file: { base64: pdf.toString("base64") }, signature: { base64: "c2lnbmVk" } } }, await createToolContext());
    const parts = await partsOf(server.requests[0]!);
    // The document's contentMediaType is the type when the model names none.
    expect(parts[0]).toEqual({ name: "files", filename: "a.pdf", type: "application/pdf", bytes: new Uint8Array(pdf) });
    expect(parts[1]).toEqual({ name: "files", filename: "b.bin", type: "application/octet-stream", bytes: Uint8Array.from([0, 255, 13, 10]) });
    // A field the document says is base64 carries the base64 text, marked with its transfer encoding.
    expect(server.requests[1]!.body).toMatch(/name="signature"; filename="signature"\r\nContent-Type: application\/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\nc2lnbmVk\r\n/);
  });

  it("still sends a plain string as the file's text, as before", async () => {
    const server = await recording();
    const document = {
      openapi: "3.0.3",
      info: { title: "Text file", version: "1" },
      paths: { "/notes": { post: { operationId: "note", requestBody: { content: { "multipart/form-data": { schema: { type: "object", properties: { note: { type: "string", format: "binary" } } } } } }, responses: OK_RESPONSES } } },
    };
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: server.url }));
    await tools.note!.run({ body: { note: "hello\nworld" } }, await createToolContext());
    expect(await partsOf(server.requests[0]!)).toEqual([{ name: "note", filename: "note", type: "application/octet-stream", bytes: new TextEncoder().encode("hello\nworld") }]);
  });

  it("answers with an error result the model can act on, without calling the API, for an unknown artifact, bad base64, both inputs, or no artifact service", async () => {
    const server = await recording();
    const tools = await toolsOf(new OpenAPIToolset({ path: UPLOADS, baseUrl: server.url }));
    const context = await contextWithArtifacts({ "dog.jpg": { data: Uint8Array.from([0xff, 0xd8]), mimeType: "image/jpeg" } });
    const call = (photo: unknown, toolContext = context) => tools.uploadPhoto!.run({ petId: 1, body: { photo } }, toolContext);

    expect(await call({ artifact: "cat.png" })).toEqual({
      status: "error",
      error: 'Tool "uploadPhoto": There is no artifact named "cat.png"; the session has "dog.jpg". Give the name of a saved artifact, or the file\'s content as "base64".',
    });
    expect(await call({ base64: "not base64!" })).toMatchObject({ status: "error", error: expect.stringContaining('has "base64" content that is not base64') });
    expect(await call({ base64: "AAAA", artifact: "dog.jpg" })).toMatchObject({ status: "error", error: expect.stringContaining('has both "artifact" and "base64"; give one of them') });
    expect(await call({})).toMatchObject({ status: "error", error: expect.stringContaining('needs "artifact"') });
    expect(await call({ artifact: "dog.jpg" }, await createToolContext())).toMatchObject({ status: "error", error: expect.stringContaining("no artifact service is configured (pass artifactService to the Runner)") });
    expect(server.requests).toEqual([]);
  });

  it("delivers any bytes unchanged, boundary look-alikes and CRLFs included (fuzzed)", async () => {
    const server = await recording();
    const tools = await toolsOf(new OpenAPIToolset({ path: UPLOADS, baseUrl: server.url }));
    const context = await createToolContext();
    const hostile = fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(new TextEncoder().encode("\r\n--toolsmith-\r\n--\r\n"), new Uint8Array(0), Uint8Array.from([0x0d, 0x0a, 0x0d, 0x0a])));
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(hostile, fc.string({ maxLength: 20 }), async (bytes, filename) => {
        runs++;
        const before = server.requests.length;
        await tools.uploadPhoto!.run({ petId: 1, body: { photo: { base64: Buffer.from(bytes).toString("base64"), filename: filename || "f", contentType: "image/png" } } }, context);
        const [photo] = await partsOf(server.requests[before]!);
        expect(photo!.bytes).toEqual(bytes);
      }),
      { numRuns: 150, seed: 16 },
    );
    console.log(`multipart file bytes fuzzed: ${runs} uploads, each received byte for byte by undici's multipart parser`);
  });
});

describe("OpenAPI file uploads against Prism's request validation", () => {
  let prism: ChildServer;
  beforeAll(async () => {
    const port = await freePort();
    prism = await startChildServer({ args: [prismCli, "mock", "-h", "127.0.0.1", "-p", String(port), UPLOADS], ready: /Prism is listening/, port, timeoutMs: 60_000 });
  }, 70_000);
  afterAll(async () => {
    await prism?.stop();
  });

  it("uploads an artifact the user gave through an agent's tool call, and Prism accepts the multipart request", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "uploadPhoto", args: { petId: 3, body: { caption: "Rex", photo: { artifact: "rex.png" } } } }), textResponse("Uploaded.")]);
    const artifactService = new InMemoryArtifactService();
    await artifactService.saveArtifact({ appName: "pets", userId: "u1", sessionId: "s1", filename: "rex.png", artifact: { inlineData: { data: Buffer.from(PNG_SIGNATURE).toString("base64"), mimeType: "image/png" } } });
    const agent = new LlmAgent({ name: "uploader", model, tools: [new OpenAPIToolset({ path: UPLOADS, baseUrl: `http://127.0.0.1:${prism.port}` })] });
    const runner = new Runner({ appName: "pets", agent, artifactService });
    await runner.sessionService.createSession({ appName: "pets", userId: "u1", sessionId: "s1" });
    const events = await collect(runner.runAsync({ userId: "u1", sessionId: "s1", newMessage: userMessage("Upload Rex's photo.") }));

    const [response] = getFunctionResponses(events.find((event) => getFunctionResponses(event.content).length > 0)!.content);
    expect(response!.response).toEqual({ stored: expect.any(Boolean) });
  });

  it("sends a base64 file and a base64-encoded field Prism accepts, and Prism refuses the same call without its required signature", async () => {
    const tools = await toolsOf(new OpenAPIToolset({ path: UPLOADS, baseUrl: `http://127.0.0.1:${prism.port}` }));
    const file = { base64: Buffer.from("%PDF-1.7 a").toString("base64"), filename: "a.pdf" };
    expect(await tools.uploadDocuments!.run({ body: { file, signature: { base64: "c2lnbmVk" } } }, await createToolContext())).toEqual({ count: expect.any(Number) });
    expect(await tools.uploadDocuments!.run({ body: { file } }, await createToolContext())).toMatchObject({ status: "error", httpStatus: 422, body: { validation: [expect.objectContaining({ message: expect.stringContaining("signature") })] } });
  });
});
