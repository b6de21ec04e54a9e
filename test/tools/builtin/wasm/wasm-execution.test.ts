import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilesystemTools, createWasmExecution, FilesystemBackend, StateBackend } from "../../../../src/tools/builtin/index.js";
import { pick, toolHarness } from "../tool-harness.js";
import { storedZip } from "./stored-zip.js";

// A host secret in the environment: Python must not see it.
process.env.TOOLSMITH_WASM_TEST_SECRET = "host-secret-value";
const scratch = mkdtempSync(join(tmpdir(), "toolsmith-wasm-"));
const root = join(scratch, "root");
mkdirSync(root);
const backend = new FilesystemBackend({ rootDirectory: root });
// One Python worker for most tests: Pyodide takes seconds to start.
const execution = createWasmExecution({ backend, timeoutMs: 30_000 });
const python = pick(execution.tools, "execute_python");
const bash = pick(execution.tools, "execute_bash");
const fileTools = createFilesystemTools({ backend });

let server: Server;
let connections = 0;
let port = 0;

beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    socket.on("error", () => undefined);
    socket.end("HTTP/1.0 200 OK\r\n\r\nreached");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
  const started = Date.now();
  await execution.start();
  console.log(`wasm sandbox: Pyodide worker started in ${Date.now() - started} ms`);
}, 120_000);

afterAll(async () => {
  server.close();
  await execution.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the tools the model sees", () => {
  it("declares Heimdall's names and arguments: execute_python(code, packages?), execute_bash(command, cwd?), install_packages(packages)", () => {
    const declarations = Object.fromEntries(execution.tools.map((tool) => [tool.name, tool.declaration()!]));
    expect(Object.keys(declarations)).toEqual(["execute_python", "execute_bash", "install_packages"]);
    expect(declarations.execute_python!.parameters).toMatchObject({ type: "object", properties: { code: { type: "string" }, packages: { type: "array", items: { type: "string" } } }, required: ["code"] });
    expect(declarations.execute_bash!.parameters).toMatchObject({ type: "object", properties: { command: { type: "string" }, cwd: { type: "string" } }, required: ["command"] });
    expect(declarations.install_packages!.parameters).toMatchObject({ type: "object", properties: { packages: { type: "array", items: { type: "string" } } }, required: ["packages"] });
    // The descriptions tell the model where the files are and what it cannot do.
    expect(declarations.execute_python!.description).toContain("/workspace");
    expect(declarations.execute_python!.description).toContain("no network access");
    expect(declarations.execute_python!.description).toContain("stop after 30 s");
    expect(declarations.install_packages!.description).toContain("No package source is configured");
  });

  it("refuses bad arguments before running anything, with the argument named", async () => {
    const harness = await toolHarness();
    expect(await harness.call(python, {})).toMatchObject({ status: "error", invalid: expect.anything() });
    expect(await harness.call(pick(execution.tools, "install_packages"), { packages: "requests" })).toMatchObject({ status: "error", invalid: expect.anything() });
    expect(await harness.call(pick(execution.tools, "install_packages"), { packages: [] })).toEqual({ status: "error", results: [], message: "packages is empty. Name the packages to install." });
    expect(await harness.call(bash, { command: " " })).toEqual({ status: "error", output: "command is empty. Give a bash command to run.", exit_code: -1, truncated: false });
  });
});

