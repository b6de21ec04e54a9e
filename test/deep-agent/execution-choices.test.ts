import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InMemorySessionService, LlmAgent, Runner, type Content, type LlmRequest } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { checkBubblewrap, createDeepAgent, createWasmExecution, FilesystemBackend, StateBackend, type DeepAgentExecution } from "../../src/tools/builtin/index.js";

const scratch = mkdtempSync(join(tmpdir(), "toolsmith-execution-choices-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const fixture = new URL("./fixtures/serve-wasm-execution.ts", import.meta.url).pathname;

const responses = (request: LlmRequest) => request.contents.flatMap((content: Content) => content.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));

/** What a tool answered, whether it came as an object (built-in tools) or as the JSON text of an MCP tool's result. */
function answerOf(response: Record<string, unknown>): Record<string, unknown> {
  return typeof response.text === "string" && Object.keys(response).length === 1 ? (JSON.parse(response.text) as Record<string, unknown>) : response;
}

/**
 * One deep-agent program, the same for every execution choice: write a file with the file tools, sum its
 * numbers with a shell command into another file, read that file back, and report.
 */
async function runProgram(execution: DeepAgentExecution, shellTool: string, root: string) {
  const model = new ScriptedModel([
    functionCallsResponse({ name: "write_file", args: { file_path: "/data/numbers.txt", content: "3\n4\n5\n" } }),
    functionCallsResponse({ name: shellTool, args: { command: "awk '{ s += $1 } END { print s }' data/numbers.txt > data/total.txt && cat data/total.txt" } }),
    functionCallsResponse({ name: "read_file", args: { file_path: "/data/total.txt" } }),
    (request) => textResponse(`total: ${JSON.stringify(responses(request).at(-1)!.response)}`),
  ]);
  const agent = createDeepAgent({ model, backend: new FilesystemBackend({ rootDirectory: root }), execution });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: "app", agent, sessionService });
  try {
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Sum the numbers.") }));
    const errors = events.filter((event) => event.errorMessage).map((event) => event.errorMessage);
    const declared = model.requests[0]!.functionDeclarations.map((declaration) => declaration.name);
    const shellAnswer = answerOf(responses(model.requests[2]!).at(-1)!.response as Record<string, unknown>);
    return { errors, declared, shellAnswer, final: events.at(-1)!.content?.parts?.[0]?.text };
  } finally {
    await runner.close();
  }
}

