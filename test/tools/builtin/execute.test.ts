import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkBubblewrap, createExecuteTool, FilesystemBackend, StateBackend } from "../../../src/tools/builtin/index.js";
import { findShell, secondsText } from "../../../src/tools/builtin/shell/execute-tool.js";
import { toolHarness } from "./tool-harness.js";
import { countingServer } from "./sandbox-probes.js";

const scratch = mkdtempSync(join(tmpdir(), "toolsmith-exec-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function workspace() {
  const root = mkdtempSync(join(scratch, "root-"));
  return { root, backend: new FilesystemBackend({ rootDirectory: root }) };
}

/** Whether a process is gone (or a zombie waiting to be reaped, which runs nothing). */
function isGone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

describe("execute", () => {
  it("runs in the backend's root and answers seed 002's shape: success for exit 0, error with the exit code otherwise", async () => {
    const { root, backend } = workspace();
    const harness = await toolHarness();
    const tool = createExecuteTool({ backend });
    expect(await harness.call(tool, { command: "echo hello world" })).toEqual({ status: "success", output: "hello world\n", exit_code: 0, truncated: false });
    const result = await harness.call(tool, { command: "pwd; echo to-stderr >&2; exit 3" });
    expect(result).toEqual({ status: "error", exit_code: 3, output: `${realpathSync(root)}\nto-stderr\n`, truncated: false });
  });

  it("runs commands in bash where the machine has it, as seed 002's messages show", async () => {
    const { backend } = workspace();
    const harness = await toolHarness();
    const tool = createExecuteTool({ backend });
    const shell = findShell();
    expect(tool.description).toContain(`(${shell.name})`);
    if (shell.name !== "bash") return;
    // bash 5.1 and later name the line when the command came with -c and stdin is no terminal; the rest is the seed's text.
    expect(await harness.call(tool, { command: "foo" })).toEqual({ status: "error", output: expect.stringMatching(/^bash: (line 1: )?foo: command not found\n$/), exit_code: 127, truncated: false });
    expect(await harness.call(tool, { command: "[[ 1 -lt 2 ]] && echo bash-syntax" })).toMatchObject({ status: "success", output: "bash-syntax\n" });
  });

  it("gives a command ended by a signal the signal's number, negated, as its exit code", async () => {
    const { backend } = workspace();
    const harness = await toolHarness();
    expect(await harness.call(createExecuteTool({ backend }), { command: "kill -9 $$" })).toEqual({ status: "error", output: "", exit_code: -9, truncated: false });
  });

  it("caps output at 100,000 bytes and says it was truncated", async () => {
    const { backend } = workspace();
    const harness = await toolHarness();
    const result = await harness.call(createExecuteTool({ backend }), { command: "head -c 300000 /dev/zero | tr '\\0' a" });
    expect(result).toMatchObject({ status: "success", exit_code: 0, truncated: true });
    expect(String(result.output)).toHaveLength(100_000);
  });

  it("kills the whole process group when the timeout passes", async () => {
    const { root, backend } = workspace();
    const harness = await toolHarness();
    const started = Date.now();
    const result = await harness.call(createExecuteTool({ backend, timeoutMs: 500 }), { command: "sleep 30 & echo $! > child.pid; echo started; sleep 30" });
    // Exactly seed 002's timeout answer: what the command printed before ("started") is not added.
    expect(result).toEqual({ status: "error", output: "Command timed out after 0.5s", exit_code: -1, truncated: false });
    expect(secondsText(120_000)).toBe("120.0s");
    expect(Date.now() - started).toBeLessThan(10_000);
    const grandchild = Number(readFileSync(join(root, "child.pid"), "utf8"));
    // The group's SIGKILL is delivered asynchronously: on a loaded machine the process may take a moment to die
    // (it would otherwise sleep on for 30 s).
    for (let waited = 0; waited < 2_000 && !isGone(grandchild); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isGone(grandchild)).toBe(true);
  });

  it("is refused when made over a backend without a real directory, and refuses an empty command", async () => {
    const harness = await toolHarness();
    expect(() => createExecuteTool({ backend: new StateBackend() })).toThrow(expect.objectContaining({ code: "NO_WORKING_DIRECTORY", message: expect.stringContaining("FilesystemBackend") }));
    expect(await harness.call(createExecuteTool({ backend: workspace().backend }), { command: "  " })).toEqual({ status: "error", output: "command is empty. Give a shell command to run.", exit_code: -1, truncated: false });
  });

  it("in sandbox mode says clearly that bubblewrap is missing, and runs nothing", async () => {
    const { root, backend } = workspace();
    const harness = await toolHarness();
    const result = await harness.call(createExecuteTool({ backend, sandbox: true, bwrapPath: "/nonexistent/bwrap" }), { command: "touch ran" });
    expect(result).toMatchObject({ status: "error", code: "SANDBOX_UNAVAILABLE", message: expect.stringContaining("bubblewrap is not installed") });
    expect(existsSync(join(root, "ran"))).toBe(false);
  });

  it("in sandbox mode cannot write outside the root nor reach a server on 127.0.0.1", async () => {
    const { root, backend } = workspace();
    // Outside /tmp, which the sandbox replaces with a private one (a checkout may itself lie under /tmp):
    // this directory does not exist in the sandbox at all.
    const outside = mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : homedir(), "toolsmith-execute-outside-"));
    const harness = await toolHarness();
    const server = await countingServer();
    const port = server.port;
    const connect = `${process.execPath} -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('CONNECTED'); process.exit(0) }).on('error', (e) => { console.log('NO-NETWORK', e.code); process.exit(1) })"`;
    try {
      // Unsandboxed, the same command reaches the server: the sandbox is what stops it.
      const open = await harness.call(createExecuteTool({ backend }), { command: connect });
      expect(open).toMatchObject({ exit_code: 0, output: "CONNECTED\n" });
      expect(server.connections()).toBe(1);

      const sandboxed = createExecuteTool({ backend, sandbox: true });
      const check = await checkBubblewrap();
      const write = await harness.call(sandboxed, { command: `echo inside > inside.txt; echo escaped > ${outside}/escaped.txt; echo escaped > /tmp/in-private-tmp.txt; echo done` });
      if (!check.ok) {
        // This host cannot sandbox: the tool says so plainly instead of running the command unsandboxed.
        expect(write).toMatchObject({ status: "error", code: "SANDBOX_UNAVAILABLE", message: expect.stringContaining(check.reason) });
        expect(existsSync(join(root, "inside.txt"))).toBe(false);
        return;
      }
      expect(write).toMatchObject({ status: "success", exit_code: 0 });
      expect(String(write.output)).toMatch(/escaped\.txt: No such file or directory/);
      expect(readFileSync(join(root, "inside.txt"), "utf8")).toBe("inside\n");
      expect(existsSync(join(outside, "escaped.txt"))).toBe(false);
      expect(existsSync("/tmp/in-private-tmp.txt")).toBe(false);

      const network = await harness.call(sandboxed, { command: connect });
      expect(network).toMatchObject({ status: "error", exit_code: 1 });
      expect(String(network.output)).toContain("NO-NETWORK");
      expect(server.connections()).toBe(1);
    } finally {
      server.close();
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
