import { existsSync, mkdtempSync, readdirSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkBubblewrap, createShellScriptRunner, FilesystemBackend, StateBackend, type ScriptRunRequest } from "../../../src/tools/builtin/index.js";
import { shellQuote } from "../../../src/tools/builtin/shell/shell-script-runner.js";
import { tempDir } from "../../support/temp-dir.js";
import { toolHarness } from "../builtin/tool-harness.js";

const dir = tempDir("toolsmith-script-runner-");
const workspace = () => realpathSync(mkdtempSync(join(dir, "ws-")));

/** The script runner's own folders still in the system temp folder. */
const leftovers = () => readdirSync(tmpdir()).filter((name) => name.startsWith("toolsmith-skill-")).sort();

async function request(overrides: Partial<ScriptRunRequest>): Promise<ScriptRunRequest> {
  const harness = await toolHarness();
  return {
    skillName: "echo",
    scriptPath: "scripts/echo.sh",
    language: "shell",
    args: [],
    files: new Map([["scripts/echo.sh", 'for a in "$@"; do printf "[%s]\\n" "$a"; done\n']]),
    context: harness.context(),
    ...overrides,
  };
}

describe("createShellScriptRunner", () => {
  it("passes every argument to the script unchanged, whatever it holds (fuzzed: quotes, $( ), backticks, newlines)", async () => {
    const runScript = createShellScriptRunner({ backend: new FilesystemBackend({ rootDirectory: workspace() }) });
    const argument = fc.string({ unit: fc.constantFrom("a", " ", "'", '"', "$", "(", ")", "`", "\\", "\n", ";", "|", "&", "*", "~", "é", "-", "!"), maxLength: 12 });
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(argument, { minLength: 1, maxLength: 4 }), async (args) => {
        runs++;
        const result = await runScript(await request({ args }));
        expect(result).toMatchObject({ status: "success", exit_code: 0 });
        expect(result.output).toBe(args.map((value) => `[${value}]\n`).join(""));
      }),
      { numRuns: 150 },
    );
    console.log(`script arguments fuzz: ${runs} runs, every argument arrived as written`);
    for (const word of ["it's", "$(id)", "`id`", "a'b'c", ""]) expect(shellQuote(word)).toMatch(/^'.*'$/s);
  });

  it("runs in the workspace with the skill's files under $SKILL_DIR, and removes that folder afterwards, even after a timeout", async () => {
    const root = workspace();
    const before = leftovers();
    const runScript = createShellScriptRunner({ backend: new FilesystemBackend({ rootDirectory: root }), timeoutMs: 500 });
    const files = new Map<string, string | Uint8Array>([
      ["scripts/where.sh", 'pwd; cat "$SKILL_DIR/references/note.md"; ls "$SKILL_DIR/assets"\n'],
      ["references/note.md", "a note\n"],
      ["assets/data.bin", new Uint8Array([0, 1, 2])],
      ["scripts/slow.sh", "sleep 5\n"],
    ]);
    expect(await runScript(await request({ scriptPath: "scripts/where.sh", files }))).toMatchObject({ status: "success", output: `${root}\na note\ndata.bin\n` });
    expect(await runScript(await request({ scriptPath: "scripts/slow.sh", files }))).toMatchObject({ status: "error", output: "Command timed out after 0.5s", exit_code: -1 });
    expect(leftovers()).toEqual(before);
  });

  it("runs Python and JavaScript scripts with the system's python3 and node", async () => {
    const runScript = createShellScriptRunner({ backend: new FilesystemBackend({ rootDirectory: workspace() }) });
    const python = await runScript(await request({ scriptPath: "scripts/hi.py", language: "python", args: ["--n", "2"], files: new Map([["scripts/hi.py", "import sys\nprint('py', sys.argv[1:])\n"]]) }));
    expect(python).toMatchObject({ status: "success", output: "py ['--n', '2']\n" });
    const node = await runScript(await request({ scriptPath: "scripts/hi.mjs", language: "javascript", files: new Map([["scripts/hi.mjs", "console.log('js', process.argv.length)\n"]]) }));
    expect(node).toMatchObject({ status: "success", output: "js 2\n" });
  });

  it("refuses to write a file of a hand-built skill that names a path outside its folder, and runs nothing", async () => {
    const root = workspace();
    const runScript = createShellScriptRunner({ backend: new FilesystemBackend({ rootDirectory: root }) });
    const files = new Map([
      ["scripts/run.sh", "touch ran\n"],
      ["../../escaped.sh", "x"],
    ]);
    await expect(runScript(await request({ scriptPath: "scripts/run.sh", files }))).rejects.toThrow('the skill\'s file "../../escaped.sh" lies outside its folder');
    expect(existsSync(join(root, "ran"))).toBe(false);
    expect(existsSync(join(tmpdir(), "escaped.sh"))).toBe(false);
  });

  it("is refused when made over a backend with no directory, as execute is", () => {
    expect(() => createShellScriptRunner({ backend: new StateBackend() })).toThrow(expect.objectContaining({ code: "NO_WORKING_DIRECTORY" }));
  });

  it("in the sandbox keeps the skill's folder read-only and the host's files out of reach", async () => {
    const check = await checkBubblewrap();
    const root = workspace();
    const runScript = createShellScriptRunner({ backend: new FilesystemBackend({ rootDirectory: root }), sandbox: true });
    const files = new Map([["scripts/probe.sh", 'echo hi > "$SKILL_DIR/scripts/probe.sh" 2>/dev/null && echo "rewrote itself" || echo "read-only"; ls /root /home 2>&1 | head -1; echo ok > out.txt\n']]);
    const result = await runScript(await request({ scriptPath: "scripts/probe.sh", files }));
    if (!check.ok) {
      expect(result).toMatchObject({ status: "error", code: "SANDBOX_UNAVAILABLE" });
      return;
    }
    expect(result).toMatchObject({ status: "success" });
    expect(String(result.output)).toMatch(/probe\.sh: Read-only file system\nread-only\nls: cannot access '\/root': No such file or directory\n$/);
    expect(existsSync(join(root, "out.txt"))).toBe(true);
  });
});
