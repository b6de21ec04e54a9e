import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { InMemoryRunner, LlmAgent } from "../../../src/index.js";
import { collect, ScriptedModel, textResponse, userMessage } from "../../../src/testing/index.js";
import { SandboxedCodeExecutor, type SandboxedCodeExecutorOptions } from "../../../src/tools/builtin/index.js";
import { CodeExecutionLanguage, FileContentEncoding, type CodeExecutionInput, type CodeExecutionResult } from "../../../src/tools/code-executors/base-code-executor.js";
import { UnsafeLocalCodeExecutor } from "../../../src/tools/code-executors/unsafe-local-code-executor.js";
import { invocationFor } from "../../llm-agent/fixtures.js";
import { countingServer, forkBombCanBeHeld, sandboxAvailability } from "./sandbox-probes.js";

const { PYTHON, JAVASCRIPT, SHELL } = CodeExecutionLanguage;
const repository = new URL("../../../", import.meta.url).pathname.replace(/\/$/, "");

// Host files live outside /tmp, which the sandbox replaces with a private one anyway: the tests must show the sandbox
// hides them, not that they happen to be shadowed.
const hostDirectory = mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : tmpdir(), "toolsmith-code-sandbox-host-"));
const secret = `HOST-SECRET-${randomUUID()}`;
const secretFile = join(hostDirectory, "host-secret.txt");
writeFileSync(secretFile, `${secret}\n`);
afterAll(() => rmSync(hostDirectory, { recursive: true, force: true }));

const sandbox = sandboxAvailability("each sandbox test only checks the executor refuses to run");

/** An executor that finds this Node in the sandbox even where it is installed outside /usr. */
function sandboxed(options: SandboxedCodeExecutorOptions = {}): SandboxedCodeExecutor {
  const nodeDirectory = dirname(process.execPath);
  const nodeOutsideUsr = !nodeDirectory.startsWith("/usr/");
  return new SandboxedCodeExecutor({ timeoutSeconds: 20, ...(nodeOutsideUsr ? { commandPath: process.execPath, readOnlyPaths: [nodeDirectory] } : {}), ...options });
}

const agent = new LlmAgent({ name: "coder", model: "gemini-2.5-flash" });
const input = (code: string, language: CodeExecutionLanguage, rest: Partial<CodeExecutionInput> = {}): CodeExecutionInput => ({ code, language, inputFiles: [], ...rest });

async function execute(executor: SandboxedCodeExecutor | UnsafeLocalCodeExecutor, codeExecutionInput: CodeExecutionInput, abortSignal?: AbortSignal): Promise<CodeExecutionResult> {
  const invocationContext = await invocationFor(agent, abortSignal ? { abortSignal } : {});
  return executor.executeCode({ invocationContext, codeExecutionInput });
}

/** Runs code in the sandbox; on a host that cannot sandbox, checks the executor says so and answers undefined. */
async function run(executor: SandboxedCodeExecutor, codeExecutionInput: CodeExecutionInput, abortSignal?: AbortSignal): Promise<CodeExecutionResult | undefined> {
  const result = await execute(executor, codeExecutionInput, abortSignal);
  if (sandbox.unavailable) {
    expect(result).toEqual({ stdout: "", stderr: expect.stringContaining("Sandboxed code execution is unavailable, so the code was not run"), outputFiles: [] });
    return undefined;
  }
  return result;
}

/** Host processes whose command line holds `marker` (processes in the sandbox's pid namespace are listed in the host's /proc too). */
function hostProcessesWith(marker: string): number {
  let found = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker) && Number(pid) !== process.pid) found++;
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

function hostProcessCount(): number {
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).length;
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

