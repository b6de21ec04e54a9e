/**
 * Properties of the WebAssembly sandbox over generated inputs: Python and bash see exactly the backend's
 * files, byte for byte, and what they change comes back exactly; output caps never split a character;
 * bash sees nothing of the host (environment, processes, other sessions' files).
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilesystemTools, createWasmExecution, StateBackend } from "../../../../src/tools/builtin/index.js";
import { readBackendFiles } from "../../../../src/tools/builtin/wasm/workspace-files.js";
import { pick, toolHarness } from "../tool-harness.js";

process.env.TOOLSMITH_WASM_BASH_SECRET = "bash-host-secret";
const backend = new StateBackend();
const execution = createWasmExecution({ backend, maxOutputBytes: 301 });
const python = pick(execution.tools, "execute_python");
const bash = pick(execution.tools, "execute_bash");
const writeFile = pick(createFilesystemTools({ backend }), "write_file");
const editFile = pick(createFilesystemTools({ backend }), "edit_file");

beforeAll(() => execution.start(), 120_000);
afterAll(() => execution.close());

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const fileName = fc.stringMatching(/^[a-z][a-z0-9_-]{0,7}$/);
const fileSet = fc.uniqueArray(fc.tuple(fc.array(fileName, { minLength: 1, maxLength: 3 }), fc.string({ unit: "grapheme", maxLength: 60 })), { minLength: 1, maxLength: 6, selector: ([segments]) => segments.join("/") });

describe("the sandbox's view of the files", () => {
  it("Python reads every file of a session byte for byte, and only those (generated file sets)", async () => {
    let runs = 0;
    let files = 0;
    await fc.assert(
      fc.asyncProperty(fileSet, async (entries) => {
        runs++;
        const harness = await toolHarness();
        // Each generated set in a fresh session: paths that are a file in one set and a folder in another do not meet.
        const expected: Record<string, string> = {};
        for (const [segments, content] of entries) {
          const path = `/${segments.join("/")}.txt`;
          if (Object.keys(expected).some((other) => other.startsWith(`${path.slice(0, -4)}/`) || path.startsWith(`${other.slice(0, -4)}/`))) continue;
          const written = await harness.call(writeFile, { file_path: path, content });
          if (written.status !== "success") continue;
          expected[path] = sha256(content);
          files++;
        }
        const result = await harness.call(python, {
          code: "import hashlib, os\nfound = {}\nfor base, dirs, names in os.walk('/workspace'):\n    for name in names:\n        path = os.path.join(base, name)\n        found[path[len('/workspace'):]] = hashlib.sha256(open(path, 'rb').read()).hexdigest()\nimport json\njson.dumps(found, sort_keys=True)",
        });
        expect(result.status).toBe("success");
        expect(JSON.parse(String(result.result))).toEqual(expected);
      }),
      { numRuns: 25 },
    );
    console.log(`generated workspaces: ${runs} sessions, ${files} files, each seen by Python byte for byte`);
  }, 120_000);

  it("what Python writes comes back through the backend exactly, unicode included (generated contents)", async () => {
    const harness = await toolHarness();
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 200 }), fileName, async (content, name) => {
        const result = await harness.call(python, { code: `open(${JSON.stringify(`${name}.out`)}, 'w', encoding='utf-8').write(${JSON.stringify(content)})` });
        expect(result).toMatchObject({ status: "success" });
        const files = await readBackendFiles(backend, harness.context());
        expect(new TextDecoder().decode(files.get(`/${name}.out`))).toBe(content);
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it("sees an edit the file tools made between two calls (only changed files are sent again)", async () => {
    const harness = await toolHarness();
    await harness.call(writeFile, { file_path: "/config.ini", content: "mode = slow\n" });
    expect(await harness.call(python, { code: "open('config.ini').read().strip()" })).toMatchObject({ result: "mode = slow" });
    await harness.call(editFile, { file_path: "/config.ini", old_string: "slow", new_string: "fast" });
    expect(await harness.call(python, { code: "open('config.ini').read().strip()" })).toMatchObject({ result: "mode = fast" });
    expect(await harness.call(bash, { command: "cat config.ini" })).toMatchObject({ output: "mode = fast\n" });
  });
});

describe("output caps", () => {
  it("never split a character at the cap, in Python or bash (generated text)", async () => {
    const harness = await toolHarness();
    await fc.assert(
      // eslint-disable-next-line no-control-regex
      fc.asyncProperty(fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }).filter((piece) => !/[\u0000-\u001f\u007f]/.test(piece)), async (piece) => {
        const text = piece.repeat(Math.ceil(600 / piece.length));
        const fromPython = await harness.call(python, { code: `print(${JSON.stringify(text)})` });
        expect(Buffer.byteLength(String(fromPython.stdout))).toBeLessThanOrEqual(301);
        expect(text.startsWith(String(fromPython.stdout).replace(/\n$/, ""))).toBe(true);
        const fromBash = await harness.call(bash, { command: `printf '%s' '${text.replace(/'/g, "'\\''")}'` });
        expect(Buffer.byteLength(String(fromBash.output))).toBeLessThanOrEqual(301);
        // A prefix of what was printed: no character split into a replacement character at the cut.
        expect(text.startsWith(String(fromBash.output))).toBe(true);
      }),
      { numRuns: 30 },
    );
  }, 120_000);
});

describe("execute_bash sees nothing of the host", () => {
  it("has no host environment, processes, interpreters or other sessions' files", async () => {
    const first = await toolHarness();
    const second = await toolHarness();
    await first.call(writeFile, { file_path: "/mine.txt", content: "first session only" });
    const probes: Record<string, string> = {
      env: "env",
      "/proc": "cat /proc/self/environ; ls /proc",
      "process list": "ps aux",
      python3: "python3 -c 'print(1)'",
      node: "node -e 'console.log(1)'",
      "other session's file": "cat mine.txt",
    };
    const answers: Record<string, unknown> = {};
    for (const [name, command] of Object.entries(probes)) {
      const result = await second.call(bash, { command });
      answers[name] = `${result.exit_code}: ${String(result.output).slice(0, 80).replace(/\n/g, " | ")}`;
      expect(JSON.stringify(result), name).not.toContain("bash-host-secret");
      expect(JSON.stringify(result), name).not.toContain("first session only");
    }
    console.log("bash probes from a second session:", answers);
    for (const name of ["python3", "node", "other session's file"]) expect(String(answers[name]), name).not.toMatch(/^0:/);
    expect(await first.call(bash, { command: "cat mine.txt" })).toMatchObject({ status: "success", output: "first session only" });
  });
});
