import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createExecuteTool, FilesystemBackend, type ExecuteToolOptions } from "../../../src/tools/builtin/index.js";
import { toolHarness } from "./tool-harness.js";
import { countingServer, forkBombCanBeHeld, sandboxAvailability } from "./sandbox-probes.js";

// Host files and sockets live outside /tmp, which the sandbox replaces with a private one anyway: the test must show
// the sandbox hides them, not that they happen to be shadowed.
const hostDirectory = mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : tmpdir(), "toolsmith-sandbox-host-"));
const scratch = mkdtempSync(join(tmpdir(), "toolsmith-sandbox-"));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(hostDirectory, { recursive: true, force: true });
});

const sandbox = sandboxAvailability("each sandbox test only checks the tool refuses to run");

function sandboxed(options: Omit<ExecuteToolOptions, "backend" | "sandbox"> = {}) {
  const root = mkdtempSync(join(scratch, "root-"));
  // Node lives outside /usr on some machines; the sandbox shows it only when asked.
  const nodeDirectory = dirname(process.execPath);
  const readOnlyPaths = nodeDirectory.startsWith("/usr/") ? [] : [nodeDirectory];
  return { root, tool: createExecuteTool({ backend: new FilesystemBackend({ rootDirectory: root }), sandbox: true, readOnlyPaths, ...options }) };
}

/** Runs a sandboxed command; on a host that cannot sandbox, checks the tool says so and answers undefined. */
async function run(tool: ReturnType<typeof createExecuteTool>, command: string) {
  const result = await (await toolHarness()).call(tool, { command });
  if (sandbox.unavailable) {
    expect(result).toMatchObject({ status: "error", code: "SANDBOX_UNAVAILABLE" });
    return undefined;
  }
  return result;
}

function hostProcessCount(): number {
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).length;
}