describe("SandboxedCodeExecutor", () => {
  it("runs Python, JavaScript and shell code and gives back what each printed", async () => {
    const executor = sandboxed();
    const python = await run(executor, input("import sys\nprint(6 * 7, sys.argv[1:])", PYTHON, { args: { out: "x.txt" } }));
    if (!python) return;
    const javascript = await run(executor, input("console.log([1, 2].map((n) => n * 2).join(','))", JAVASCRIPT));
    const shell = await run(executor, input("echo $((2 + 3)) in $(pwd | sed 's|.*/||')", SHELL));
    console.log(`python → ${JSON.stringify(python.stdout)}, javascript → ${JSON.stringify(javascript!.stdout)}, shell → ${JSON.stringify(shell!.stdout)}`);
    expect(python).toEqual({ stdout: "42 ['--out', 'x.txt']\n", stderr: "", outputFiles: [] });
    expect(javascript).toEqual({ stdout: "2,4\n", stderr: "", outputFiles: [] });
    expect(shell).toEqual({ stdout: expect.stringMatching(/^5 in toolsmith-code-\w+\n$/), stderr: "", outputFiles: [] });
  });

  it("lets the code read its input files and gives back the files it wrote in its folder, not those in its private /tmp", async () => {
    const code = [
      "import os",
      "rows = open('data/in.csv').read().splitlines()",
      "os.makedirs('out', exist_ok=True)",
      "open('out/count.txt', 'w').write(str(len(rows)))",
      "open('pixel.png', 'wb').write(bytes([137, 80, 78, 71]))",
      "open('/tmp/scratch.txt', 'w').write('not an output')",
      "print(open('/tmp/scratch.txt').read())",
    ].join("\n");
    const result = await run(
      sandboxed(),
      input(code, PYTHON, {
        inputFiles: [
          { name: "data/in.csv", content: "a,b\n1,2\n3,4", mimeType: "text/csv" },
          { name: "logo.bin", content: Buffer.from([0, 1, 2]).toString("base64"), contentEncoding: FileContentEncoding.BASE64, mimeType: "application/octet-stream" },
        ],
      }),
    );
    if (!result) return;
    console.log(`input data/in.csv read, output files → ${result.outputFiles.map((file) => `${file.name} (${file.mimeType})`).join(", ")}`);
    expect(result).toEqual({
      stdout: "not an output\n",
      stderr: "",
      outputFiles: [
        { name: "out/count.txt", content: "3", contentEncoding: "utf-8", mimeType: "text/plain" },
        { name: "pixel.png", content: Buffer.from([137, 80, 78, 71]).toString("base64"), contentEncoding: "base64", mimeType: "image/png" },
      ],
    });
  });

  it("cannot read a host file outside its folder: a secret beside it, the repository, the host's home", async () => {
    const targets = [secretFile, join(repository, "package.json"), join(homedir(), ".bashrc"), "/etc/shadow"];
    const code = [
      `for path in ${JSON.stringify(targets)}:`,
      "    try:",
      "        print(path, '→ READ', open(path).read()[:80].replace('\\n', ' '))",
      "    except Exception as error:",
      "        print(path, '→', type(error).__name__)",
      // The sandbox's /proc is its own: process 1 is bubblewrap's, with the sandbox's environment, not the host's.
      "print('/proc/1/environ names →', ' '.join(sorted(entry.split('=')[0] for entry in open('/proc/1/environ').read().split('\\0') if entry)))",
    ].join("\n");
    const result = await run(sandboxed(), input(code, PYTHON));
    if (!result) return;
    console.log(`reading host files from the sandbox:\n${result.stdout}`);
    expect(result.stdout).not.toContain(secret);
    expect(result.stdout).toContain(`${secretFile} → FileNotFoundError`);
    expect(result.stdout).toContain(`${join(repository, "package.json")} → FileNotFoundError`);
    expect(result.stdout).toContain(`${join(homedir(), ".bashrc")} → FileNotFoundError`);
    expect(result.stdout).toContain("/etc/shadow → FileNotFoundError");
    const names = /^\/proc\/1\/environ names → (.*)$/m.exec(result.stdout)![1]!.split(" ");
    expect(names.filter((name) => !["HOME", "LANG", "LC_ALL", "LC_CTYPE", "PATH", "PWD", "TERM", "TZ"].includes(name))).toEqual([]);
  });

  it("cannot write outside its folder and its private /tmp and /dev/shm: not the host's home, the repository, /var/tmp, nor the sandbox's own /, /etc or /dev", async () => {
    const name = `pwned-${randomUUID()}`;
    const refused = [join(homedir(), name), join(repository, name), join(hostDirectory, name), `/etc/${name}`, `/usr/${name}`, `/${name}`, `/dev/${name}`, `/proc/${name}`];
    // The private /tmp and /dev/shm are writable, sized, and vanish with the run.
    const privateOnes = [`/tmp/${name}`, `/dev/shm/${name}`];
    const targets = [...refused, ...privateOnes];
    const code = targets.map((target) => `if echo pwned > ${target} 2>/dev/null; then echo "${target} → WRITTEN"; else echo "${target} → refused"; fi`).join("\n");
    const result = await run(sandboxed(), input(code, SHELL));
    if (!result) return;
    const onHost = targets.filter((target) => existsSync(target));
    console.log(`writing from the sandbox:\n${result.stdout}files that appeared on the host: ${onHost.length} of ${targets.length}`);
    expect(onHost).toEqual([]);
    for (const target of refused) expect(result.stdout).toContain(`${target} → refused`);
    for (const target of privateOnes) expect(result.stdout).toContain(`${target} → WRITTEN`);
  });

  it("has no network: a TCP server listening on the host's 127.0.0.1 cannot be reached", async () => {
    const server = await countingServer();
    const port = server.port;
    try {
      // The server answers a connection from the host, so a refusal in the sandbox is the sandbox's doing.
      await new Promise<void>((resolve, reject) => connect(port, "127.0.0.1").on("data", () => resolve()).on("error", reject));
      expect(server.connections()).toBe(1);
      const code = [
        "import socket",
        "try:",
        `    socket.create_connection(('127.0.0.1', ${port}), timeout=3).recv(5)`,
        "    print('CONNECTED')",
        "except OSError as error:",
        "    print('REFUSED', type(error).__name__, error.errno)",
        "try:",
        "    socket.getaddrinfo('example.com', 80)",
        "    print('RESOLVED')",
        "except OSError as error:",
        "    print('NO DNS', type(error).__name__)",
      ].join("\n");
      const result = await run(sandboxed(), input(code, PYTHON));
      if (!result) return;
      console.log(`connect to 127.0.0.1:${port} from the host → ok; from the sandbox → ${JSON.stringify(result.stdout)}; connections the server saw: ${server.connections()}`);
      expect(result.stdout).toMatch(/^REFUSED \w+ \d+\nNO DNS \w+\n$/);
      expect(server.connections()).toBe(1);
    } finally {
      server.close();
    }
  });

  it("sees none of the host's environment variables unless the developer allows them by name", async () => {
    process.env.TOOLSMITH_CODE_SECRET = secret;
    try {
      const code = "console.log(JSON.stringify(process.env))";
      const hidden = await run(sandboxed(), input(code, JAVASCRIPT));
      if (!hidden) return;
      const allowed = await run(sandboxed({ envAllowList: ["TOOLSMITH_CODE_SECRET"], env: { GREETING: "set by the developer" } }), input(code, JAVASCRIPT));
      const seen = JSON.parse(hidden.stdout) as Record<string, string>;
      console.log(`environment the code sees: ${Object.keys(seen).sort().join(" ")} (host has ${Object.keys(process.env).length} variables)`);
      expect(hidden.stdout).not.toContain(secret);
      expect(Object.keys(seen).filter((key) => !["HOME", "LANG", "LC_ALL", "LC_CTYPE", "PATH", "PWD", "TERM", "TZ"].includes(key))).toEqual([]);
      expect(seen).toMatchObject({ HOME: "/tmp", PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" });
      expect(JSON.parse(allowed!.stdout)).toMatchObject({ TOOLSMITH_CODE_SECRET: secret, GREETING: "set by the developer" });
    } finally {
      delete process.env.TOOLSMITH_CODE_SECRET;
    }
  });

  // Every shell of this bomb waits for its children, so it grows until it meets the limit (see sandbox.test.ts).
  it("holds a fork bomb to the process limit and returns within the time limit, saying which limit it hit", async () => {
    if (!(await forkBombCanBeHeld())) return;
    const before = hostProcessCount();
    const started = Date.now();
    const result = await run(sandboxed({ timeoutSeconds: 8, limits: { processes: 64 } }), input(":(){ :|: & wait; };:", SHELL));
    if (!result) return;
    const elapsed = Date.now() - started;
    const after = await until(() => hostProcessCount() < before + 20, 5_000);
    console.log(`fork bomb with processes 64, timeoutSeconds 8 → returned after ${elapsed} ms; stderr ends ${JSON.stringify(result.stderr.split("\n").slice(-2).join(" | "))}; host processes before ${before}, after ${hostProcessCount()}`);
    expect(result.stderr).toContain("Sandbox limit processes reached: The command hit the process limit of 64");
    expect(elapsed).toBeLessThan(20_000);
    expect(after).toBe(true);
  });

  it("stops a runaway loop at the CPU-time limit and says so", async () => {
    const started = Date.now();
    const result = await run(sandboxed({ limits: { cpuTimeSeconds: 1 } }), input("while True:\n    pass", PYTHON));
    if (!result) return;
    console.log(`"while True: pass" with cpuTimeSeconds 1 → returned after ${Date.now() - started} ms: ${JSON.stringify(result.stderr)}`);
    expect(result.stderr).toContain("Sandbox limit cpuTimeSeconds reached");
    expect(result.stderr).toContain("CPU-time limit of 1 s");
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("stops a file that outgrows the file-size limit and says so", async () => {
    const result = await run(sandboxed({ limits: { fileSizeBytes: 1024 ** 2 } }), input("open('big.bin', 'wb').write(b'x' * 5 * 1024 * 1024)", PYTHON));
    if (!result) return;
    console.log(`writing 5 MiB with fileSizeBytes 1 MiB → ${JSON.stringify(result.stderr)}, files back: ${result.outputFiles.map((file) => `${file.name} ${Buffer.from(file.content, "base64").length} B`).join(", ")}`);
    expect(result.stderr).toContain("OSError: [Errno 27] File too large");
    expect(result.stderr).toContain("Sandbox limit fileSizeBytes reached: The command was stopped: it tried to write a file larger than the file-size limit of 1048576 bytes.");
    expect(result.outputFiles.every((file) => Buffer.from(file.content, "base64").length <= 1024 ** 2)).toBe(true);
  });

  it("kills code that sleeps past timeoutSeconds, and says it timed out", async () => {
    const started = Date.now();
    const result = await run(sandboxed({ timeoutSeconds: 1 }), input("echo before; sleep 30; echo after", SHELL));
    if (!result) return;
    const elapsed = Date.now() - started;
    console.log(`"sleep 30" with timeoutSeconds 1 → returned after ${elapsed} ms: ${JSON.stringify(result)}`);
    expect(result.stdout).toBe("before\n");
    expect(result.stderr).toContain("Code execution timed out after 1 seconds.");
    expect(elapsed).toBeLessThan(5_000);
  });

  it("ends the background processes the code leaves behind, even those that start a new session or double-fork", async () => {
    const marker = `toolsmith-bg-${randomUUID()}`;
    const code = [
      `bash -c 'exec -a ${marker}-plain sleep 300' &`,
      `setsid bash -c 'exec -a ${marker}-setsid sleep 300' &`,
      `( ( nohup bash -c 'exec -a ${marker}-daemon sleep 300' >/dev/null 2>&1 & ) & )`,
      "sleep 1.5",
      "echo left three sleepers",
    ].join("\n");
    const executor = sandboxed();
    let seenDuringRun = 0;
    const running = run(executor, input(code, SHELL));
    await until(() => (seenDuringRun = hostProcessesWith(marker)) === 3, 5_000);
    const result = await running;
    if (!result) return;
    const afterRun = hostProcessesWith(marker);
    console.log(`background sleepers seen on the host while the code ran: ${seenDuringRun}; after it returned: ${afterRun}`);
    expect(result.stdout).toBe("left three sleepers\n");
    expect(seenDuringRun).toBe(3);
    expect(afterRun).toBe(0);
  });

  it("stops the code when the invocation's signal aborts, and runs nothing for a signal already aborted", async () => {
    const marker = `toolsmith-abort-${randomUUID()}`;
    const controller = new AbortController();
    const started = Date.now();
    const running = run(sandboxed({ timeoutSeconds: 60 }), input(`echo started\nbash -c 'exec -a ${marker} sleep 300' &\nsleep 60`, SHELL), controller.signal);
    const appeared = await until(() => hostProcessesWith(marker) > 0, 5_000);
    controller.abort();
    const result = await running;
    if (!result) return;
    const elapsed = Date.now() - started;
    console.log(`abort after the code started → returned after ${elapsed} ms: ${JSON.stringify(result)}; its processes left: ${hostProcessesWith(marker)}`);
    expect(appeared).toBe(true);
    expect(result.stdout).toBe("started\n");
    expect(result.stderr).toContain("Code execution was stopped: the run was cancelled.");
    expect(elapsed).toBeLessThan(10_000);
    expect(hostProcessesWith(marker)).toBe(0);

    const early = await run(sandboxed(), input("echo ran", SHELL), AbortSignal.abort());
    expect(early).toEqual({ stdout: "", stderr: expect.stringContaining("cancelled before the code started"), outputFiles: [] });
  });

  it("never reads back what the links the code leaves point at, whatever the layout (fast-check)", async () => {
    if (sandbox.unavailable) {
      await run(sandboxed(), input("ln -s /etc/passwd leak.txt", SHELL));
      return;
    }
    const hostTargets = [secretFile, hostDirectory, "/etc/passwd", "/etc", "/", homedir(), repository, join(repository, "package.json"), "/proc/self/environ", `../../../..${secretFile}`, "../../../../etc/passwd"];
    const hostBytes = readFileSync("/etc/passwd", "utf8").split("\n")[0]!;
    const name = fc
      .tuple(fc.array(fc.constantFrom("a", "b", "data", "sub dir", ".hidden"), { minLength: 1, maxLength: 3 }), fc.constantFrom(".txt", ".csv", ".png", "", ".json"))
      .map(([segments, ending]) => segments.join("/") + ending);
    const entry = fc.oneof(
      fc.record({ kind: fc.constant("file" as const), name }),
      fc.record({ kind: fc.constant("link" as const), name, target: fc.constantFrom(...hostTargets) }),
      fc.record({ kind: fc.constant("link-to-own" as const), name, index: fc.nat() }),
      fc.record({ kind: fc.constant("hardlink-to-own" as const), name, index: fc.nat() }),
      fc.record({ kind: fc.constant("dangling" as const), name }),
      fc.record({ kind: fc.constant("loop" as const), name }),
      fc.record({ kind: fc.constant("fifo" as const), name }),
    );
    const layout = fc.record({ entries: fc.uniqueArray(entry, { minLength: 1, maxLength: 12, selector: (item) => item.name }), swapLate: fc.boolean() });
    const executor = sandboxed();
    let cases = 0;
    let links = 0;
    let filesBack = 0;
    let swapped = 0;
    await fc.assert(
      fc.asyncProperty(layout, async ({ entries, swapLate }) => {
        cases++;
        const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
        const own = entries.filter((item) => item.kind === "file").map((item) => item.name);
        const lines = entries.map((item, index) => {
          const path = quote(item.name);
          const prepare = `mkdir -p "$(dirname ${path})"`;
          switch (item.kind) {
            case "file":
              return `${prepare}; printf 'own-%s' ${index} > ${path}`;
            case "link":
              return `${prepare}; ln -s ${quote(item.target)} ${path}`;
            case "link-to-own":
              return own.length ? `${prepare}; ln -s "$PWD/"${quote(own[item.index % own.length]!)} ${path}` : "true";
            case "hardlink-to-own":
              return own.length ? `${prepare}; ln ${quote(own[item.index % own.length]!)} ${path}` : "true";
            case "dangling":
              return `${prepare}; ln -s /nowhere/${index} ${path}`;
            case "loop":
              return `${prepare}; ln -s ${path} ${path}`;
            case "fifo":
              return `${prepare}; mkfifo ${path}`;
          }
        });
        // A process racing the end of the run to turn the regular files into links to the host's secret: whatever it
        // manages before the sandbox ends it, the links are not followed.
        if (swapLate) lines.push(`( while [ ! -e /tmp/done ]; do sleep 0.005; done; find . -type f ! -name script.sh -exec sh -c 'rm -f "$1"; ln -s ${secretFile} "$1"' _ {} \\; ) &`);
        lines.push("find . -type f ! -name script.sh | sed 's|^\\./||' | sort", 'echo "links=$(find . -type l | wc -l)"', "touch /tmp/done");
        const result = await execute(executor, input(["exec 2>/dev/null", ...lines].join("\n"), SHELL));
        const printed = result.stdout.split("\n").filter(Boolean);
        const regular = printed.filter((line) => !line.startsWith("links="));
        links += Number(printed.find((line) => line.startsWith("links="))?.slice("links=".length) ?? 0);
        filesBack += result.outputFiles.length;
        for (const file of result.outputFiles) {
          const text = Buffer.from(file.content, file.contentEncoding === FileContentEncoding.BASE64 ? "base64" : "utf8").toString("utf8");
          expect(text).not.toContain(secret);
          expect(text).not.toContain(hostBytes);
          expect(text).toMatch(/^own-\d+$/);
        }
        const names = result.outputFiles.map((file) => file.name).sort();
        // Exactly the regular files the code saw in its folder come back: no link, no folder reached through one. A
        // racing swap may have turned some into links in the moment before the sandbox ended; those are left out.
        if (swapLate) {
          expect(regular).toEqual(expect.arrayContaining(names));
          swapped += regular.length - names.length;
        } else {
          expect(names).toEqual([...regular].sort());
        }
      }),
      { numRuns: 40 },
    );
    console.log(`fuzzed ${cases} hostile output layouts: ${links} links left by the code (to ${hostTargets.length} host targets, own files, nowhere, themselves), ${filesBack} regular files read back, none from outside the folder; ${swapped} files turned into links by a racing process were left out`);
    expect(cases).toBe(40);
  }, 120_000);

  it("answers that the sandbox is unavailable and runs nothing when bubblewrap is missing or cannot work", async () => {
    const marker = join(hostDirectory, `ran-${randomUUID()}`);
    const code = `touch ${marker}`;
    // The same code, run unsandboxed, does leave the marker: its absence below means nothing ran.
    expect(await execute(new UnsafeLocalCodeExecutor(), input(code, SHELL))).toEqual({ stdout: "", stderr: "", outputFiles: [] });
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    const missing = await execute(sandboxed({ bwrapPath: "/nonexistent/bwrap" }), input(code, SHELL));
    const broken = await execute(sandboxed({ bwrapPath: "/bin/false" }), input(code, SHELL));
    console.log(`bwrapPath /nonexistent/bwrap → ${JSON.stringify(missing.stderr)}\nbwrapPath /bin/false → ${JSON.stringify(broken.stderr)}\nmarker on the host: ${existsSync(marker)}`);
    expect(missing).toEqual({ stdout: "", stderr: expect.stringContaining("Sandboxed code execution is unavailable, so the code was not run. bubblewrap is not installed (no executable at /nonexistent/bwrap)"), outputFiles: [] });
    expect(missing.stderr).toContain("apt-get install bubblewrap");
    expect(broken).toEqual({ stdout: "", stderr: expect.stringContaining("bubblewrap is installed but cannot create its sandbox here"), outputFiles: [] });
    expect(existsSync(marker)).toBe(false);
  });

  it("runs the system's python3 by default, and an interpreter installed elsewhere when its folder is shown read-only", async () => {
    const probe = "import sys\nprint(sys.executable, sys.version.split()[0])";
    const system = await run(sandboxed(), input(probe, PYTHON));
    if (!system) return;
    const missing = await run(sandboxed({ pythonCommandPath: "python9" }), input(probe, PYTHON));
    console.log(`default python3 in the sandbox → ${JSON.stringify(system.stdout)}; pythonCommandPath "python9" → ${JSON.stringify(missing!.stderr)}`);
    expect(system.stdout).toMatch(/^\/usr\/(local\/)?bin\/python3\S* 3\.\d+\.\d+\n$/);
    expect(missing!.stderr).toContain("The sandbox has no python9 to run the code");
    const [prefix, executable] = execFileSync("python3", ["-c", "import sys, os; print(sys.base_prefix); print(os.path.realpath(sys.executable))"], { encoding: "utf8" }).trim().split("\n");
    if (prefix!.startsWith("/usr")) {
      console.log(`the host's python3 is the system's (${executable}); no interpreter outside /usr to show`);
      return;
    }
    const outside = await run(sandboxed({ pythonCommandPath: executable!, readOnlyPaths: [prefix!] }), input(probe, PYTHON));
    console.log(`pythonCommandPath ${executable} with readOnlyPaths [${prefix}] → ${JSON.stringify(outside!.stdout)}`);
    expect(outside).toEqual({ stdout: `${executable} ${execFileSync(executable!, ["-c", "import sys; print(sys.version.split()[0])"], { encoding: "utf8" }).trim()}\n`, stderr: "", outputFiles: [] });
    expect(() => new SandboxedCodeExecutor({ pythonCommandPath: executable! })).toThrow(expect.objectContaining({ code: "INVALID_SANDBOX_OPTION", message: expect.stringContaining("Add the folder the program is installed in to readOnlyPaths") }));
  });

  it("refuses unknown options by name, listing the ones it takes, and limits or paths that make no sense", () => {
    expect(() => new SandboxedCodeExecutor({ readonlyPaths: ["/opt"] } as never)).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_OPTION", message: expect.stringContaining('SandboxedCodeExecutor has no option "readonlyPaths": it takes timeoutSeconds, commandPath, pythonCommandPath') }),
    );
    expect(() => new SandboxedCodeExecutor({ limits: { cpuSeconds: 5 } as never })).toThrow(expect.objectContaining({ code: "INVALID_SANDBOX_OPTION", message: expect.stringContaining("cpuTimeSeconds") }));
    expect(() => new SandboxedCodeExecutor({ limits: { processes: 0 } })).toThrow(expect.objectContaining({ code: "INVALID_SANDBOX_OPTION" }));
    expect(() => new SandboxedCodeExecutor({ readOnlyPaths: ["opt/python"] })).toThrow(expect.objectContaining({ code: "INVALID_SANDBOX_OPTION", message: expect.stringContaining("absolute") }));
    expect(() => new SandboxedCodeExecutor({ timeoutSeconds: 0 })).toThrow(expect.objectContaining({ code: "UNSUPPORTED_OPTION" }));
    expect(() => new SandboxedCodeExecutor({ shellCommandPath: "./bash" })).toThrow(expect.objectContaining({ code: "INVALID_SANDBOX_OPTION" }));
  });

  it("runs the code of an LlmAgent's answer in the sandbox and shows the model its result", async () => {
    const model = new ScriptedModel([textResponse("```python\nprint(6*7)\n```"), textResponse("6 times 7 is 42.")]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "calculator", model, codeExecutor: new SandboxedCodeExecutor() }) });
    const session = await runner.sessionService.createSession({ appName: runner.appName, userId: "u" });
    await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("What is 6 times 7?") }));
    const stored = await runner.sessionService.getSession({ appName: runner.appName, userId: "u", sessionId: session.id });
    const parts = stored!.events.flatMap((event) => event.content?.parts ?? []);
    const code = parts.find((part) => part.executableCode)?.executableCode;
    const result = parts.find((part) => part.codeExecutionResult)?.codeExecutionResult;
    const secondRequest = JSON.stringify(model.requests[1]?.contents);
    console.log(`agent ran ${JSON.stringify(code?.code)} → ${JSON.stringify(result)}; second model request holds "42": ${secondRequest.includes("42")}`);
    expect(code?.code).toBe("print(6*7)");
    if (sandbox.unavailable) {
      expect(result?.output).toContain("Sandboxed code execution is unavailable");
      return;
    }
    expect(result).toMatchObject({ outcome: "OUTCOME_OK", output: expect.stringContaining("42") });
    expect(secondRequest).toContain("Code execution result:\\n42\\n");
    model.assertComplete();
  });
});
