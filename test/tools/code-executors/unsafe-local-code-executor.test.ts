import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/llm-agent/llm-agent.js";
import { CodeExecutionLanguage, FileContentEncoding, type CodeExecutionInput } from "../../../src/tools/code-executors/base-code-executor.js";
import { UnsafeLocalCodeExecutor } from "../../../src/tools/code-executors/unsafe-local-code-executor.js";
import { createInvocationContext, type InvocationContext } from "../../../src/agents/invocation-context.js";
import { InMemorySessionService } from "../../../src/sessions/in-memory-session-service.js";
import { isToolsmithError } from "../../../src/errors/toolsmith-error.js";

async function context(abortSignal?: AbortSignal): Promise<InvocationContext> {
  const sessionService = new InMemorySessionService();
  const session = await sessionService.createSession({ appName: "app", userId: "u" });
  return createInvocationContext({ agent: new LlmAgent({ name: "coder", model: "gemini-2.5-flash" }), session, sessionService, ...(abortSignal ? { abortSignal } : {}) });
}

const input = (code: string, language: CodeExecutionLanguage, rest: Partial<CodeExecutionInput> = {}): CodeExecutionInput => ({ code, language, inputFiles: [], ...rest });
const run = async (executor: UnsafeLocalCodeExecutor, codeExecutionInput: CodeExecutionInput, abortSignal?: AbortSignal) => executor.executeCode({ invocationContext: await context(abortSignal), codeExecutionInput });
const ourFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith("toolsmith-code-")).length;

