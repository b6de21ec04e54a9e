import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BaseEnvironment, LocalEnvironment, ToolsmithError, type ExecutionResult } from "../../src/index.js";
import { processRuns } from "../support/process-runs.js";

const made: LocalEnvironment[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const environment of made.splice(0)) await environment.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function ready(options: ConstructorParameters<typeof LocalEnvironment>[0] = {}): Promise<LocalEnvironment> {
  const environment = new LocalEnvironment(options);
  made.push(environment);
  await environment.initialize();
  return environment;
}

function folder(): string {
  const path = realpathSync(mkdtempSync(join(tmpdir(), "toolsmith-env-test-")));
  folders.push(path);
  return path;
}

async function errorOf(promise: Promise<unknown> | (() => unknown)): Promise<ToolsmithError & NodeJS.ErrnoException> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    return error as ToolsmithError & NodeJS.ErrnoException;
  }
  throw new Error("expected an error");
}

describe("LocalEnvironment's life: initialize and close", () => {
  it("makes a temporary working directory at initialize and removes it at close", async () => {
    const environment = new LocalEnvironment();
    expect(environment.isInitialized).toBe(false);
    const before = await errorOf(() => environment.workingDir);
    expect(before.code).toBe("ENVIRONMENT_NOT_INITIALIZED");
    expect(before.message).toBe("`workingDir` is not set. Call initialize() first.");
    await environment.initialize();
    const workingDir = environment.workingDir;
    expect(environment.isInitialized).toBe(true);
    expect(workingDir.startsWith(join(tmpdir(), "adk_workspace_"))).toBe(true);
    expect(existsSync(workingDir)).toBe(true);
    await environment.initialize();
    expect(environment.workingDir).toBe(workingDir);
    await environment.close();
    expect(existsSync(workingDir)).toBe(false);
    expect(environment.isInitialized).toBe(false);
    await environment.close();
  });

  it("makes a given working directory (folders and all), takes a relative one from the current directory, and keeps it at close", async () => {
    const parent = folder();
    const environment = await ready({ workingDir: join(parent, "deep", "work") });
    expect(environment.workingDir).toBe(join(parent, "deep", "work"));
    await environment.writeFile("kept.txt", "kept");
    await environment.close();
    expect(readFileSync(join(parent, "deep", "work", "kept.txt"), "utf8")).toBe("kept");
    const relativeOne = new LocalEnvironment({ workingDir: relative(process.cwd(), join(parent, "relative")) });
    expect(relativeOne.workingDir).toBe(join(parent, "relative"));
  });

  it("refuses every operation before initialize and after close, saying to call initialize()", async () => {
    const environment = new LocalEnvironment({ workingDir: folder() });
    for (const operation of [() => environment.execute("true"), () => environment.readFile("a"), () => environment.writeFile("a", "x")]) {
      const error = await errorOf(operation);
      expect(error).toBeInstanceOf(ToolsmithError);
      expect(error.code).toBe("ENVIRONMENT_NOT_INITIALIZED");
      expect(error.message).toBe("Environment is not initialized. Call initialize() first.");
    }
    await environment.initialize();
    await environment.close();
    expect((await errorOf(environment.execute("true"))).code).toBe("ENVIRONMENT_NOT_INITIALIZED");
  });

  it("refuses an option it does not know, and a maxOutputBytes that is not a positive number", () => {
    expect(() => new LocalEnvironment({ workdir: "/tmp" } as never)).toThrow('LocalEnvironment has no option "workdir": it takes workingDir, envVars, maxOutputBytes. Check its spelling.');
    expect(() => new LocalEnvironment({ maxOutputBytes: 0 })).toThrow("LocalEnvironment's maxOutputBytes must be a positive number; it got 0.");
  });

  it("is a BaseEnvironment, and a subclass of BaseEnvironment gets initialize, close and the initialized check", async () => {
    expect(await ready()).toBeInstanceOf(BaseEnvironment);
    class Remembering extends BaseEnvironment {
      readonly files = new Map<string, Uint8Array>();
      get workingDir() {
        return "/remembered";
      }
      override async initialize() {
        this.initialized = true;
      }
      async execute(command: string): Promise<ExecutionResult> {
        this.assertInitialized();
        return { exitCode: 0, stdout: command, stderr: "", timedOut: false };
      }
      async readFile(path: string) {
        this.assertInitialized();
        return this.files.get(path) ?? new Uint8Array();
      }
      async writeFile(path: string, content: string | Uint8Array) {
        this.assertInitialized();
        this.files.set(path, typeof content === "string" ? new TextEncoder().encode(content) : content);
      }
    }
    const remembering = new Remembering();
    expect((await errorOf(remembering.execute("echo"))).code).toBe("ENVIRONMENT_NOT_INITIALIZED");
    await remembering.initialize();
    await remembering.writeFile("a", "b");
    expect(new TextDecoder().decode(await remembering.readFile("a"))).toBe("b");
    await remembering.close();
    expect(remembering.isInitialized).toBe(true);
  });
});

