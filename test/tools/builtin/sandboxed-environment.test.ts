/**
 * `SandboxedEnvironment`: ADK's environment with every command under bubblewrap. What a command can reach, the
 * limits it runs under, and files written and read by the program while commands leave links behind. Where
 * bubblewrap cannot sandbox on this host, each test checks instead that nothing runs (said on the console).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { LocalEnvironment, ToolsmithError } from "../../../src/index.js";
import { SandboxedEnvironment, type SandboxedEnvironmentOptions } from "../../../src/tools/builtin/index.js";
import { countingServer, forkBombCanBeHeld, sandboxAvailability } from "./sandbox-probes.js";

const sandbox = sandboxAvailability("each test checks that initialize() refuses and nothing runs");
const scratch = realpathSync(mkdtempSync(join(tmpdir(), "toolsmith-sandboxed-env-")));
const made: SandboxedEnvironment[] = [];
afterEach(async () => {
  for (const environment of made.splice(0)) await environment.close();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** An initialized environment, or `undefined` where bubblewrap cannot sandbox (after checking it refuses to start). */
async function ready(options: SandboxedEnvironmentOptions = {}): Promise<SandboxedEnvironment | undefined> {
  const environment = new SandboxedEnvironment(options);
  made.push(environment);
  if (sandbox.unavailable) {
    await expect(environment.initialize()).rejects.toMatchObject({ code: "SANDBOX_UNAVAILABLE" });
    return undefined;
  }
  await environment.initialize();
  return environment;
}

