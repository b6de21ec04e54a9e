/**
 * ADK's `LocalEnvironment` on `@google/adk` 2.0 and on toolsmith, run side by side: the same program against both
 * classes, the same results. What differs is deliberate and asserted here (see docs/adk-compat.md, "Environments"):
 * toolsmith refuses a symbolic link out of the working directory, ends what a command started when it times out or
 * exits, says which code an error has, and refuses a time limit that is not a positive number.
 */
import * as adk from "@google/adk";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";
import { processRuns } from "../support/process-runs.js";

type Environment = adk.LocalEnvironment | toolsmith.LocalEnvironment;
const frameworks = [
  ["@google/adk", (options?: { workingDir?: string; envVars?: Record<string, string> }) => new adk.LocalEnvironment(options)],
  ["toolsmith", (options?: { workingDir?: string; envVars?: Record<string, string> }) => new toolsmith.LocalEnvironment(options)],
] as const;

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});
function folder(): string {
  const path = realpathSync(mkdtempSync(join(tmpdir(), "toolsmith-env-side-")));
  folders.push(path);
  return path;
}

/** What a program sees when it calls `operation`: its value, or the error's code and message. */
async function outcome(operation: () => Promise<unknown> | unknown): Promise<unknown> {
  try {
    const value = await operation();
    return { value: value instanceof Uint8Array ? Buffer.from(value).toString("utf8") : value };
  } catch (error) {
    return { error: (error as NodeJS.ErrnoException).code ?? "(no code)", message: (error as Error).message };
  }
}

/** The program, written once against ADK's names. */
async function program(make: (typeof frameworks)[number][1]) {
  const seen: Record<string, unknown> = {};
  const environment: Environment = make({ envVars: { GREETING: "hello" } });
  seen.initializedBefore = environment.isInitialized;
  seen.executeBefore = await outcome(() => environment.execute("true"));
  await environment.initialize();
  seen.initializedAfter = environment.isInitialized;
  seen.tempPrefix = environment.workingDir.startsWith(join(tmpdir(), "adk_workspace_"));
  seen.silent = await environment.execute("true");
  seen.failing = await environment.execute('echo "$GREETING"; echo to-stderr >&2; exit 4');
  seen.signalled = await environment.execute("kill -KILL $$");
  seen.timedOut = await environment.execute("sleep 5", 0.3);
  seen.utf8 = await environment.execute("printf 'na\\303\\257ve \\377'");
  await environment.writeFile("dir/sub/file.txt", "a\r\nb");
  seen.readBack = await outcome(() => environment.readFile("dir/sub/file.txt"));
  seen.readAbsolute = await outcome(() => environment.readFile(join(environment.workingDir, "dir/sub/file.txt")));
  seen.missing = await outcome(async () => {
    try {
      return await environment.readFile("absent.txt");
    } catch (error) {
      throw Object.assign(new Error("missing"), { code: (error as NodeJS.ErrnoException).code });
    }
  });
  seen.escape = await outcome(() => environment.readFile("../escape.txt"));
  seen.escapeWrite = await outcome(() => environment.writeFile("/etc/escape.txt", "x"));
  const workingDir = environment.workingDir;
  await environment.close();
  seen.removed = !existsSync(workingDir);
  seen.initializedClosed = environment.isInitialized;
  return seen;
}

describe("LocalEnvironment, side by side with @google/adk 2.0", () => {
  it("runs the same program to the same results, but for the errors' codes and toolsmith's hint of what to do", async () => {
    const [onAdk, onToolsmith] = (await Promise.all(frameworks.map(([, make]) => program(make)))) as [Record<string, unknown>, Record<string, unknown>];
    console.log("ADK:", JSON.stringify(onAdk));
    console.log("toolsmith:", JSON.stringify(onToolsmith));
    expect(onToolsmith).toEqual({
      ...onAdk,
      // ADK throws plain errors; toolsmith's are ToolsmithErrors with codes, its messages ADK's with what to do next.
      executeBefore: { error: "ENVIRONMENT_NOT_INITIALIZED", message: (onAdk.executeBefore as { message: string }).message },
      escape: { error: "PATH_REFUSED", message: `${(onAdk.escape as { message: string }).message}. Give a path inside ${(onToolsmith.escape as { message: string }).message.split("Give a path inside ")[1]}` },
      escapeWrite: { error: "PATH_REFUSED", message: `${(onAdk.escapeWrite as { message: string }).message}. Give a path inside ${(onToolsmith.escapeWrite as { message: string }).message.split("Give a path inside ")[1]}` },
    });
    expect(onAdk).toMatchObject({
      silent: { exitCode: 0, stdout: "", stderr: "", timedOut: false },
      failing: { exitCode: 4, stdout: "hello\n", stderr: "to-stderr\n", timedOut: false },
      signalled: { exitCode: -9, timedOut: false },
      timedOut: { exitCode: -9, timedOut: true },
      readBack: { value: "a\r\nb" },
      missing: { error: "ENOENT" },
      removed: true,
    });
  });

  it("differs on purpose: ADK reads and writes through a link out of the working directory, toolsmith refuses", async () => {
    const outside = folder();
    writeFileSync(join(outside, "secret.txt"), "secret");
    const results: Record<string, unknown> = {};
    for (const [name, make] of frameworks) {
      const environment = make({ workingDir: folder() });
      await environment.initialize();
      symlinkSync(outside, join(environment.workingDir, "outside"));
      results[name] = {
        read: await outcome(() => environment.readFile("outside/secret.txt")),
        write: await outcome(() => environment.writeFile(`outside/written-by-${name.replace(/\W/g, "")}.txt`, "x")),
      };
      await environment.close();
    }
    console.log(JSON.stringify(results));
    expect(results["@google/adk"]).toEqual({ read: { value: "secret" }, write: { value: undefined } });
    expect(results.toolsmith).toMatchObject({ read: { error: "PATH_REFUSED" }, write: { error: "PATH_REFUSED" } });
    expect(existsSync(join(outside, "written-by-googleadk.txt"))).toBe(true);
    expect(existsSync(join(outside, "written-by-toolsmith.txt"))).toBe(false);
  });

  it("differs on purpose: at the time limit ADK kills the shell and leaves what it started running; toolsmith ends them all", async () => {
    const alive: Record<string, boolean> = {};
    for (const [name, make] of frameworks) {
      const environment = make();
      await environment.initialize();
      const result = await environment.execute("sh -c 'sleep 30 & echo $! > child.pid; wait'", 0.5);
      expect(result).toMatchObject({ exitCode: -9, timedOut: true });
      const child = Number(readFileSync(join(environment.workingDir, "child.pid"), "utf8"));
      await new Promise((resolve) => setTimeout(resolve, 150));
      alive[name] = processRuns(child);
      if (alive[name]) process.kill(child, "SIGKILL");
      await environment.close();
    }
    console.log("a command's child still running after its time limit:", JSON.stringify(alive));
    expect(alive).toEqual({ "@google/adk": true, toolsmith: false });
  });

  it("differs on purpose: ADK takes a time limit of 0 (whether the command is killed, and what timedOut says, is a race); toolsmith refuses it and runs nothing", async () => {
    const results: Record<string, unknown> = {};
    for (const [name, make] of frameworks) {
      const environment = make();
      await environment.initialize();
      results[name] = await outcome(() => environment.execute("echo ran", 0));
      await environment.close();
    }
    console.log(JSON.stringify(results));
    expect(results["@google/adk"]).toMatchObject({ value: { timedOut: expect.any(Boolean) } });
    expect(results.toolsmith).toMatchObject({ error: "INVALID_ARGUMENTS" });
  });
});