describe("execute_python", () => {
  it("reads a file the file tools wrote and writes one they read, at the same paths under /workspace", async () => {
    const harness = await toolHarness();
    await harness.call(pick(fileTools, "write_file"), { file_path: "/data/numbers.txt", content: "3\n4\n5\n" });
    const result = await harness.call(python, {
      code: "nums = [int(line) for line in open('data/numbers.txt')]\nprint('sum', sum(nums))\nopen('/workspace/data/total.txt', 'w').write(str(sum(nums)))\nsum(nums) * 2",
    });
    expect(result).toEqual({ status: "success", stdout: "sum 12\n", stderr: "", result: "24", truncated: false, files_written: ["/data/total.txt"] });
    expect(await harness.call(pick(fileTools, "read_file"), { file_path: "/data/total.txt" })).toMatchObject({ content: expect.stringContaining("12") });
    expect(readFileSync(join(root, "data/total.txt"), "utf8")).toBe("12");
  });

  it("sees the files of a StateBackend too (session state), and each session only its own", async () => {
    const state = new StateBackend();
    const own = createWasmExecution({ backend: state });
    try {
      const first = await toolHarness();
      const second = await toolHarness();
      await first.call(pick(createFilesystemTools({ backend: state }), "write_file"), { file_path: "/secret.txt", content: "first session's" });
      const listing = "import os\nprint(sorted(os.listdir('.')))";
      expect(await first.call(pick(own.tools, "execute_python"), { code: listing })).toMatchObject({ status: "success", stdout: "['secret.txt']\n" });
      expect(await second.call(pick(own.tools, "execute_python"), { code: listing })).toMatchObject({ status: "success", stdout: "[]\n" });
    } finally {
      await own.close();
    }
  }, 60_000);

  it("answers a Python error with its traceback, without Pyodide's own frames, and starts each call with fresh variables", async () => {
    const harness = await toolHarness();
    await harness.call(python, { code: "leftover = 1" });
    const result = await harness.call(python, { code: "print('before')\nleftover" });
    expect(result).toMatchObject({ status: "error", stdout: "before\n", truncated: false });
    expect(result.error).toMatch(/^Traceback \(most recent call last\):\n {2}File "<exec>", line 2, in <module>\nNameError: name 'leftover' is not defined$/);
  });

  it("cannot reach the network: sockets and HTTP fail cleanly and the server is never contacted", async () => {
    const harness = await toolHarness();
    const socket = await harness.call(python, { code: `import socket\nsocket.create_connection(("127.0.0.1", ${port}), timeout=5).recv(10)` });
    const http = await harness.call(python, { code: `import urllib.request\nurllib.request.urlopen("http://127.0.0.1:${port}/", timeout=5).read()` });
    console.log(`network from Python: socket → ${String(socket.error).split("\n").at(-1)}; urllib → ${String(http.error).split("\n").at(-1)}`);
    expect(socket).toMatchObject({ status: "error", error: expect.stringMatching(/OSError: \[Errno 23\] Host is unreachable$/) });
    expect(http).toMatchObject({ status: "error", error: expect.stringMatching(/URLError: <urlopen error \[Errno 23\] Host is unreachable>$/) });
    expect(connections).toBe(0);
  });

  it("cannot reach the host through Python's file API, os.system or the bridge to JavaScript", async () => {
    const harness = await toolHarness();
    const outsideMarker = join(scratch, "outside.txt");
    writeFileSync(outsideMarker, "host secret");
    // A host symlink inside the root, pointing out of it: the backend does not follow it.
    symlinkSync("/etc/passwd", join(root, "passwd-link"));
    const attempts: Record<string, string> = {
      "relative escape": "open('../../etc/passwd').read()",
      "absolute host path": `open(${JSON.stringify(outsideMarker)}).read()`,
      "host symlink in the root": "open('passwd-link').read()",
      "os.system": "import os\nassert os.system('touch /tmp/toolsmith-wasm-pwned') == 0",
      subprocess: "import subprocess\nsubprocess.run(['touch', '/tmp/toolsmith-wasm-pwned'])",
      "import js": "import js\njs.process.pid",
      "import pyodide_js": "import pyodide_js",
      "run_js": "from pyodide.code import run_js\nrun_js('process.pid')",
      "Function constructor": "from pyodide.ffi import to_js\nto_js({}).constructor.constructor('return process')().pid",
    };
    const answers: Record<string, string> = {};
    for (const [name, code] of Object.entries(attempts)) {
      const result = await harness.call(python, { code });
      answers[name] = String(result.error).split("\n").at(-1)!;
      expect(result.status, name).toBe("error");
      expect(JSON.stringify(result), name).not.toMatch(/root:x:0|host secret/);
    }
    console.log("hostile Python:", answers);
    const environment = await harness.call(python, { code: "import os\nsorted(os.environ)" });
    expect(environment.status).toBe("success");
    expect(String(environment.result)).not.toContain("TOOLSMITH_WASM_TEST_SECRET");
    expect(existsSync("/tmp/toolsmith-wasm-pwned")).toBe(false);
    expect(answers["import js"]).toBe("ModuleNotFoundError: No module named 'js'");
    expect(answers["Function constructor"]).toContain("compiling JavaScript is not allowed in the WebAssembly sandbox");
    rmSync(join(root, "passwd-link"));
  });

  it("does not save a symlink Python made to a host file, nor follow it on the way back", async () => {
    const harness = await toolHarness();
    const result = await harness.call(python, { code: "import os\nos.symlink('/etc/passwd', 'stolen')\nprint('made')" });
    expect(result).toMatchObject({ status: "success", files_not_saved: [{ path: "/stolen", reason: "it is a symbolic link; links are not saved" }] });
    expect(existsSync(join(root, "stolen"))).toBe(false);
  });

  it("writes files at any path Python names only inside the root (fuzzed paths)", async () => {
    const harness = await toolHarness();
    const segment = fc.constantFrom("..", ".", "a", "b", "etc", "", "tmp", "workspace", "%2e%2e", "…");
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 6 }), fc.boolean(), async (segments, absolute) => {
        runs++;
        const path = (absolute ? "/" : "") + segments.join("/") + "/fuzz.txt";
        await harness.call(python, { code: `import os\np = ${JSON.stringify(path)}\nos.makedirs(os.path.dirname(os.path.abspath(p)), exist_ok=True)\nopen(p, 'w').write('x')` });
        expect(existsSync(join(scratch, "fuzz.txt"))).toBe(false);
        expect(existsSync("/fuzz.txt")).toBe(false);
        expect(existsSync("/tmp/fuzz.txt")).toBe(false);
      }),
      { numRuns: 40 },
    );
    console.log(`fuzzed Python write paths: ${runs} runs, no file outside the root`);
  }, 60_000);

  it("refuses install_packages cleanly when no local package directory is configured, downloading nothing", async () => {
    const harness = await toolHarness();
    const result = await harness.call(pick(execution.tools, "install_packages"), { packages: ["requests"] });
    expect(result).toMatchObject({ status: "error", results: [{ package: "requests", success: false, error: expect.stringContaining("nothing is downloaded") }] });
    const viaRun = await harness.call(python, { code: "import requests", packages: ["requests"] });
    expect(viaRun).toMatchObject({ status: "error", error: "The code did not run: some packages could not be installed." });
  });
});