describe("LocalEnvironment.execute", () => {
  it("answers a command's exit code, standard output and error, run by /bin/sh in the working directory", async () => {
    const environment = await ready();
    expect(await environment.execute("true")).toEqual({ exitCode: 0, stdout: "", stderr: "", timedOut: false });
    expect(await environment.execute("pwd; echo oops >&2; exit 7")).toEqual({ exitCode: 7, stdout: `${realpathSync(environment.workingDir)}\n`, stderr: "oops\n", timedOut: false });
    expect(await environment.execute("printf 'caf\\303\\251 \\377'")).toEqual({ exitCode: 0, stdout: "café \uFFFD", stderr: "", timedOut: false });
  });

  it("gives a command ended by a signal minus the signal's number, as ADK (and Python) do", async () => {
    const environment = await ready();
    expect(await environment.execute("kill -TERM $$")).toEqual({ exitCode: -15, stdout: "", stderr: "", timedOut: false });
  });

  it("sets envVars over process.env", async () => {
    const environment = await ready({ envVars: { TOOLSMITH_GREETING: "hi", PATH: `/opt/none:${process.env.PATH}` } });
    const result = await environment.execute('echo "$TOOLSMITH_GREETING $HOME"; echo "$PATH" | cut -d: -f1');
    expect(result.stdout).toBe(`hi ${process.env.HOME}\n/opt/none\n`);
  });

  it("kills everything a command started when it passes its time limit, grandchildren included", async () => {
    const environment = await ready();
    const started = Date.now();
    const result = await environment.execute("sh -c 'sleep 30 & echo $! > grandchild.pid; wait' ; echo never", 0.5);
    const elapsed = Date.now() - started;
    console.log(`a command under a 0.5 s limit returned after ${elapsed} ms`);
    expect(result).toMatchObject({ exitCode: -9, timedOut: true });
    expect(result.stdout).not.toContain("never");
    const grandchild = Number(readFileSync(join(environment.workingDir, "grandchild.pid"), "utf8"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(processRuns(grandchild)).toBe(false);
  });

  it("ends background processes a command leaves when it exits, instead of waiting for them", async () => {
    const environment = await ready();
    const started = Date.now();
    const result = await environment.execute("sleep 30 & echo $! > background.pid; echo started");
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result).toEqual({ exitCode: 0, stdout: "started\n", stderr: "", timedOut: false });
    const background = Number(readFileSync(join(environment.workingDir, "background.pid"), "utf8"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(processRuns(background)).toBe(false);
  });

  it("keeps at most maxOutputBytes of output and says it dropped the rest", async () => {
    const environment = await ready({ maxOutputBytes: 1000 });
    const result = await environment.execute("head -c 5000000 /dev/zero | tr '\\0' x; echo done >&2");
    expect(result.stdout.length + result.stderr.length).toBeLessThanOrEqual(1000);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, truncated: true });
    expect((await environment.execute("echo small")).truncated).toBeUndefined();
  });

  it("refuses a time limit that is not a positive number of seconds, and runs nothing", async () => {
    const environment = await ready();
    for (const timeout of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, "5" as unknown as number]) {
      const error = await errorOf(environment.execute("touch ran", timeout));
      expect(error.code).toBe("INVALID_ARGUMENTS");
      expect(error.message).toMatch(/^timeoutSeconds must be a positive number of seconds, or left out for no limit; it got /);
    }
    expect(existsSync(join(environment.workingDir, "ran"))).toBe(false);
  });

  it("says the working directory is gone when something removed it, and how to make it again", async () => {
    const environment = await ready();
    rmSync(environment.workingDir, { recursive: true });
    const error = await errorOf(environment.execute("true"));
    expect(error.code).toBe("NO_WORKING_DIRECTORY");
    expect(error.message).toBe(`The working directory ${environment.workingDir} no longer exists, so the command did not run. Call initialize() to make it again.`);
    await environment.initialize();
    expect((await environment.execute("true")).exitCode).toBe(0);
  });

  it("runs commands concurrently", async () => {
    const environment = await ready();
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 4 }, (_, index) => environment.execute(`sleep 0.4; echo ${index}`)));
    const elapsed = Date.now() - started;
    console.log(`four 0.4 s commands at once took ${elapsed} ms`);
    expect(results.map((result) => result.stdout)).toEqual(["0\n", "1\n", "2\n", "3\n"]);
  });

  it("close() stops running commands and everything they started before it removes the working directory", async () => {
    const environment = new LocalEnvironment();
    await environment.initialize();
    const workingDir = environment.workingDir;
    const running = environment.execute("sleep 30 & echo $! > child.pid; while true; do date > clock.txt; sleep 0.05; done");
    while (!existsSync(join(workingDir, "child.pid")) || !existsSync(join(workingDir, "clock.txt"))) await new Promise((resolve) => setTimeout(resolve, 20));
    const child = Number(readFileSync(join(workingDir, "child.pid"), "utf8"));
    await environment.close();
    expect(await running).toMatchObject({ exitCode: -9, timedOut: false });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(processRuns(child)).toBe(false);
    expect(existsSync(workingDir)).toBe(false);
  });
});

