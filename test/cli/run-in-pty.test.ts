/**
 * `toolsmith run` in a real pseudo-terminal: util-linux `script` gives the CLI
 * (run from the sources) a pty for stdout and stderr, and the bytes it copies
 * out are fed to a terminal emulator to see what a user would. The app streams
 * its answers in chunks slower than the spinner turns, so any frame drawn
 * mid-line would erase text. The same run with piped streams must hold no
 * control characters at all.
 */
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runNode } from "../support/node-binary.js";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";
import { tempDir } from "../support/temp-dir.js";
import { terminalScreen } from "../support/terminal-screen.js";
import { ANSWER, TIDE_CONVERSATION_SCREEN, writeTideAgent } from "./tide-agent.js";

const SCRIPT = "/usr/bin/script";
const noScript = existsSync(SCRIPT) ? "" : ` (skipped: ${SCRIPT} is missing; it comes with util-linux, apt-get install bsdutils)`;
const bin = new URL("../../bin/toolsmith.mjs", import.meta.url).pathname;
const FRAME = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (thinking|running tools)…/g;
const dir = tempDir("toolsmith-pty-");

/** The arguments of `toolsmith run <tides> --replay <lines>`, keeping sessions in memory so nothing is written. */
function runArgs(lines: string[]): string[] {
  const replay = join(dir, `replay-${lines.length}.json`);
  writeFileSync(replay, JSON.stringify(lines));
  return [...SOURCE_NODE_FLAGS, bin, "run", writeTideAgent(dir), "--replay", replay, "--session-service-uri", "memory://", "--artifact-service-uri", "memory://"];
}

/** Quotes a word for `sh -c`. */
const shellWord = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/** Runs `node <args>` under `script`, whose pty is the child's stdin, stdout and stderr; returns what the terminal received. */
function runInPty(args: readonly string[]): Promise<{ code: number | null; bytes: string }> {
  const command = [process.execPath, ...args].map(shellWord).join(" ");
  return new Promise((resolve, reject) => {
    // -q: no start and done lines; -f: flush each write; -e: exit with the child's code; -c: run this command; /dev/null: no typescript file.
    const child = spawn(SCRIPT, ["-qfec", command, "/dev/null"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, SHELL: "/bin/sh" }, timeout: 60_000 });
    const chunks: Buffer[] = [];
    let errors = "";
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk) => (errors += chunk));
    child.on("error", reject);
    child.on("close", (code) => (errors ? reject(new Error(`script wrote to stderr: ${errors}`)) : resolve({ code, bytes: Buffer.concat(chunks).toString("utf8") })));
  });
}

describe("toolsmith run in a pseudo-terminal", () => {
  it.skipIf(noScript)(`shows every streamed sentence, the tool call and the prompts whole, with the spinner turning in the pauses${noScript}`, async () => {
    const { code, bytes } = await runInPty(runArgs(["when is high tide in Brest?", "thanks"]));
    const frames = bytes.match(FRAME)?.length ?? 0;
    console.log(`pty: ${frames} spinner frames drawn, ${Buffer.byteLength(bytes)} bytes captured`);
    const screen = await terminalScreen(bytes);
    expect(code, screen.join("\n")).toBe(0);
    expect(frames).toBeGreaterThanOrEqual(5); // before each of the three answers and while the tool runs
    expect(screen[0]).toMatch(/^tides — session \S+ \(continue it later/);
    expect(screen.slice(1)).toEqual(TIDE_CONVERSATION_SCREEN);
  });

  it("writes no carriage return or escape sequence to stdout or stderr when they are pipes", async () => {
    const run = await runNode({ args: runArgs(["when is high tide in Brest?", "thanks"]), cwd: dir });
    console.log(`pipes: ${Buffer.byteLength(run.stdout)} bytes on stdout, ${Buffer.byteLength(run.stderr)} on stderr`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`tides: ${ANSWER}\n`);
    expect(run.stdout).not.toMatch(/[\r\x1b]/);
    expect(run.stderr).not.toMatch(/[\r\x1b]/);
  });
});