describe("execute with sandbox: true", () => {
  it("shows no host file outside the workspace: not home directories, host /tmp, /run, /root nor the rest of /etc", async () => {
    const secretFile = join(hostDirectory, "host-secret.txt");
    writeFileSync(secretFile, "host secret\n");
    const { root, tool } = sandboxed();
    writeFileSync(join(root, "mine.txt"), "workspace file\n");
    const result = await run(tool, `cat ${secretFile}; cat mine.txt; echo "top: $(ls -A / | tr '\\n' ' ')"; ls /home /root /run /var/run /etc/npmrc /etc/shadow 2>&1 | sed 's/^.*cannot access/cannot access/'; echo pwd=$(pwd)`);
    if (!result) return;
    console.log(`read ${secretFile} from the sandbox →`, JSON.stringify(result.output));
    const output = String(result.output);
    expect(output).toContain(`cat: ${secretFile}: No such file or directory`);
    expect(output).not.toContain("host secret");
    expect(output).toContain("workspace file");
    expect(output).toContain(`pwd=${root}`);
    for (const hidden of ["/home", "/root", "/run", "/var/run", "/etc/npmrc", "/etc/shadow"]) expect(output).toContain(`cannot access '${hidden}': No such file or directory`);
    const topLevel = /^top: (.*)$/m.exec(output)![1]!.trim().split(" ");
    expect(topLevel.filter((name) => !["bin", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "sbin", "tmp", "usr"].includes(name))).toEqual(
      // The workspace's own path is made inside the sandbox, and only it.
      [root.split("/")[1]].filter((name) => name !== "tmp"),
    );
  });

  it("cannot connect to a host unix socket, which the same command reaches without the sandbox", async () => {
    const socketPath = join(hostDirectory, "host.sock");
    const server = await countingServer(socketPath);
    const connect = `node -e "require('net').connect('${socketPath}').on('connect', () => { console.log('CONNECTED'); process.exit(0) }).on('error', (e) => { console.log('REFUSED', e.code); process.exit(1) })"`;
    try {
      const { root } = sandboxed();
      const open = await (await toolHarness()).call(createExecuteTool({ backend: new FilesystemBackend({ rootDirectory: root }), env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` } }), { command: connect });
      expect(open).toMatchObject({ exit_code: 0, output: "CONNECTED\n" });
      expect(server.connections()).toBe(1);
      const result = await run(sandboxed({ env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` } }).tool, connect);
      if (!result) return;
      console.log(`connect to host socket ${socketPath}: unsandboxed → ${JSON.stringify(open.output)}, sandboxed → ${JSON.stringify(result.output)} (exit ${result.exit_code})`);
      expect(result).toMatchObject({ status: "error", exit_code: 1, output: "REFUSED ENOENT\n" });
      expect(server.connections()).toBe(1);
    } finally {
      server.close();
    }
  });

  it("clears the host's environment, so a secret does not reach the command unless allow-listed", async () => {
    process.env.TOOLSMITH_TEST_SECRET = "sk-test-do-not-leak";
    try {
      const plain = sandboxed().tool;
      const allowed = sandboxed({ envAllowList: ["TOOLSMITH_TEST_SECRET"], env: { GREETING: "set by the developer" } }).tool;
      const command = `echo "secret=[$TOOLSMITH_TEST_SECRET] greeting=[$GREETING] home=$HOME path=$PATH"; env | cut -d= -f1 | sort | tr '\\n' ' '`;
      const hidden = await run(plain, command);
      if (!hidden) return;
      const passed = await run(allowed, command);
      console.log("without an allow-list →", JSON.stringify(hidden.output));
      console.log('with envAllowList: ["TOOLSMITH_TEST_SECRET"] and env: { GREETING } →', JSON.stringify(passed!.output));
      expect(String(hidden.output)).toContain("secret=[] greeting=[] home=/tmp path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
      expect(String(hidden.output)).not.toContain("sk-test-do-not-leak");
      const names = String(hidden.output).split("\n")[1]!.trim().split(" ");
      expect(names.filter((name) => !["HOME", "LANG", "LC_ALL", "LC_CTYPE", "PATH", "PWD", "SHLVL", "TERM", "TZ", "_"].includes(name))).toEqual([]);
      expect(String(passed!.output)).toContain("secret=[sk-test-do-not-leak] greeting=[set by the developer]");
    } finally {
      delete process.env.TOOLSMITH_TEST_SECRET;
    }
  });

  it("lets a command write only the workspace, /tmp and /dev/shm: the sandbox's root and /dev are read-only", async () => {
    const { root, tool } = sandboxed({ limits: { tmpSizeBytes: 1024 ** 2 } });
    const attempts = ["/x", "/etc/x", "/dev/x", "/usr/x", "/proc/x", "/tmp/x", "/dev/shm/x", `${root}/x`];
    const result = await run(tool, attempts.map((path) => `(echo data > ${path}) 2>/dev/null && echo "wrote ${path}" || echo "refused ${path}"`).join("; "));
    if (!result) return;
    console.log("writes in the sandbox:", String(result.output).trim().split("\n").join(", "));
    expect(String(result.output).trim().split("\n")).toEqual(["refused /x", "refused /etc/x", "refused /dev/x", "refused /usr/x", "refused /proc/x", "wrote /tmp/x", "wrote /dev/shm/x", `wrote ${root}/x`]);
    // /dev/shm is held to the size of /tmp, so it cannot fill the host's memory either.
    const filled = await run(tool, "head -c 3000000 /dev/zero > /dev/shm/big; echo exit $?; stat -c %s /dev/shm/big");
    expect(String(filled!.output)).toMatch(/exit 1\n1048576\n$/);
  });

  it("stops an endless loop at the CPU-time limit and says which limit it hit", async () => {
    const { tool } = sandboxed({ limits: { cpuTimeSeconds: 1 } });
    const started = Date.now();
    const result = await run(tool, "while true; do :; done");
    if (!result) return;
    console.log(`"while true; do :; done" with cpuTimeSeconds 1 → ended after ${Date.now() - started} ms:`, JSON.stringify(result));
    expect(result).toMatchObject({ status: "error", exit_code: 152, limit: "cpuTimeSeconds", message: expect.stringContaining("CPU-time limit of 1 s") });
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("stops filling the disk at the file-size limit", async () => {
    const { root, tool } = sandboxed({ limits: { fileSizeBytes: 10 * 1024 ** 2 } });
    const result = await run(tool, "head -c 2G /dev/zero > big");
    if (!result) return;
    const size = statSync(join(root, "big")).size;
    console.log(`"head -c 2G /dev/zero > big" with fileSizeBytes 10 MiB → file of ${size} bytes:`, JSON.stringify(result));
    expect(size).toBe(10 * 1024 ** 2);
    expect(result).toMatchObject({ status: "error", exit_code: 153, limit: "fileSizeBytes", message: expect.stringContaining("file-size limit of 10485760 bytes") });
  });

  it("refuses a process more memory than the memory limit", async () => {
    const { tool } = sandboxed({ limits: { memoryBytes: 300 * 1024 ** 2 }, env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` } });
    const result = await run(tool, `node -e "Buffer.alloc(500 * 1024 * 1024, 1); console.log('ALLOCATED')"`);
    if (!result) return;
    console.log("allocating 500 MiB with memoryBytes 300 MiB →", JSON.stringify(String(result.output).split("\n").find((line) => /Error/.test(line))), `exit ${result.exit_code}`);
    expect(result).toMatchObject({ status: "error" });
    expect(String(result.output)).not.toContain("ALLOCATED");
    expect(String(result.output)).toMatch(/allocation failed|out of memory/i);
  });

  // The bare bomb's first shell returns at once, and the sandbox ends everything left when it does, sometimes before the
  // bomb reaches any limit; in the test's bomb every shell waits for its children, so it grows until it meets the limit. It then either dies out
  // (bash gives up retrying a refused fork) or runs into the timeout; both answers are errors naming the limit.
  it("holds a fork bomb to the process limit, answers an error naming the limit, and leaves the host as it was", async () => {
    if (!(await forkBombCanBeHeld())) return;
    const { tool } = sandboxed({ timeoutMs: 10_000, limits: { processes: 64 } });
    const before = hostProcessCount();
    const started = Date.now();
    const result = await run(tool, ":(){ :|: & wait; };:");
    if (!result) return;
    const elapsed = Date.now() - started;
    const after = hostProcessCount();
    const lines = String(result.output).split("\n");
    console.log(`fork bomb with processes 64 → ended after ${elapsed} ms, exit ${result.exit_code}, status ${result.status}, limit ${result.limit}: ${result.message}; output ${lines.length} lines, first ${JSON.stringify(lines[0])}; host processes before ${before}, after ${after}`);
    expect(result).toMatchObject({ status: "error", limit: "processes", message: expect.stringContaining("process limit of 64") });
    expect(elapsed).toBeLessThan(30_000);
    expect(after).toBeLessThan(before + 20);
    expect(execFileSync("echo", ["host still forks"], { encoding: "utf8" })).toBe("host still forks\n");
  });

  it("refuses limits and read-only paths that make no sense when the tool is made", () => {
    const backend = new FilesystemBackend({ rootDirectory: scratch });
    expect(() => createExecuteTool({ backend, sandbox: true, limits: { processes: 0 } })).toThrow(expect.objectContaining({ code: "INVALID_SANDBOX_OPTION", message: expect.stringContaining("limits.processes is 0") }));
    expect(() => createExecuteTool({ backend, sandbox: true, limits: { cpuSeconds: 5 } as never })).toThrow(expect.objectContaining({ code: "INVALID_SANDBOX_OPTION", message: expect.stringContaining("cpuTimeSeconds") }));
    expect(() => createExecuteTool({ backend, sandbox: true, readOnlyPaths: ["opt/node"] })).toThrow(expect.objectContaining({ code: "INVALID_SANDBOX_OPTION", message: expect.stringContaining("absolute") }));
  });
});