describe("LocalEnvironment.readFile and writeFile", () => {
  it("writes text and bytes as given (CRLF kept), making folders, and reads them back by relative or absolute path", async () => {
    const environment = await ready();
    await environment.writeFile("notes/day/one.txt", "line\r\nnext");
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    await environment.writeFile(join(environment.workingDir, "raw.bin"), bytes);
    expect(Buffer.from(await environment.readFile("notes/day/one.txt")).toString("utf8")).toBe("line\r\nnext");
    expect([...(await environment.readFile("raw.bin"))]).toEqual([...bytes]);
    await environment.writeFile("notes/day/one.txt", "shorter");
    expect(readFileSync(join(environment.workingDir, "notes/day/one.txt"), "utf8")).toBe("shorter");
  });

  it("rejects a missing file with Node's ENOENT error, as ADK does", async () => {
    const environment = await ready();
    const error = await errorOf(environment.readFile("absent.txt"));
    expect(error.code).toBe("ENOENT");
  });

  it("refuses a path that leaves the working directory as written, with ADK's message and what to do", async () => {
    const environment = await ready();
    for (const path of ["../x", "/etc/passwd", "a/../../x", `${environment.workingDir}-sibling/x`, "a\0b"]) {
      for (const operation of [() => environment.readFile(path), () => environment.writeFile(path, "x")]) {
        const error = await errorOf(operation);
        expect(error.code).toBe("PATH_REFUSED");
        expect(error.message).toBe(`Path escapes working directory: ${path}. Give a path inside ${environment.workingDir}.`);
      }
    }
  });

  it("refuses to read or write through a symbolic link that leads outside, and leaves the outside untouched", async () => {
    const environment = await ready();
    const outside = folder();
    writeFileSync(join(outside, "secret.txt"), "secret");
    symlinkSync(join(outside, "secret.txt"), join(environment.workingDir, "secret-link"));
    symlinkSync(outside, join(environment.workingDir, "outside-dir"));
    symlinkSync(join(outside, "new.txt"), join(environment.workingDir, "dangling"));
    for (const operation of [
      () => environment.readFile("secret-link"),
      () => environment.readFile("outside-dir/secret.txt"),
      () => environment.writeFile("secret-link", "overwritten"),
      () => environment.writeFile("outside-dir/secret.txt", "overwritten"),
      () => environment.writeFile("outside-dir/made/deep.txt", "made"),
      () => environment.writeFile("dangling", "made"),
    ]) {
      const error = await errorOf(operation);
      expect(error.code).toBe("PATH_REFUSED");
    }
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("secret");
    expect(existsSync(join(outside, "made"))).toBe(false);
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
    const refused = await errorOf(environment.readFile("secret-link"));
    expect(refused.message).toBe(`secret-link leads outside the working directory through a symbolic link, so it is refused. Use files inside ${realpathSync(environment.workingDir)}.`);
  });

  it("follows a symbolic link that stays inside the working directory, as ADK does", async () => {
    const environment = await ready();
    mkdirSync(join(environment.workingDir, "v2"));
    await environment.writeFile("v2/data.txt", "v2 data");
    symlinkSync("v2", join(environment.workingDir, "current"));
    symlinkSync("v2/data.txt", join(environment.workingDir, "data-link"));
    expect(Buffer.from(await environment.readFile("current/data.txt")).toString()).toBe("v2 data");
    await environment.writeFile("data-link", "through the link");
    await environment.writeFile("current/more/new.txt", "new");
    expect(readFileSync(join(environment.workingDir, "v2/data.txt"), "utf8")).toBe("through the link");
    expect(readFileSync(join(environment.workingDir, "v2/more/new.txt"), "utf8")).toBe("new");
  });

  it("refuses a FIFO instead of blocking on it, and a path through a file", async () => {
    const environment = await ready();
    execFileSync("mkfifo", [join(environment.workingDir, "pipe")]);
    for (const operation of [() => environment.readFile("pipe"), () => environment.writeFile("pipe", "x")]) {
      const error = await errorOf(operation);
      expect(["NOT_A_FILE", "ENXIO"]).toContain(error.code);
    }
    expect((await errorOf(environment.readFile("pipe"))).message).toBe("pipe is not a regular file (a FIFO, socket or device), so it is not read or written. Use a regular file.");
    await environment.writeFile("plain.txt", "x");
    const throughFile = await errorOf(environment.writeFile("plain.txt/inner.txt", "x"));
    expect(throughFile.code).toBe("NOT_DIRECTORY");
    expect(throughFile.message).toBe(`plain.txt/inner.txt cannot be written: ${join(realpathSync(environment.workingDir), "plain.txt")} is a file, not a folder. Choose another path.`);
    expect(readFileSync(join(environment.workingDir, "plain.txt"), "utf8")).toBe("x");
  });
});