describe("execute_bash", () => {
  it("works over the same files as the file tools and Python, with execute's result shape", async () => {
    const harness = await toolHarness();
    await harness.call(pick(fileTools, "write_file"), { file_path: "/bash/in.txt", content: "b\na\nc\n" });
    const result = await harness.call(bash, { command: "sort bash/in.txt > bash/sorted.txt && wc -l < bash/sorted.txt" });
    expect(result).toEqual({ status: "success", output: "3\n", exit_code: 0, truncated: false, files_written: ["/bash/sorted.txt"] });
    expect(await harness.call(python, { code: "open('bash/sorted.txt').read()" })).toMatchObject({ result: "a\nb\nc\n" });
    expect(await harness.call(bash, { command: "cat missing.txt" })).toMatchObject({ status: "error", exit_code: 1, output: expect.stringContaining("No such file or directory") });
  });

  it("cannot read host files through ../ or a symlink, nor save a symlink, nor reach the network with curl", async () => {
    const harness = await toolHarness();
    const escape = await harness.call(bash, { command: "cat ../../etc/passwd; cat /etc/passwd" });
    expect(escape.status).toBe("error");
    expect(String(escape.output)).not.toContain("root:x:0");
    const curl = await harness.call(bash, { command: `curl -s http://127.0.0.1:${port}/` });
    expect(curl.status).toBe("error");
    expect(connections).toBe(0);
    const link = await harness.call(bash, { command: "ln -s /etc/passwd link && cat link" });
    expect(String(link.output)).not.toContain("root:x:0");
    expect(existsSync(join(root, "link"))).toBe(false);
    expect(await harness.call(bash, { command: "pwd", cwd: "../.." })).toMatchObject({ status: "error", output: expect.stringContaining("outside the workspace") });
    expect(await harness.call(bash, { command: "pwd", cwd: "bash" })).toMatchObject({ status: "success", output: "/workspace/bash\n" });
  });
});

describe("the wasm sandbox's limits", () => {
  const limited = createWasmExecution({ backend: new StateBackend(), timeoutMs: 2_000, memoryBytes: 160 * 1024 ** 2 });
  afterAll(() => limited.close());

  it("kills Python at its timeout, says so, and answers the next call from a fresh interpreter", async () => {
    const harness = await toolHarness();
    const tool = pick(limited.tools, "execute_python");
    await limited.start();
    const started = Date.now();
    const result = await harness.call(tool, { code: "while True:\n    pass" });
    const elapsed = Date.now() - started;
    console.log(`endless loop: killed after ${elapsed} ms (timeout 2,000 ms): ${String(result.error)}`);
    expect(result).toEqual({ status: "error", stdout: "", stderr: "", truncated: false, error: expect.stringMatching(/^Execution timed out after 2\.0s\. The Python environment was restarted/) });
    expect(elapsed).toBeLessThan(15_000);
    expect(await harness.call(tool, { code: "1 + 1" }), "the next call after a kill").toMatchObject({ status: "success", result: "2" });
  }, 90_000);

  it("stops Python at its memory cap with MemoryError and the cap in the message", async () => {
    const harness = await toolHarness();
    const tool = pick(limited.tools, "execute_python");
    const result = await harness.call(tool, { code: "chunks = []\nwhile True:\n    chunks.append(bytearray(16 * 1024 * 1024))" });
    console.log(`memory hog: ${String(result.error).split("\n").slice(-2).join(" / ")}`);
    expect(result).toMatchObject({ status: "error", error: expect.stringContaining("MemoryError: the code used more than the memory cap of 160 MiB") });
    expect(await harness.call(tool, { code: "len(bytearray(1024))" }), "the next call after the cap").toMatchObject({ status: "success", result: "1024" });
  }, 90_000);

  it("refuses limits that are not positive numbers when made", () => {
    expect(() => createWasmExecution({ backend: new StateBackend(), memoryBytes: 0 })).toThrow(expect.objectContaining({ code: "INVALID_SANDBOX_OPTION", message: expect.stringContaining("memoryBytes is 0") }));
    expect(() => createWasmExecution({ backend: new StateBackend(), packageDirectory: "wheels" })).toThrow(expect.objectContaining({ message: expect.stringContaining("not an absolute path") }));
  });
});

