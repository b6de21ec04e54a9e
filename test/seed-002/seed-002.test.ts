/**
 * Seed 002 (adk-deepagents' built-in tools), held to the letter: every tool call the seed shows as "Example
 * usage by the LLM", and every result and error it documents, made by the scripted model through a deep
 * agent and compared with the seed's result key for key and message for message, over the state backend and
 * over a real directory. Keys the seed does not show are allowed only where they add something it lacks
 * (listed in EXTRA_KEYS); a message may go on after the seed's text with a sentence of guidance.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEvent, InMemorySessionService, Runner, type LlmRequest } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { createDeepAgent, FilesystemBackend, StateBackend, type Backend } from "../../src/tools/builtin/index.js";
import { findShell } from "../../src/tools/builtin/shell/execute-tool.js";

/** Keys toolsmith adds to a seed result, and why: each says something the seed's result does not. */
const EXTRA_KEYS: Record<string, string> = {
  code: "a machine-readable error code beside the message",
  occurrences: "how many times an ambiguous old_string occurs (the message says it too)",
};

const scratch = mkdtempSync(join(tmpdir(), "toolsmith-seed-002-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let roots = 0;

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/;

/** The project the seed's examples work on: /src/main.py, /src/utils.py, /docs, a README. */
const PROJECT: Record<string, string> = {
  "/src/main.py": "import os\nimport sys\n\ndef hello():\n    print('hello')\n\n# TODO: add argument parsing\n",
  "/src/app.py": "import flask\n\napp = flask.Flask(__name__)\n",
  "/docs/guide.md": "# Guide\n",
  "/readme.md": "Read me.\n",
};

const sizeOf = (path: string) => Buffer.byteLength(PROJECT[path]!);

const backends: Array<[string, () => Backend]> = [
  ["the state backend", () => new StateBackend()],
  ["a real directory", () => new FilesystemBackend({ rootDirectory: mkdtempSync(join(scratch, `root-${++roots}-`)) })],
];

/** Runs one model turn of tool calls through a deep agent over `backend` holding `files`; the results, in call order. */
async function callTools(backend: Backend, files: Record<string, string>, calls: Array<{ name: string; args?: Record<string, unknown> }>, extra: Parameters<typeof createDeepAgent>[0] | object = {}) {
  let results: Array<Record<string, unknown>> = [];
  const model = new ScriptedModel([
    functionCallsResponse(...calls),
    (request: LlmRequest) => {
      results = request.contents.at(-1)!.parts!.map((part) => part.functionResponse!.response as Record<string, unknown>);
      return textResponse("done");
    },
  ]);
  const agent = createDeepAgent({ model, backend, ...extra });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: "seed", agent, sessionService });
  const session = await sessionService.createSession({ appName: "seed", userId: "u" });
  await putFiles(backend, files, sessionService, session);
  await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
  return { results, model };
}

/** Puts the files in place: on disk for a directory, as a stored state change for the state backend. */
async function putFiles(backend: Backend, files: Record<string, string>, sessionService: InMemorySessionService, session: Awaited<ReturnType<InMemorySessionService["createSession"]>>) {
  if (backend instanceof FilesystemBackend) {
    for (const [path, content] of Object.entries(files)) {
      const real = join(backend.rootDirectory, path);
      mkdirSync(join(real, ".."), { recursive: true });
      writeFileSync(real, content);
    }
    return;
  }
  const stateDelta = Object.fromEntries(Object.entries(files).map(([path, content]) => [`files:${path}`, { content, modifiedAt: new Date().toISOString() }]));
  await sessionService.appendEvent({ session, event: createEvent({ invocationId: "setup", author: "user", actions: { stateDelta } }) });
}

/** The result matches the seed's: every seed key with the seed's value, any other key one of EXTRA_KEYS. */
function expectSeedResult(result: Record<string, unknown>, seed: Record<string, unknown>) {
  for (const key of Object.keys(result)) if (!(key in seed)) expect(Object.keys(EXTRA_KEYS), `unexpected key "${key}" in ${JSON.stringify(result)}`).toContain(key);
  expect(Object.fromEntries(Object.keys(seed).map((key) => [key, result[key]]))).toEqual(seed);
}

