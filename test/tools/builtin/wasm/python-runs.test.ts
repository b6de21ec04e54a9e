/**
 * How execute_python behaves across calls: what it copies in and writes back, one worker shared by parallel
 * calls, output caps, closing and starting again, the network when the developer allows it, and a deep agent
 * whose execute_python asks a person first.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemorySessionService, REQUEST_CONFIRMATION, Runner } from "../../../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../../../src/testing/index.js";
import { createDeepAgent, createFilesystemTools, createWasmExecution, FilesystemBackend } from "../../../../src/tools/builtin/index.js";
import { pick, toolHarness } from "../tool-harness.js";

const scratch = mkdtempSync(join(tmpdir(), "toolsmith-python-runs-"));
const root = join(scratch, "root");
mkdirSync(root);
const backend = new FilesystemBackend({ rootDirectory: root });
const execution = createWasmExecution({ backend, maxOutputBytes: 1_000 });
const python = pick(execution.tools, "execute_python");

beforeAll(() => execution.start(), 120_000);
afterAll(async () => {
  await execution.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("execute_python across calls", () => {
  it("sees a file changed on the host between calls, and the change it made itself", async () => {
    const harness = await toolHarness();
    writeFileSync(join(root, "counter.txt"), "1");
    expect(await harness.call(python, { code: "open('counter.txt').read()" })).toMatchObject({ result: "1" });
    writeFileSync(join(root, "counter.txt"), "2");
    expect(await harness.call(python, { code: "v = int(open('counter.txt').read())\nopen('counter.txt', 'w').write(str(v + 40))\nv" })).toMatchObject({ result: "2", files_written: ["/counter.txt"] });
    expect(readFileSync(join(root, "counter.txt"), "utf8")).toBe("42");
    expect(await harness.call(python, { code: "open('counter.txt').read()" })).toEqual({ status: "success", stdout: "", stderr: "", result: "42", truncated: false });
  });

  it("reports a file it deleted as not saved, and finds it again in the next call, since the backend keeps it", async () => {
    const harness = await toolHarness();
    writeFileSync(join(root, "kept.txt"), "still here");
    const removal = await harness.call(python, { code: "import os\nos.remove('kept.txt')\nos.path.exists('kept.txt')" });
    expect(removal).toMatchObject({ status: "success", result: "False", files_not_saved: [{ path: "/kept.txt", reason: expect.stringContaining("deletions are not carried back") }] });
    expect(await harness.call(python, { code: "open('kept.txt').read()" })).toMatchObject({ status: "success", result: "still here" });
  });

  it("does not save a binary file (the backend stores text) and says so", async () => {
    const harness = await toolHarness();
    const result = await harness.call(python, { code: "open('blob.bin', 'wb').write(bytes([0xff, 0x00, 0xfe]))" });
    expect(result).toMatchObject({ status: "success", files_not_saved: [{ path: "/blob.bin", reason: "it is not UTF-8 text, and the file backend stores text" }] });
  });

  it("keeps stdout and stderr apart and caps them together at maxOutputBytes", async () => {
    const harness = await toolHarness();
    expect(await harness.call(python, { code: "import sys\nprint('out')\nprint('err', file=sys.stderr)" })).toMatchObject({ stdout: "out\n", stderr: "err\n", truncated: false });
    const long = await harness.call(python, { code: "for i in range(500):\n    print('0123456789')" });
    expect(long).toMatchObject({ status: "success", truncated: true });
    expect(Buffer.byteLength(String(long.stdout))).toBe(1_000);
  });

  it("runs parallel calls one at a time on the one worker, each with its own variables", async () => {
    const harness = await toolHarness();
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 8 }, (_, index) => harness.call(python, { code: `x = ${index}\nimport time\ntime.sleep(0.05)\nx * 10` })));
    console.log(`8 parallel execute_python calls of 50 ms each: ${Date.now() - started} ms in all`);
    expect(results.map((result) => result.result)).toEqual(["0", "10", "20", "30", "40", "50", "60", "70"]);
  });

  it("refuses empty code and answers a syntax error with Python's message", async () => {
    const harness = await toolHarness();
    expect(await harness.call(python, { code: "   " })).toEqual({ status: "error", stdout: "", stderr: "", error: "code is empty. Give Python code to run.", truncated: false });
    expect(await harness.call(python, { code: "def f(:\n  pass" })).toMatchObject({ status: "error", error: expect.stringContaining("SyntaxError") });
  });

  it("starts a new worker after close, with the files still there", async () => {
    const own = createWasmExecution({ backend });
    const harness = await toolHarness();
    const tool = pick(own.tools, "execute_python");
    writeFileSync(join(root, "survives.txt"), "yes");
    expect(await harness.call(tool, { code: "open('survives.txt').read()" })).toMatchObject({ result: "yes" });
    await own.close();
    expect(await harness.call(tool, { code: "open('survives.txt').read()" })).toMatchObject({ result: "yes" });
    await own.close();
  }, 90_000);
});

describe("the worker's JavaScript heap limit", () => {
  it("ends a run that fills the JavaScript heap (heapMb) with the memory answer, and the next call gets a new worker", async () => {
    const small = createWasmExecution({ backend, heapMb: 96 });
    try {
      const harness = await toolHarness();
      const tool = pick(small.tools, "execute_python");
      // to_js copies a Python list into a JavaScript array: the JavaScript heap, not WebAssembly memory.
      const result = await harness.call(tool, { code: "from pyodide.ffi import to_js\nkeep = [to_js(list(range(2_000_000))) for _ in range(20)]" });
      console.log(`JavaScript heap hog with heapMb 96: ${String(result.error)}`);
      expect(result).toMatchObject({ status: "error", error: expect.stringContaining("MemoryError: the code filled the sandbox's JavaScript heap limit of 96 MiB") });
      expect(await harness.call(tool, { code: "2 ** 10" })).toMatchObject({ status: "success", result: "1024" });
    } finally {
      await small.close();
    }
  }, 120_000);
});

describe("the network, when the developer allows it", () => {
  let server: Server;
  let port = 0;
  let requests = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      requests++;
      response.end("hello from the host");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  it("lets Python fetch over HTTP with allowNetwork: true (pyodide.http.pyfetch); without it the same code cannot", async () => {
    const open = createWasmExecution({ backend, allowNetwork: true });
    try {
      const harness = await toolHarness();
      const code = `from pyodide.http import pyfetch\nresponse = await pyfetch("http://127.0.0.1:${port}/")\nawait response.string()`;
      expect(await harness.call(pick(open.tools, "execute_python"), { code })).toMatchObject({ status: "success", result: "hello from the host" });
      expect(requests).toBe(1);
      // Even with the network, JavaScript cannot be compiled from a string through what the js module offers.
      expect(await harness.call(pick(open.tools, "execute_python"), { code: "import js\njs.Object.constructor('return process')()" })).toMatchObject({ status: "error", error: expect.stringContaining("compiling JavaScript is not allowed") });
      const closed = await harness.call(python, { code });
      // Without the js module, pyfetch has no fetch to call.
      expect(closed, "the same code in the default sandbox").toMatchObject({ status: "error", error: expect.stringMatching(/NameError: name 'AbortController' is not defined$/) });
      expect(requests).toBe(1);
    } finally {
      await open.close();
    }
  }, 90_000);
});

describe("a deep agent with wasm execution", () => {
  it("asks a person before execute_python when interruptOn names it, and gives sub-agents the same tools", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "execute_python", args: { code: "open('ran.txt', 'w').write('ran')" } }), textResponse("waiting")]);
    const agent = createDeepAgent({ model, backend, execution: "wasm", interruptOn: { execute_python: true }, subagents: [{ name: "analyst", description: "Analyses data." }] });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: "app", agent, sessionService });
    try {
      const session = await sessionService.createSession({ appName: "app", userId: "u" });
      const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Run it.") }));
      const confirmation = events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CONFIRMATION);
      expect(confirmation?.functionCall?.args).toMatchObject({ originalFunctionCall: { name: "execute_python" } });
      expect(() => readFileSync(join(root, "ran.txt"))).toThrow();
      const declared = model.requests[0]!.functionDeclarations.map((declaration) => declaration.name);
      expect(declared).toEqual(expect.arrayContaining(["execute_python", "execute_bash", "install_packages", "analyst", "general_purpose"]));
    } finally {
      await runner.close();
    }
  });

  it("does not offload execute_python's output to a file: the tool caps its own output, as execute does", async () => {
    const model = new ScriptedModel([
      functionCallsResponse({ name: "execute_python", args: { code: "print('x' * 5000)" } }),
      (request) => textResponse(JSON.stringify(request.contents.at(-1)!.parts![0]!.functionResponse!.response).length > 900 ? "whole" : "offloaded"),
    ]);
    const agent = createDeepAgent({ model, backend, execution: { wasm: { maxOutputBytes: 1_000 } }, largeResultChars: 200 });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: "app", agent, sessionService });
    try {
      const session = await sessionService.createSession({ appName: "app", userId: "u" });
      const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Print.") }));
      const response = model.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse!.response as Record<string, unknown>;
      expect(response).toMatchObject({ status: "success", truncated: true });
      expect(Buffer.byteLength(String(response.stdout))).toBe(1_000);
      expect(events.at(-1)!.content!.parts![0]!.text).toBe("whole");
    } finally {
      await runner.close();
    }
  }, 60_000);

  it("offers the file tools and execute_python the same view of a file in one conversation", async () => {
    const model = new ScriptedModel([
      functionCallsResponse({ name: "execute_python", args: { code: "open('/workspace/from-python.md', 'w').write('# Written by Python\\n')" } }),
      functionCallsResponse({ name: "read_file", args: { file_path: "/from-python.md" } }),
      (request) => textResponse(JSON.stringify(request.contents.at(-1)!.parts![0]!.functionResponse!.response)),
    ]);
    const agent = createDeepAgent({ model, backend, execution: "wasm" });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: "app", agent, sessionService });
    try {
      const session = await sessionService.createSession({ appName: "app", userId: "u" });
      const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Go.") }));
      expect(events.at(-1)!.content!.parts![0]!.text).toContain("# Written by Python");
      expect(await (await toolHarness()).call(pick(createFilesystemTools({ backend }), "ls"), { path: "/" })).toMatchObject({ entries: expect.arrayContaining([expect.objectContaining({ path: "/from-python.md" })]) });
    } finally {
      await runner.close();
    }
  }, 60_000);
});
