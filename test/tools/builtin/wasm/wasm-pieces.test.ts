/**
 * The WebAssembly sandbox's pieces that need no Python: the mapping of backend paths to `/workspace`, writing
 * a run's changes back through the backend, finding packages in a local folder, and just-bash over the backend.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { FilesystemBackend, StateBackend } from "../../../../src/tools/builtin/index.js";
import { runSimulatedBash } from "../../../../src/tools/builtin/wasm/bash-run.js";
import { resolvePackages } from "../../../../src/tools/builtin/wasm/python-packages.js";
import { readBackendFiles, saveChanges, toAgentPath, toSandboxPath } from "../../../../src/tools/builtin/wasm/workspace-files.js";
import { toolHarness } from "../tool-harness.js";

const scratch = mkdtempSync(join(tmpdir(), "toolsmith-wasm-pieces-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const lockFilePath = join(dirname(createRequire(import.meta.url).resolve("pyodide/pyodide.mjs")), "pyodide-lock.json");
const text = (value: string) => new TextEncoder().encode(value);

describe("workspace paths", () => {
  it("puts the backend's / at /workspace and maps back only what lies under it", () => {
    expect(toSandboxPath("/")).toBe("/workspace");
    expect(toSandboxPath("/notes/a.md")).toBe("/workspace/notes/a.md");
    expect(toAgentPath("/workspace")).toBe("/");
    expect(toAgentPath("/workspace/notes/a.md")).toBe("/notes/a.md");
    expect(toAgentPath("/workspaces/x")).toBeUndefined();
    expect(toAgentPath("/etc/passwd")).toBeUndefined();
  });

  it("round-trips every backend path (fuzzed)", () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9._-]{1,8}$/), { minLength: 1, maxLength: 5 }), (segments) => {
        const path = `/${segments.join("/")}`;
        expect(toAgentPath(toSandboxPath(path))).toBe(path);
      }),
      { numRuns: 500 },
    );
  });
});

describe("saveChanges", () => {
  it("writes text files through the backend and reports what it could not keep, with why", async () => {
    const harness = await toolHarness();
    const backend = new StateBackend();
    const context = harness.context();
    const saved = await saveChanges({
      backend,
      context,
      written: [
        ["/workspace/report.md", text("# Report\n")],
        ["/workspace/image.bin", new Uint8Array([0xff, 0xfe, 0x00, 0x81])],
        ["/elsewhere/ignored.txt", text("outside the workspace")],
      ],
      removed: ["/workspace/old.txt"],
      skipped: [{ path: "/workspace/link", reason: "it is a symbolic link; links are not saved" }],
    });
    expect(saved).toEqual({
      written: ["/report.md"],
      notSaved: [
        { path: "/image.bin", reason: "it is not UTF-8 text, and the file backend stores text" },
        { path: "/old.txt", reason: "it was deleted, and deletions are not carried back to the file backend (it keeps the file)" },
        { path: "/link", reason: "it is a symbolic link; links are not saved" },
      ],
    });
    Object.assign(harness.session.state, context.actions.stateDelta);
    expect([...(await readBackendFiles(backend, harness.context())).keys()]).toEqual(["/report.md"]);
  });

  it("reports a path the backend refuses instead of writing it anywhere", async () => {
    const root = mkdtempSync(join(scratch, "refuse-"));
    const harness = await toolHarness();
    const saved = await saveChanges({ backend: new FilesystemBackend({ rootDirectory: root }), context: harness.context(), written: [["/workspace/%2e%2e/escape.txt", text("x")]], removed: [] });
    expect(saved.written).toEqual([]);
    expect(saved.notSaved).toEqual([{ path: "/%2e%2e/escape.txt", reason: 'The path "/%2e%2e/escape.txt" contains a percent-escape. Write the characters themselves, without URL encoding.' }]);
    expect(readdirSync(root)).toEqual([]);
  });
});

describe("resolvePackages", () => {
  const wheels = join(scratch, "wheels");
  mkdirSync(wheels);
  writeFileSync(join(wheels, "Pretty_Thing-2.0-py3-none-any.whl"), "");
  writeFileSync(join(wheels, "pretty_thing-1.0-py3-none-any.whl"), "");
  // aiosignal depends on frozenlist in Pyodide's lock file: only aiosignal's wheel is here.
  writeFileSync(join(wheels, "aiosignal-1.4.0-py3-none-any.whl"), "");

  it("refuses every package, saying nothing is downloaded and how to give wheels, when no folder is configured", () => {
    const resolved = resolvePackages(["numpy", "attrs"], { lockFilePath });
    expect(resolved.loadable).toEqual([]);
    expect(resolved.refused.map((entry) => entry.package)).toEqual(["numpy", "attrs"]);
    expect(resolved.refused[0]!.error).toContain("nothing is downloaded");
    expect(resolved.refused[0]!.error).toContain("packageDirectory");
  });

  it("finds a wheel named after the package whatever its case and separators, the highest version by name", () => {
    const resolved = resolvePackages(["pretty-thing", "PRETTY.thing"], { packageDirectory: wheels, lockFilePath });
    expect(resolved.refused).toEqual([]);
    expect(resolved.loadable).toEqual([
      { name: "pretty-thing", paths: [join(wheels, "pretty_thing-1.0-py3-none-any.whl")] },
      { name: "PRETTY.thing", paths: [join(wheels, "pretty_thing-1.0-py3-none-any.whl")] },
    ]);
  });

  it("asks for every wheel a Pyodide package depends on, naming the missing ones", () => {
    const resolved = resolvePackages(["aiosignal", "numpy"], { packageDirectory: wheels, lockFilePath });
    expect(resolved.loadable).toEqual([]);
    expect(resolved.refused[0]!.error).toMatch(/^aiosignal needs frozenlist-1\.8\.0-.*\.whl, not found in .*wheels\./);
    expect(resolved.refused[1]!.error).toMatch(/^numpy needs numpy-.*\.whl/);
    writeFileSync(join(wheels, JSON.parse(readFileSync(lockFilePath, "utf8")).packages.frozenlist.file_name), "");
    // All wheels are there now, but empty files are not Pyodide's wheels: their checksums are refused.
    const resolvedAgain = resolvePackages(["aiosignal"], { packageDirectory: wheels, lockFilePath });
    expect(resolvedAgain.loadable).toEqual([]);
    expect(resolvedAgain.refused[0]!.error).toMatch(/^aiosignal-1\.4\.0-py3-none-any\.whl, frozenlist-.*\.whl in .* does not match the sha256 in Pyodide's lock file/);
  });

  it("refuses every package when the configured folder does not exist, naming the folder", () => {
    const missing = join(scratch, "no-such-folder");
    const resolved = resolvePackages(["attrs", "toolsmith-demo"], { packageDirectory: missing, lockFilePath });
    expect(resolved.loadable).toEqual([]);
    expect(resolved.refused.map((entry) => entry.error)).toEqual([expect.stringMatching(/^attrs needs attrs-.*\.whl, six-.*\.whl, not found in .*no-such-folder/), expect.stringContaining(`toolsmith-demo is not in ${missing}, and nothing is downloaded`)]);
  });

  it("never turns a requested name into a path: anything but a package name is refused (fuzzed)", () => {
    let refused = 0;
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom("../../etc/passwd", "/etc/passwd", "a/b", "https://evil.example/x.whl", "x.whl", "..", " ", "numpy==1.0")), (name) => {
        const resolved = resolvePackages([name], { packageDirectory: wheels, lockFilePath });
        for (const entry of resolved.loadable) for (const path of entry.paths) expect(path === entry.paths[0] && (path.startsWith(`${wheels}/`) || !path.includes("/"))).toBe(true);
        if (/[/:]|\.\.|==/.test(name)) {
          expect(resolved.loadable).toEqual([]);
          refused++;
        }
      }),
      { numRuns: 1_000 },
    );
    console.log(`package names: 1,000 fuzzed, ${refused} with a path, URL or version refused, none loaded from outside the folder`);
  });
});

describe("runSimulatedBash", () => {
  const backend = () => new FilesystemBackend({ rootDirectory: mkdtempSync(join(scratch, "bash-")) });
  const run = async (options: { backend: FilesystemBackend; command: string; cwd?: string; timeoutMs?: number; maxOutputBytes?: number }) => {
    const harness = await toolHarness();
    return runSimulatedBash({ context: harness.context(), timeoutMs: 10_000, maxOutputBytes: 100_000, ...options });
  };

  it("stops at its time limit with seed 002's timeout answer", async () => {
    const started = Date.now();
    const result = await run({ backend: backend(), command: "while true; do echo tick > /dev/null; done", timeoutMs: 300 });
    expect(result).toEqual({ status: "error", output: "Command timed out after 0.3s", exit_code: -1, truncated: false });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  // A busy loop never yields to the event loop, so an abort cannot land inside it; its time limit, which just-bash
  // checks itself, stops it (above). A command that waits, as most do, stops at the abort.
  it("stops a waiting command when the run is cancelled (its abort signal), long before its time limit", async () => {
    const harness = await toolHarness();
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 200);
    const started = Date.now();
    const result = await runSimulatedBash({ backend: backend(), context: harness.context(), command: "echo started; sleep 30; echo never", timeoutMs: 60_000, maxOutputBytes: 1_000, abortSignal: cancel.signal });
    const elapsed = Date.now() - started;
    console.log(`cancelled bash sleep: stopped after ${elapsed} ms with exit ${result.exit_code}: ${JSON.stringify(result.output)}`);
    expect(result.status).toBe("error");
    expect(result.exit_code).not.toBe(0);
    expect(String(result.output)).not.toContain("never");
    expect(elapsed).toBeLessThan(10_000);
  });

  it("caps output at maxOutputBytes and says it was truncated", async () => {
    const result = await run({ backend: backend(), command: "for i in $(seq 1 2000); do echo 0123456789; done", maxOutputBytes: 1_000 });
    expect(result).toMatchObject({ status: "success", exit_code: 0, truncated: true });
    expect(Buffer.byteLength(String(result.output))).toBe(1_000);
  });

  it("reports a file it deleted and a binary file it wrote as not saved, and the backend keeps the old file", async () => {
    const files = backend();
    writeFileSync(join(files.rootDirectory!, "keep.txt"), "kept\n");
    const result = await run({ backend: files, command: "rm keep.txt; echo //4= | base64 -d > binary.dat; echo text > new.txt" });
    expect(result).toMatchObject({ status: "success", files_written: ["/new.txt"] });
    expect(result.files_not_saved).toEqual(
      expect.arrayContaining([
        { path: "/binary.dat", reason: "it is not UTF-8 text, and the file backend stores text" },
        { path: "/keep.txt", reason: expect.stringContaining("deletions are not carried back") },
      ]),
    );
    expect(readFileSync(join(files.rootDirectory!, "keep.txt"), "utf8")).toBe("kept\n");
    expect(readFileSync(join(files.rootDirectory!, "new.txt"), "utf8")).toBe("text\n");
  });

  it("offers just-bash's data tools (jq, awk, sed) over the backend's files", async () => {
    const files = backend();
    writeFileSync(join(files.rootDirectory!, "orders.json"), JSON.stringify({ orders: [{ total: 5 }, { total: 7 }] }));
    writeFileSync(join(files.rootDirectory!, "names.csv"), "name,city\nAda,London\nLin,Taipei\n");
    expect(await run({ backend: files, command: "jq '[.orders[].total] | add' orders.json" })).toMatchObject({ status: "success", output: "12\n" });
    expect(await run({ backend: files, command: "awk -F, 'NR > 1 { print $2 }' names.csv | sort | sed 's/^/city: /'" })).toMatchObject({ status: "success", output: "city: London\ncity: Taipei\n" });
    const written = await run({ backend: files, command: "jq -r '.orders | length' orders.json > count.txt" });
    expect(written).toMatchObject({ status: "success", files_written: ["/count.txt"] });
    expect(readFileSync(join(files.rootDirectory!, "count.txt"), "utf8")).toBe("2\n");
  });

  it("starts in the workspace or a directory inside it, and refuses a cwd that leaves it", async () => {
    const files = backend();
    mkdirSync(join(files.rootDirectory!, "src"));
    expect(await run({ backend: files, command: "pwd" })).toMatchObject({ output: "/workspace\n" });
    expect(await run({ backend: files, command: "pwd", cwd: "./src/../src" })).toMatchObject({ output: "/workspace/src\n" });
    for (const cwd of ["..", "../..", "src/../../etc", "/../.."]) {
      expect(await run({ backend: files, command: "pwd", cwd }), cwd).toMatchObject({ status: "error", exit_code: 1, output: expect.stringContaining("outside the workspace") });
    }
  });

  it("writes nothing on the host outside the root, whatever path the command names (fuzzed)", async () => {
    const files = backend();
    const outside = dirname(files.rootDirectory!);
    const segment = fc.constantFrom("..", ".", "a", "etc", "tmp", "workspace", "");
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.boolean(), async (segments, absolute) => {
        runs++;
        const path = `${absolute ? "/" : ""}${segments.join("/")}/bash-fuzz.txt`;
        await run({ backend: files, command: `mkdir -p "$(dirname '${path}')"; echo x > '${path}'` });
        expect(readdirSync(outside)).not.toContain("bash-fuzz.txt");
        expect(readdirSync("/tmp")).not.toContain("bash-fuzz.txt");
      }),
      { numRuns: 60 },
    );
    console.log(`fuzzed bash write paths: ${runs} runs, no file outside the root`);
  });
});