describe("SandboxedEnvironment", () => {
  it("runs a command in the working directory and answers as LocalEnvironment does", async () => {
    const environment = await ready();
    if (!environment) return;
    expect(environment).toBeInstanceOf(LocalEnvironment);
    await environment.writeFile("data/in.txt", "6 7\n");
    const result = await environment.execute("read a b < data/in.txt; echo $((a * b)) | tee data/out.txt; echo note >&2; exit 3", 10);
    expect(result).toEqual({ exitCode: 3, stdout: "42\n", stderr: "note\n", timedOut: false });
    expect(Buffer.from(await environment.readFile("data/out.txt")).toString()).toBe("42\n");
    expect(readFileSync(join(environment.workingDir, "data/out.txt"), "utf8")).toBe("42\n");
  });

  it("lets a command write only its working directory and its private /tmp: nothing appears on the host elsewhere", async () => {
    const environment = await ready();
    if (!environment) return;
    const name = `toolsmith-probe-${process.pid}`;
    const refused = [join(homedir(), name), join(scratch, name), `/etc/${name}`, `/usr/${name}`, `/${name}`, `/dev/${name}`];
    const command = [...refused, `/tmp/${name}`, `./${name}`].map((target) => `if echo pwned > ${target} 2>/dev/null; then echo "${target} WRITTEN"; else echo "${target} refused"; fi`).join("; ");
    const result = await environment.execute(command, 20);
    console.log(`writing from a sandboxed environment:\n${result.stdout}`);
    for (const target of refused) {
      expect(result.stdout).toContain(`${target} refused`);
      expect(existsSync(target)).toBe(false);
    }
    expect(result.stdout).toContain(`/tmp/${name} WRITTEN`);
    expect(existsSync(join(tmpdir(), name))).toBe(false);
    expect(readFileSync(join(environment.workingDir, name), "utf8")).toBe("pwned\n");
  });

  it("has no network and none of the host's variables but those allowed; envVars are set", async () => {
    process.env.TOOLSMITH_ENV_SECRET = "host-secret";
    const server = await countingServer();
    try {
      const hidden = await ready({ envVars: { GREETING: "set" } });
      if (!hidden) return;
      const allowed = await ready({ envAllowList: ["TOOLSMITH_ENV_SECRET"] });
      const probe = `echo "secret=$TOOLSMITH_ENV_SECRET greeting=$GREETING home=$HOME"; (exec 3<>/dev/tcp/127.0.0.1/${server.port}) 2>/dev/null && echo CONNECTED || echo REFUSED`;
      const seen = await hidden.execute(`bash -c '${probe.replace(/'/g, "'\\''")}'`, 10);
      const seenAllowed = await allowed!.execute("echo \"secret=$TOOLSMITH_ENV_SECRET\"", 10);
      console.log(`sandboxed environment: ${JSON.stringify(seen.stdout)}; with the variable allowed: ${JSON.stringify(seenAllowed.stdout)}; connections the host's server saw: ${server.connections()}`);
      expect(seen.stdout).toBe("secret= greeting=set home=/tmp\nREFUSED\n");
      expect(seenAllowed.stdout).toBe("secret=host-secret\n");
      expect(server.connections()).toBe(0);
    } finally {
      delete process.env.TOOLSMITH_ENV_SECRET;
      server.close();
    }
  });

  it("writes from inside the sandbox, so a link a command left cannot lead a write to the host's files; reads refuse it", async () => {
    const environment = await ready();
    if (!environment) return;
    const outside = mkdtempSync(join(scratch, "outside-"));
    writeFileSync(join(outside, "secret.txt"), "secret");
    const made = await environment.execute(`ln -s ${outside} out-dir; ln -s ${outside}/secret.txt out-file; ln -s /etc etc-link`, 10);
    expect(made.exitCode).toBe(0);
    for (const operation of [() => environment.writeFile("out-dir/new.txt", "x"), () => environment.writeFile("out-file", "x"), () => environment.writeFile("etc-link/toolsmith-probe", "x")]) {
      const error = await operation().then(
        () => undefined,
        (caught: ToolsmithError) => caught,
      );
      // Inside the sandbox the link leads to a place it does not show or shows read-only; the write lands nowhere on the host.
      if (error) expect(error.code).toBe("IO");
    }
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("secret");
    expect(existsSync("/etc/toolsmith-probe")).toBe(false);
    await expect(environment.readFile("out-file")).rejects.toMatchObject({ code: "PATH_REFUSED" });
    await expect(environment.writeFile("../escape.txt", "x")).rejects.toMatchObject({ code: "PATH_REFUSED", message: expect.stringContaining("Path escapes working directory: ../escape.txt") });
    const error = await environment.writeFile("etc-link/toolsmith-probe", "x").catch((caught: Error) => caught);
    console.log(`writing through a link to /etc a command left: ${(error as Error).message}`);
  });

  it("stops a runaway command at the CPU-time limit and says which limit it hit", async () => {
    const environment = await ready({ limits: { cpuTimeSeconds: 1 } });
    if (!environment) return;
    const started = Date.now();
    const result = await environment.execute("while :; do :; done", 20);
    console.log(`a busy loop with cpuTimeSeconds 1 → returned after ${Date.now() - started} ms: ${JSON.stringify(result.stderr)}`);
    expect(result.timedOut).toBe(false);
    expect(result.stderr).toContain("Sandbox limit cpuTimeSeconds reached: The command was stopped: it used its CPU-time limit of 1 s.");
  });

  it("holds a fork bomb to the process limit", async () => {
    if (!(await forkBombCanBeHeld())) return;
    const environment = await ready({ limits: { processes: 64 } });
    if (!environment) return;
    const started = Date.now();
    const result = await environment.execute("bash -c ':(){ :|: & wait; };:'", 8);
    console.log(`fork bomb with processes 64 → returned after ${Date.now() - started} ms; stderr ends ${JSON.stringify(result.stderr.split("\n").slice(-2).join(" | "))}`);
    expect(result.stderr).toContain("Sandbox limit processes reached: The command hit the process limit of 64");
  });

  it("kills what a command started at its time limit, and close() stops commands still running", async () => {
    const environment = await ready();
    if (!environment) return;
    const timed = await environment.execute("sleep 30 & sleep 30", 0.5);
    expect(timed).toMatchObject({ exitCode: -9, timedOut: true });
    // A signal inside the sandbox reads as bubblewrap reports it: 128 plus its number.
    expect(await environment.execute("kill -TERM $$", 10)).toEqual({ exitCode: 128 + 15, stdout: "", stderr: "", timedOut: false });
    const running = environment.execute("sleep 30");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const workingDir = environment.workingDir;
    await environment.close();
    expect(await running).toMatchObject({ timedOut: false });
    expect(existsSync(workingDir)).toBe(false);
  });

  it("refuses a misspelt option, and refuses to start where bubblewrap is missing: nothing runs unsandboxed", async () => {
    expect(() => new SandboxedEnvironment({ readonlyPaths: ["/opt"] } as never)).toThrow('SandboxedEnvironment has no option "readonlyPaths": it takes workingDir, envVars, maxOutputBytes, envAllowList, bwrapPath, limits, readOnlyPaths. Check its spelling.');
    expect(() => new SandboxedEnvironment({ readOnlyPaths: ["relative/path"] })).toThrow(/readOnlyPaths names "relative\/path", which is not an absolute path that exists on this host/);
    expect(() => new SandboxedEnvironment({ limits: { processes: 0 } })).toThrow("limits.processes is 0; give a whole number of at least 1 (the default is 256).");
    const missing = new SandboxedEnvironment({ bwrapPath: "/nonexistent/bwrap", workingDir: join(scratch, "never") });
    const error = await missing.initialize().catch((caught: ToolsmithError) => caught);
    expect(error).toBeInstanceOf(ToolsmithError);
    expect((error as ToolsmithError).code).toBe("SANDBOX_UNAVAILABLE");
    expect((error as ToolsmithError).message).toBe(
      'SandboxedEnvironment cannot run commands here: bubblewrap is not installed (no executable at /nonexistent/bwrap). Install it with "apt-get install bubblewrap". It never runs them unsandboxed; use LocalEnvironment if you trust the commands.',
    );
    expect(missing.isInitialized).toBe(false);
    await expect(missing.execute("true")).rejects.toMatchObject({ code: "ENVIRONMENT_NOT_INITIALIZED" });
  });
});