describe("install_packages from a local directory", () => {
  const wheels = join(scratch, "wheels");
  mkdirSync(wheels);
  const wheel = storedZip({
    "toolsmith_demo/__init__.py": "def greet(name):\n    return f'hello {name}'\n",
    "toolsmith_demo-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: toolsmith-demo\nVersion: 1.0\n",
    "toolsmith_demo-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    "toolsmith_demo-1.0.dist-info/RECORD": "",
  });
  writeFileSync(join(wheels, "toolsmith_demo-1.0-py3-none-any.whl"), wheel);
  const withWheels = createWasmExecution({ backend: new StateBackend(), packageDirectory: wheels });
  afterAll(() => withWheels.close());

  it("installs a wheel found there, and refuses a Pyodide package whose wheels are not there, naming them", async () => {
    const harness = await toolHarness();
    const install = pick(withWheels.tools, "install_packages");
    const result = await harness.call(install, { packages: ["toolsmith-demo", "numpy", "../../evil"] });
    expect(result).toMatchObject({
      status: "error",
      results: [
        { package: "toolsmith-demo", success: true },
        { package: "numpy", success: false, error: expect.stringMatching(/numpy needs numpy-.*\.whl, not found in .*wheels.*nothing is downloaded/) },
        { package: "../../evil", success: false, error: expect.stringContaining("is not a package name") },
      ],
    });
    expect(await harness.call(pick(withWheels.tools, "execute_python"), { code: "import toolsmith_demo\ntoolsmith_demo.greet('wasm')" })).toMatchObject({ status: "success", result: "hello wasm" });
  }, 90_000);

  it("installs the packages execute_python names before running its code, in the same call", async () => {
    const harness = await toolHarness();
    writeFileSync(join(wheels, "toolsmith_other-0.1-py3-none-any.whl"), storedZip({
      "toolsmith_other/__init__.py": "VALUE = 7\n",
      "toolsmith_other-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: toolsmith-other\nVersion: 0.1\n",
      "toolsmith_other-0.1.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
      "toolsmith_other-0.1.dist-info/RECORD": "",
    }));
    expect(await harness.call(pick(withWheels.tools, "execute_python"), { code: "import toolsmith_other\ntoolsmith_other.VALUE * 6", packages: ["toolsmith-other"] })).toMatchObject({ status: "success", result: "42" });
  }, 90_000);

  it("refuses a wheel that claims to be a Pyodide package but does not match Pyodide's lock file (checksum)", async () => {
    const harness = await toolHarness();
    // Named as Pyodide's own packaging wheel, with other contents: a tampered or mistaken file.
    writeFileSync(join(wheels, "packaging-26.1-py3-none-any.whl"), storedZip({ "packaging/__init__.py": "tampered = True\n" }));
    const result = await harness.call(pick(withWheels.tools, "install_packages"), { packages: ["packaging"] });
    console.log(`tampered wheel: ${JSON.stringify(result.results)}`);
    expect(result).toMatchObject({ status: "error", results: [{ package: "packaging", success: false, error: expect.stringContaining("packaging-26.1-py3-none-any.whl in ") }] });
    expect(String((result.results as { error: string }[])[0]!.error)).toContain("does not match the sha256 in Pyodide's lock file");
    expect(await harness.call(pick(withWheels.tools, "execute_python"), { code: "import packaging\ngetattr(packaging, 'tampered', False)" })).not.toMatchObject({ result: "True" });
  }, 90_000);
});
