/**
 * WasmCodeExecutor: the model's Python run in Pyodide (WebAssembly) as an agent's code executor. Each run starts
 * clean, sees only its input files, reaches no host file and no network, and a run that hangs or is cancelled
 * stops without stopping the next.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryRunner, LlmAgent } from "../../../../src/index.js";
import { isToolsmithError } from "../../../../src/errors/toolsmith-error.js";
import { ScriptedModel, textResponse, userMessage } from "../../../../src/testing/index.js";
import { WasmCodeExecutor } from "../../../../src/tools/builtin/index.js";
import { CodeExecutionLanguage, type CodeExecutionInput } from "../../../../src/tools/code-executors/base-code-executor.js";

const executor = new WasmCodeExecutor({ timeoutSeconds: 5 });
const context = (signal = new AbortController().signal) => ({ abortSignal: signal }) as never;
const python = (code: string, rest: Partial<CodeExecutionInput> = {}, signal?: AbortSignal) =>
  executor.executeCode({ invocationContext: context(signal), codeExecutionInput: { code, language: CodeExecutionLanguage.PYTHON, inputFiles: [], ...rest } });

beforeAll(() => executor.start(), 120_000);
afterAll(() => executor.close());

describe("WasmCodeExecutor", () => {
  it("runs Python, gives the input files to it and the files it writes back", async () => {
    const result = await python("import os\nrows = open('data/in.csv').read().splitlines()\nos.makedirs('out', exist_ok=True)\nopen('out/count.txt', 'w').write(str(len(rows)))\nprint(len(rows))", {
      inputFiles: [{ name: "data/in.csv", content: "a,b\n1,2\n3,4", mimeType: "text/csv" }],
    });
    expect(result).toEqual({ stdout: "3\n", stderr: "", outputFiles: [{ name: "out/count.txt", content: "3", contentEncoding: "utf-8", mimeType: "text/plain" }] });
  });

  it("starts each run clean: no variable, no file of the run before", async () => {
    await python("secret = 42\nopen('left.txt', 'w').write('x')", { inputFiles: [{ name: "given.txt", content: "g", mimeType: "text/plain" }] });
    const next = await python("import os\nprint(sorted(os.listdir('.')))\nprint('secret' in globals())");
    expect(next).toEqual({ stdout: "[]\nFalse\n", stderr: "", outputFiles: [] });
  });

  it("shows a failure as the code's traceback, and passes arguments as sys.argv", async () => {
    const result = await python("import sys\nprint(sys.argv[1:])\nraise ValueError('bad input')", { args: { out: "a.txt", n: 3 } });
    expect(result.stdout).toBe("['--out', 'a.txt', '--n', '3']\n");
    expect(result.stderr).toMatch(/^Traceback \(most recent call last\):\n {2}File "<exec>", line 3, in <module>\nValueError: bad input$/);
  });

  it("gives each run its own sys.argv, and runs the code as written (a leading __future__ import works)", async () => {
    const withArgs = await python("from __future__ import annotations\nimport sys\nprint(sys.argv)", { args: { n: 1 } });
    expect(withArgs).toEqual({ stdout: "['script.py', '--n', '1']\n", stderr: "", outputFiles: [] });
    const after = await python("import sys\nprint(sys.argv)");
    expect(after).toEqual({ stdout: "['script.py']\n", stderr: "", outputFiles: [] });
  });

  it("reaches no host file and no network", async () => {
    const result = await python(
      "import os, urllib.request\n" +
        "for path in ['/etc/passwd', '/root', '" + process.cwd() + "/package.json']:\n" +
        "    print(path, os.path.exists(path))\n" +
        "try:\n    urllib.request.urlopen('http://127.0.0.1:9/', timeout=2)\n    print('network: reached')\nexcept Exception as error:\n    print('network:', type(error).__name__)",
    );
    console.log("from WebAssembly:", JSON.stringify(result.stdout));
    expect(result.stdout).toContain("/etc/passwd False\n/root False\n");
    expect(result.stdout).toContain("package.json False\n");
    expect(result.stdout).not.toContain("network: reached");
  });

  it("stops a run that passes the time limit, and the next run works", async () => {
    const started = Date.now();
    const result = await python("while True:\n    pass");
    console.log(`an endless loop under a 5 s limit returned after ${Date.now() - started} ms`);
    expect(result).toEqual({ stdout: "", stderr: "Code execution timed out after 5 seconds.", outputFiles: [] });
    expect((await python("print('again')")).stdout).toBe("again\n");
  }, 60_000);

  it("stops a run when the agent's run is cancelled, and runs nothing for a run cancelled before it starts", async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 500);
    const result = await python("while True:\n    pass", {}, abort.signal);
    expect(result.stderr).toBe("Code execution was stopped: the run was cancelled.");
    expect(await python("print(1)", {}, AbortSignal.abort())).toEqual({ stdout: "", stderr: "Code execution was stopped: the run was cancelled before the code started.", outputFiles: [] });
    expect((await python("print('after')")).stdout).toBe("after\n");
  }, 60_000);

  it("answers other languages as unsupported, and refuses input files named outside its folder", async () => {
    const shell = await executor.executeCode({ invocationContext: context(), codeExecutionInput: { code: "echo hi", language: CodeExecutionLanguage.SHELL, inputFiles: [] } });
    expect(shell).toEqual({ stdout: "", stderr: "Unsupported language: shell", outputFiles: [] });
    const error = await python("print(1)", { inputFiles: [{ name: "../escape.txt", content: "x", mimeType: "text/plain" }] }).catch((caught: unknown) => caught);
    expect(isToolsmithError(error) && error.code).toBe("PATH_REFUSED");
  });

  it("refuses an unknown option and a relative package folder", () => {
    expect(() => new WasmCodeExecutor({ timeout: 5 } as never)).toThrow(/WasmCodeExecutor.*timeout/);
    expect(() => new WasmCodeExecutor({ packageDirectory: "wheels" })).toThrow('WasmCodeExecutor\'s packageDirectory "wheels" is not an absolute path.');
  });

  it("runs an agent's code end to end: the result reaches the model and the file becomes an artifact", async () => {
    const fence = "```";
    const model = new ScriptedModel([textResponse(`${fence}python\nopen('squares.txt', 'w').write(' '.join(str(n * n) for n in range(5)))\nprint(sum(n * n for n in range(5)))\n${fence}`), textResponse("30.")]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "calculator", model, codeExecutor: executor }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    for await (const _event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("sum of squares below 5?") }));
    expect(model.requests[1]!.contents.at(-1)!.parts![0]!.text).toBe(`${fence}tool_output\nCode execution result:\n30\n\n\n\nSaved artifacts:\nsquares.txt\n${fence}`);
    const artifact = await runner.artifactService.loadArtifact({ appName: "app", userId: "u", sessionId: session.id, filename: "squares.txt" });
    expect(Buffer.from(artifact!.inlineData!.data!, "base64").toString()).toBe("0 1 4 9 16");
  });
});