describe("UnsafeLocalCodeExecutor", () => {
  const executor = new UnsafeLocalCodeExecutor({ timeoutSeconds: 10 });

  it("runs Python, JavaScript and shell code and gives back what each printed", async () => {
    expect(await run(executor, input("print(6 * 7)", CodeExecutionLanguage.PYTHON))).toEqual({ stdout: "42\n", stderr: "", outputFiles: [] });
    expect(await run(executor, input("console.log([1, 2].map((n) => n * 2).join(','))", CodeExecutionLanguage.JAVASCRIPT))).toEqual({ stdout: "2,4\n", stderr: "", outputFiles: [] });
    expect(await run(executor, input("echo $((2 + 3))", CodeExecutionLanguage.SHELL))).toEqual({ stdout: "5\n", stderr: "", outputFiles: [] });
  });

  it("passes arguments as a list, or as --key value pairs from an object, as ADK does", async () => {
    const printArgs = "import sys\nprint(sys.argv[1:])";
    expect((await run(executor, input(printArgs, CodeExecutionLanguage.PYTHON, { args: ["a", "b c"] }))).stdout).toBe("['a', 'b c']\n");
    expect((await run(executor, input(printArgs, CodeExecutionLanguage.PYTHON, { args: { out: "x.txt", verbose: true, n: 3 } }))).stdout).toBe("['--out', 'x.txt', '--verbose', 'true', '--n', '3']\n");
  });

  it("puts the input files beside the code and gives back only the files the code wrote, typed by their ending", async () => {
    const result = await run(
      executor,
      input("import os\nos.makedirs('out', exist_ok=True)\nrows = open('data/in.csv').read().splitlines()\nopen('out/count.txt', 'w').write(str(len(rows)))\nopen('pixel.png', 'wb').write(bytes([137, 80, 78, 71]))", CodeExecutionLanguage.PYTHON, {
        inputFiles: [
          { name: "data/in.csv", content: "a,b\n1,2\n3,4", mimeType: "text/csv" },
          { name: "logo.bin", content: Buffer.from([0, 1, 2]).toString("base64"), contentEncoding: FileContentEncoding.BASE64, mimeType: "application/octet-stream" },
        ],
      }),
    );
    expect(result.stderr).toBe("");
    expect(result.outputFiles).toEqual([
      { name: "out/count.txt", content: "3", contentEncoding: "utf-8", mimeType: "text/plain" },
      { name: "pixel.png", content: Buffer.from([137, 80, 78, 71]).toString("base64"), contentEncoding: "base64", mimeType: "image/png" },
    ]);
  });

  it("says how the code failed: its standard error, or its exit code when it wrote none", async () => {
    const failed = await run(executor, input("raise ValueError('bad input')", CodeExecutionLanguage.PYTHON));
    expect(failed.stderr).toContain("ValueError: bad input");
    expect(await run(executor, input("echo partial; exit 3", CodeExecutionLanguage.SHELL))).toEqual({ stdout: "partial\n", stderr: "Exit code 3", outputFiles: [] });
  });

  it("answers a language it cannot run with ADK's message, and a missing interpreter with the process error", async () => {
    expect(await run(executor, input("let x: number = 1", CodeExecutionLanguage.TYPESCRIPT))).toEqual({ stdout: "", stderr: "Unsupported language: typescript", outputFiles: [] });
    const missing = new UnsafeLocalCodeExecutor({ pythonCommandPath: "/nonexistent/python9" });
    const result = await run(missing, input("print(1)", CodeExecutionLanguage.PYTHON));
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^Process error: spawn \/nonexistent\/python9 ENOENT/);
  });

  it("kills everything the code started when the time runs out, background processes included", async () => {
    const marker = join(mkdtempSync(join(tmpdir(), "toolsmith-test-")), "survived");
    const quick = new UnsafeLocalCodeExecutor({ timeoutSeconds: 0.5 });
    const started = Date.now();
    const result = await run(quick, input(`(sleep 1.5; touch ${marker}) &\nsleep 30`, CodeExecutionLanguage.SHELL));
    const took = Date.now() - started;
    expect(result.stderr).toContain("Code execution timed out after 0.5 seconds.");
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(existsSync(marker)).toBe(false);
    console.log(`a 30 s script under a 0.5 s limit returned after ${took} ms; its background child did not survive`);
    expect(took).toBeLessThan(10_000);
  });

  it("stops the code when the run is cancelled", async () => {
    const abort = new AbortController();
    // Cancelled once the code is surely running (a fixed delay raced the interpreter's start on a loaded machine).
    const marker = join(mkdtempSync(join(tmpdir(), "toolsmith-test-")), "started");
    const running = run(executor, input(`import pathlib, time\nprint('started', flush=True)\npathlib.Path(${JSON.stringify(marker)}).touch()\ntime.sleep(30)`, CodeExecutionLanguage.PYTHON), abort.signal);
    await expect.poll(() => existsSync(marker), { timeout: 20_000, interval: 20 }).toBe(true);
    abort.abort();
    const result = await running;
    expect(result.stdout).toBe("started\n");
    expect(result.stderr).toContain("Code execution was stopped: the run was cancelled.");
  });

  it("runs nothing when the run was cancelled before the code started", async () => {
    const marker = join(mkdtempSync(join(tmpdir(), "toolsmith-test-")), "ran");
    const result = await run(executor, input(`touch ${marker}`, CodeExecutionLanguage.SHELL), AbortSignal.abort());
    expect(result).toEqual({ stdout: "", stderr: "Code execution was stopped: the run was cancelled before the code started.", outputFiles: [] });
    expect(existsSync(marker)).toBe(false);
  });

  it("caps what it keeps of the output and says so", async () => {
    const small = new UnsafeLocalCodeExecutor({ maxOutputBytes: 1000 });
    const result = await run(small, input("print('x' * 100000)", CodeExecutionLanguage.PYTHON));
    expect(result.stdout).toBe(`${"x".repeat(1000)}\n[Output cut at 1000 bytes.]`);
  });

  it("reads back at most the files and bytes allowed, naming those it left", async () => {
    const few = new UnsafeLocalCodeExecutor({ maxOutputFiles: 2 });
    const result = await run(few, input("for n in range(4): open(f'f{n}.txt', 'w').write(str(n))", CodeExecutionLanguage.PYTHON));
    expect(result.outputFiles.map((file) => file.name)).toEqual(["f0.txt", "f1.txt"]);
    expect(result.stdout).toBe("\n[Files not kept, over the limit of 2 files or 10485760 bytes: f2.txt, f3.txt.]");
  });

  it("refuses input files whose names leave the code's folder, writing nothing outside it", async () => {
    const outside = mkdtempSync(join(tmpdir(), "toolsmith-test-"));
    for (const name of ["../escape.txt", "/etc/escape.txt", `${outside}/escape.txt`, "a/../../escape.txt", "", "nul\0.txt"]) {
      const error = await run(executor, input("print(1)", CodeExecutionLanguage.PYTHON, { inputFiles: [{ name, content: "x", mimeType: "text/plain" }] })).catch((caught: unknown) => caught);
      expect(isToolsmithError(error) && error.code).toBe("PATH_REFUSED");
      expect((error as Error).message).toContain("leaves the folder the code runs in");
    }
    expect(readdirSync(outside)).toEqual([]);
  });

  it("never reads back through links the code leaves, whatever they point at (fuzzed)", async () => {
    const secretFolder = mkdtempSync(join(tmpdir(), "toolsmith-secret-"));
    writeFileSync(join(secretFolder, "secret.txt"), "TOP-SECRET");
    const targets = [join(secretFolder, "secret.txt"), secretFolder, "/etc/passwd", "/", ".."];
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ target: fc.constantFrom(...targets), name: fc.stringMatching(/^[a-z]{1,6}(\.txt)?$/) }), { minLength: 1, maxLength: 4 }), async (links) => {
        cases++;
        const code = links.map(({ target, name }, index) => `ln -s '${target}' '${name}${index}'`).join("\n") + "\necho real > real.txt";
        const result = await run(executor, input(code, CodeExecutionLanguage.SHELL));
        expect(result.outputFiles.map((file) => file.name)).toEqual(["real.txt"]);
        expect(JSON.stringify(result)).not.toContain("TOP-SECRET");
      }),
      { numRuns: 40 },
    );
    console.log(`links left by the code: ${cases} random layouts, no file read through a link`);
  });

  it("removes the folder it ran the code in", async () => {
    const before = ourFolders();
    await run(executor, input("open('left.txt', 'w').write('x')", CodeExecutionLanguage.PYTHON));
    expect(ourFolders()).toBe(before);
  });

  it("refuses an unknown option and a limit that is not a positive number, naming what it takes", () => {
    expect(() => new UnsafeLocalCodeExecutor({ timeout: 5 } as never)).toThrow('UnsafeLocalCodeExecutor has no option "timeout": it takes timeoutSeconds, commandPath, pythonCommandPath, shellCommandPath, maxOutputBytes, maxOutputFiles, maxOutputFileBytes. Check its spelling.');
    expect(() => new UnsafeLocalCodeExecutor({ timeoutSeconds: 0 })).toThrow("UnsafeLocalCodeExecutor's timeoutSeconds must be a positive number; it got 0.");
  });

  it("has ADK's defaults: not stateful, two failures in a row allowed, ADK's delimiters", () => {
    expect(executor.stateful).toBe(false);
    expect(executor.optimizeDataFile).toBe(false);
    expect(executor.errorRetryAttempts).toBe(2);
    expect(executor.codeBlockDelimiters[0]).toEqual(["```tool_code\n", "\n```"]);
    expect(executor.executionResultDelimiters).toEqual(["```tool_output\n", "\n```"]);
  });
});