describe("the same deep-agent program with each execution choice", () => {
  it('"local": the execute tool on the host', async () => {
    const root = mkdtempSync(join(scratch, "local-"));
    const run = await runProgram("local", "execute", root);
    expect(run.errors).toEqual([]);
    expect(run.declared).toContain("execute");
    expect(run.shellAnswer).toEqual({ status: "success", output: "12\n", exit_code: 0, truncated: false });
    expect(run.final).toContain("12");
    expect(readFileSync(join(root, "data/total.txt"), "utf8")).toBe("12\n");
  });

  it('"sandbox": the execute tool under bubblewrap', async () => {
    const root = mkdtempSync(join(scratch, "sandbox-"));
    const check = await checkBubblewrap();
    const run = await runProgram("sandbox", "execute", root);
    if (!check.ok) {
      // A host where bubblewrap cannot work: the tool says so and runs nothing.
      expect(run.shellAnswer).toMatchObject({ status: "error", code: "SANDBOX_UNAVAILABLE" });
      return;
    }
    expect(run.shellAnswer).toEqual({ status: "success", output: "12\n", exit_code: 0, truncated: false });
    expect(run.final).toContain("12");
    expect(readFileSync(join(root, "data/total.txt"), "utf8")).toBe("12\n");
  });

  it('"wasm": execute_bash in just-bash over the same files, with execute_python and install_packages offered too', async () => {
    const root = mkdtempSync(join(scratch, "wasm-"));
    const run = await runProgram("wasm", "execute_bash", root);
    expect(run.errors).toEqual([]);
    expect(run.declared).toEqual(expect.arrayContaining(["execute_python", "execute_bash", "install_packages"]));
    expect(run.declared).not.toContain("execute");
    expect(run.shellAnswer).toEqual({ status: "success", output: "12\n", exit_code: 0, truncated: false, files_written: ["/data/total.txt"] });
    expect(run.final).toContain("12");
    expect(readFileSync(join(root, "data/total.txt"), "utf8")).toBe("12\n");
  });

  it("an MCP execution server ({ command, args }): its tools are offered and run the program over the same folder", async () => {
    const root = mkdtempSync(join(scratch, "mcp-"));
    const run = await runProgram({ command: process.execPath, args: ["--import", "tsx", fixture, root] }, "execute_bash", root);
    expect(run.errors).toEqual([]);
    expect(run.declared).toEqual(expect.arrayContaining(["execute_python", "execute_bash", "install_packages"]));
    expect(run.shellAnswer).toEqual({ status: "success", output: "12\n", exit_code: 0, truncated: false, files_written: ["/data/total.txt"] });
    expect(run.final).toContain("12");
    expect(readFileSync(join(root, "data/total.txt"), "utf8")).toBe("12\n");
    // runner.close() (in runProgram) closed the toolset, which ends the server's process.
    const pid = Number(readFileSync(join(root, ".server.pid"), "utf8"));
    for (let waited = 0; waited < 5_000 && isAlive(pid); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isAlive(pid)).toBe(false);
  }, 60_000);

  it("an MCP execution server at a URL ({ url }, Streamable HTTP)", async () => {
    const root = mkdtempSync(join(scratch, "mcp-url-"));
    const served = createWasmExecution({ backend: new FilesystemBackend({ rootDirectory: root }) });
    const listener = await createMcpServer({ name: "wasm-execution", tools: [served] }).listen();
    try {
      const run = await runProgram({ url: listener.url }, "execute_bash", root);
      expect(run.errors).toEqual([]);
      expect(run.shellAnswer).toEqual({ status: "success", output: "12\n", exit_code: 0, truncated: false, files_written: ["/data/total.txt"] });
      expect(readFileSync(join(root, "data/total.txt"), "utf8")).toBe("12\n");
    } finally {
      await listener.close();
      await served.close();
    }
  }, 60_000);

  it("Python through the wasm choice works over a StateBackend (no directory at all), where local execution is refused", async () => {
    const backend = new StateBackend();
    expect(() => createDeepAgent({ model: new ScriptedModel([]), backend, execution: "local" })).toThrow(expect.objectContaining({ code: "NO_WORKING_DIRECTORY" }));
    const model = new ScriptedModel([
      functionCallsResponse({ name: "write_file", args: { file_path: "/in.csv", content: "a,b\n1,2\n3,4\n" } }),
      functionCallsResponse({ name: "execute_python", args: { code: "import csv\nrows = list(csv.DictReader(open('in.csv')))\nopen('out.txt', 'w').write(str(sum(int(r['b']) for r in rows)))" } }),
      functionCallsResponse({ name: "read_file", args: { file_path: "/out.txt" } }),
      (request) => textResponse(JSON.stringify(responses(request).at(-1)!.response)),
    ]);
    const agent = createDeepAgent({ model, backend, execution: { wasm: { timeoutMs: 60_000 } } });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: "app", agent, sessionService });
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Sum column b.") }));
    await runner.close();
    expect(responses(model.requests[2]!).at(-1)!.response).toMatchObject({ status: "success", files_written: ["/out.txt"] });
    expect(events.at(-1)!.content?.parts?.[0]?.text).toContain("6");
  }, 60_000);

  it("ends the run with an error event, not a throw, when the MCP execution server cannot be reached or started", async () => {
    for (const execution of [{ url: "http://127.0.0.1:9/mcp" }, { command: "/nonexistent/heimdall" }] satisfies DeepAgentExecution[]) {
      const model = new ScriptedModel([textResponse("never asked")]);
      const agent = createDeepAgent({ model, backend: new StateBackend(), execution });
      const sessionService = new InMemorySessionService();
      const runner = new Runner({ appName: "app", agent, sessionService });
      const session = await sessionService.createSession({ appName: "app", userId: "u" });
      const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Hi.") }));
      await runner.close();
      const last = events.at(-1)!;
      console.log(`unreachable execution server ${JSON.stringify(execution)}: ${last.errorCode}: ${last.errorMessage}`);
      expect(last, JSON.stringify(execution)).toMatchObject({ errorCode: "TOOLSET_FAILED", errorMessage: expect.stringMatching(/could not list its tools: (fetch failed|spawn \/nonexistent\/heimdall ENOENT)\. Check that its server is running/) });
      expect(model.requests).toHaveLength(0);
    }
  }, 60_000);

  it("works as a plain toolset of any LlmAgent too, and runner.close() ends its worker (a later call starts a new one)", async () => {
    const backend = new StateBackend();
    const execution = createWasmExecution({ backend });
    const model = new ScriptedModel([
      functionCallsResponse({ name: "execute_bash", args: { command: "echo plain toolset > note.txt && cat note.txt" } }),
      (request) => textResponse(JSON.stringify(responses(request).at(-1)!.response)),
    ]);
    const agent = new LlmAgent({ name: "plain", model, tools: [execution] });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: "app", agent, sessionService });
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Note it.") }));
    expect(JSON.parse(events.at(-1)!.content!.parts![0]!.text!)).toEqual({ status: "success", output: "plain toolset\n", exit_code: 0, truncated: false, files_written: ["/note.txt"] });
    const stored = await sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.state["files:/note.txt"]).toBeDefined();
    await runner.close();
    await execution.start();
    await execution.close();
  }, 60_000);

  it("checks each choice's settings when the agent is made, not at the first call", () => {
    const make = (execution: DeepAgentExecution) => () => createDeepAgent({ model: new ScriptedModel([]), backend: new StateBackend(), execution });
    // Host execution needs a real directory; the WebAssembly sandbox does not.
    expect(make("sandbox")).toThrow(expect.objectContaining({ code: "NO_WORKING_DIRECTORY", message: expect.stringContaining("FilesystemBackend") }));
    expect(make({ sandbox: true, timeoutMs: 1_000 })).toThrow(expect.objectContaining({ code: "NO_WORKING_DIRECTORY" }));
    expect(make("wasm")).not.toThrow();
    expect(make({ wasm: { timeoutMs: -5 } })).toThrow(expect.objectContaining({ code: "INVALID_SANDBOX_OPTION", message: "timeoutMs is -5; give a positive number (the default is 120000)." }));
    expect(make({ wasm: { packageDirectory: "./wheels" } })).toThrow(expect.objectContaining({ code: "INVALID_SANDBOX_OPTION", message: expect.stringContaining("not an absolute path") }));
    // An MCP server is only connected at the first model call: making the agent starts nothing.
    expect(make({ command: "/nonexistent/heimdall" })).not.toThrow();
    expect(make({ url: "http://127.0.0.1:9/mcp", type: "sse" })).not.toThrow();
  });

  it("refuses an execution it does not know, naming the ones it does", () => {
    expect(() => createDeepAgent({ model: new ScriptedModel([]), execution: "heimdall" as never })).toThrow(expect.objectContaining({ code: "UNSUPPORTED_OPTION", message: expect.stringContaining('"wasm" (Python and bash in WebAssembly), or an MCP server as { command, args } or { url }') }));
    expect(existsSync(scratch)).toBe(true);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