/** A message that starts with the seed's text, and may go on with a sentence of guidance. */
const seedMessage = (text: string) => expect.stringMatching(new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\. [A-Z].*)?$`));

describe.each(backends)("seed 002's filesystem and todo tools over %s", (_name, makeBackend) => {
  it('ls(path="/src"): entries of {path, is_dir, size, modified_at}; "Path traversal not allowed: ../etc/passwd"', async () => {
    const { results } = await callTools(makeBackend(), PROJECT, [{ name: "ls", args: { path: "/src" } }, { name: "ls", args: { path: "/" } }, { name: "ls", args: { path: "../etc/passwd" } }]);
    expectSeedResult(results[0]!, {
      status: "success",
      entries: [
        { path: "/src/app.py", is_dir: false, size: sizeOf("/src/app.py"), modified_at: expect.stringMatching(TIME) },
        { path: "/src/main.py", is_dir: false, size: sizeOf("/src/main.py"), modified_at: expect.stringMatching(TIME) },
      ],
    });
    expect(results[1]!.entries).toContainEqual({ path: "/src", is_dir: true, size: 0, modified_at: expect.stringMatching(TIME) });
    expectSeedResult(results[2]!, { status: "error", message: "Path traversal not allowed: ../etc/passwd" });
  });

  it('read_file(file_path="/src/main.py") in cat -n style, with offset and limit, the pagination note, and "Error: file not found"', async () => {
    const long = Array.from({ length: 2_150 }, (_, index) => `line ${index}`).join("\n");
    const { results } = await callTools(makeBackend(), { ...PROJECT, "/src/long.py": long }, [
      { name: "read_file", args: { file_path: "/src/main.py" } },
      { name: "read_file", args: { file_path: "/src/long.py", offset: 100, limit: 50 } },
      { name: "read_file", args: { file_path: "/src/long.py" } },
      { name: "read_file", args: { file_path: "/nonexistent.txt" } },
    ]);
    expectSeedResult(results[0]!, { status: "success", content: expect.stringMatching(/^ {5}1\timport os\n {5}2\timport sys\n {5}3\t\n/) });
    expect(String(results[1]!.content).split("\n")[0]).toBe("   101\tline 100");
    expect(String(results[1]!.content).split("\n")).toHaveLength(51);
    expect(String(results[2]!.content).endsWith("\n... (150 more lines. Use offset=2000 to continue reading)")).toBe(true);
    expectSeedResult(results[3]!, { status: "error", message: seedMessage("Error: file not found: /nonexistent.txt") });
  });

  it('write_file(file_path="/src/utils.py", …): {status, path}; "File already exists: /src/main.py. Use edit_file to modify."', async () => {
    const { results } = await callTools(makeBackend(), PROJECT, [
      { name: "write_file", args: { file_path: "/src/utils.py", content: "def add(a, b):\n    return a + b\n" } },
      { name: "write_file", args: { file_path: "/src/main.py", content: "x" } },
    ]);
    expectSeedResult(results[0]!, { status: "success", path: "/src/utils.py" });
    expectSeedResult(results[1]!, { status: "error", message: "File already exists: /src/main.py. Use edit_file to modify." });
  });

  it("edit_file(…): {status, path, occurrences}; not found, ambiguous and identical as the seed words them", async () => {
    const backend = makeBackend();
    const { results } = await callTools(backend, { ...PROJECT, "/src/many.py": "x = 1\nx = 1\nx = 1\n" }, [
      { name: "edit_file", args: { file_path: "/src/main.py", old_string: "def hello():\n    print('hello')", new_string: "def hello():\n    print('Hello, world!')" } },
      { name: "edit_file", args: { file_path: "/src/app.py", old_string: "django", new_string: "flask" } },
      { name: "edit_file", args: { file_path: "/src/many.py", old_string: "x = 1", new_string: "x = 2" } },
      { name: "edit_file", args: { file_path: "/src/app.py", old_string: "flask", new_string: "flask" } },
    ]);
    expectSeedResult(results[0]!, { status: "success", path: "/src/main.py", occurrences: 1 });
    expectSeedResult(results[1]!, { status: "error", message: seedMessage("old_string not found in file content") });
    expectSeedResult(results[2]!, { status: "error", message: "old_string appears 3 times. Provide more context to make it unique, or set replace_all=True." });
    expectSeedResult(results[3]!, { status: "error", message: "old_string and new_string are identical" });
  });

  it('glob(pattern="**/*.py") and glob(pattern="*.md", path="/docs"): entries; no matches: entries []', async () => {
    const { results } = await callTools(makeBackend(), PROJECT, [
      { name: "glob", args: { pattern: "**/*.py" } },
      { name: "glob", args: { pattern: "*.md", path: "/docs" } },
      { name: "glob", args: { pattern: "**/*.rs" } },
    ]);
    const entry = (path: string) => ({ path, is_dir: false, size: sizeOf(path), modified_at: expect.stringMatching(TIME) });
    expectSeedResult(results[0]!, { status: "success", entries: [entry("/src/app.py"), entry("/src/main.py")] });
    expectSeedResult(results[1]!, { status: "success", entries: [entry("/docs/guide.md")] });
    expectSeedResult(results[2]!, { status: "success", entries: [] });
  });

  it('grep(pattern="TODO", output_mode="content") and grep(pattern="import flask", path="/src", glob="*.py"): result text; count "path: N"; "No matches found."', async () => {
    const { results } = await callTools(makeBackend(), PROJECT, [
      { name: "grep", args: { pattern: "TODO", output_mode: "content" } },
      { name: "grep", args: { pattern: "import flask", path: "/src", glob: "*.py" } },
      { name: "grep", args: { pattern: "import", output_mode: "count" } },
      { name: "grep", args: { pattern: "nowhere to be found" } },
    ]);
    expectSeedResult(results[0]!, { status: "success", result: "/src/main.py:7:# TODO: add argument parsing" });
    expectSeedResult(results[1]!, { status: "success", result: "/src/app.py" });
    expectSeedResult(results[2]!, { status: "success", result: "/src/app.py: 1\n/src/main.py: 2" });
    expectSeedResult(results[3]!, { status: "success", result: "No matches found." });
  });

  it("write_todos(todos=[…]) answers {status, count}; read_todos() answers {todos}, [] when empty", async () => {
    const todos = [
      { content: "Implement user authentication", status: "in_progress" },
      { content: "Write unit tests", status: "pending" },
      { content: "Update README", status: "completed" },
    ];
    const backend = makeBackend();
    expectSeedResult((await callTools(backend, {}, [{ name: "read_todos" }])).results[0]!, { todos: [] });
    const { results } = await callTools(backend, {}, [{ name: "write_todos", args: { todos } }]);
    expectSeedResult(results[0]!, { status: "success", count: 3 });
  });

  it("makes each sub-agent spec an agent tool named after it, taking request, with general_purpose beside it", async () => {
    const { model } = await callTools(makeBackend(), {}, [{ name: "read_todos" }], {
      subagents: [{ name: "researcher", description: "Searches the codebase for relevant files and patterns.", systemPrompt: "You are a code research assistant. Search thoroughly." }],
    });
    const declared = model.requests[0]!.functionDeclarations.map((declaration) => declaration.name);
    expect(declared).toEqual(expect.arrayContaining(["researcher", "general_purpose"]));
    expect(model.requests[0]!.functionDeclarations.find((declaration) => declaration.name === "researcher")!.parameters).toEqual({ type: "object", properties: { request: { type: "string" } }, required: ["request"] });
  });
});

describe("seed 002's local execute tool", () => {
  const backend = () => new FilesystemBackend({ rootDirectory: mkdtempSync(join(scratch, `exec-${++roots}-`)) });

  it('execute(command=…) answers {status, output, exit_code, truncated}: success, a bash error with its exit code, and "Command timed out after 120.0s"', async () => {
    const { results } = await callTools(backend(), {}, [{ name: "execute", args: { command: "echo hello world" } }, { name: "execute", args: { command: "foo" } }], { execution: "local" });
    expectSeedResult(results[0]!, { status: "success", output: "hello world\n", exit_code: 0, truncated: false });
    const shellName = findShell().name;
    expectSeedResult(results[1]!, { status: "error", output: expect.stringMatching(new RegExp(`^${shellName}: (line 1: )?foo: (command )?not found\\n$`)), exit_code: 127, truncated: false });
    const timedOut = await callTools(backend(), {}, [{ name: "execute", args: { command: "echo started; sleep 5" } }], { execution: { timeoutMs: 300 } });
    expect(timedOut.results[0]).toEqual({ status: "error", output: "Command timed out after 0.3s", exit_code: -1, truncated: false });
  });
});
