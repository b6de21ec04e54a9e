/**
 * The spinner of `toolsmith run` on a terminal: drawn only on an empty line,
 * cleared before any text or prompt, and absent when either stream is piped.
 * What a user sees is checked by feeding the written bytes to a terminal
 * emulator. The same run in a real pseudo-terminal is in run-in-pty.test.ts.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ProgressIndicator } from "../../src/cli/progress-indicator.js";
import { tempDir } from "../support/temp-dir.js";
import { terminalScreen } from "../support/terminal-screen.js";
import { cli } from "./cli-harness.js";
import { ANSWER, TIDE_CONVERSATION_SCREEN, writeTideAgent } from "./tide-agent.js";

const CLEAR_LINE = "\r\x1b[2K";
const FRAME = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /g;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const dir = tempDir("toolsmith-terminal-");

/** stdout and stderr of one terminal: both say they are terminals and write to the same screen. */
function fakeTerminal() {
  const screen = { bytes: "" };
  const stream = { isTTY: true, write: (text: string) => (screen.bytes += text) };
  return { screen, stdout: { ...stream }, stderr: { ...stream } };
}

describe("ProgressIndicator on a terminal", () => {
  it("leaves a line streamed in chunks slower than the spinner intact, drawing no frame until the line ends", async () => {
    const { screen, stdout, stderr } = fakeTerminal();
    const progress = new ProgressIndicator(stderr, { output: stdout });
    const chunks = ["The tide ", "turns at ", "14:32, ", "so leave ", "after lunch."];
    progress.start("thinking…");
    for (const chunk of chunks) {
      await pause(200); // more than two 80 ms frames
      progress.write(chunk);
      progress.start("thinking…");
    }
    const midLine = screen.bytes.slice(screen.bytes.indexOf("The tide"));
    progress.write("\n");
    progress.start("thinking…");
    await pause(200);
    progress.stop();

    expect(midLine).not.toContain(CLEAR_LINE);
    expect(screen.bytes.match(FRAME)!.length).toBeGreaterThanOrEqual(4); // before the first chunk and after the newline
    expect(await terminalScreen(screen.bytes)).toEqual(["The tide turns at 14:32, so leave after lunch."]);
  });

  it("clears the spinner before writing, so the text starts on the spinner's empty line", async () => {
    const { screen, stdout, stderr } = fakeTerminal();
    const progress = new ProgressIndicator(stderr, { output: stdout });
    progress.start("running tools…");
    await pause(100);
    progress.write("done\n");
    expect(screen.bytes).toMatch(/running tools…\r\x1b\[2Kdone\n$/);
    expect(await terminalScreen(screen.bytes)).toEqual(["done"]);
  });

  it("draws nothing when stdout is piped, even though stderr is a terminal", async () => {
    let written = "";
    const progress = new ProgressIndicator({ isTTY: true, write: (text: string) => (written += text) }, { output: { write: (text: string) => (written += text) } });
    progress.start("thinking…");
    await pause(100);
    progress.write("answer\n");
    progress.start("thinking…");
    progress.stop();
    expect(written).toBe("answer\n");
  });
});

describe("toolsmith run on a terminal", () => {
  it("shows every streamed sentence, the tool call and the prompts whole, with the spinner turning in the pauses", async () => {
    const agent = writeTideAgent(dir);
    const run = await cli(["run", agent], ["when is high tide in Brest?", "thanks"], { tty: true });
    expect(run.code, run.stderr).toBe(0);
    const frames = run.terminal.match(FRAME)?.length ?? 0;
    console.log(`in-process terminal: ${frames} spinner frames drawn, ${Buffer.byteLength(run.terminal)} bytes written`);
    expect(frames).toBeGreaterThan(0);
    const screen = await terminalScreen(run.terminal);
    expect(screen[0]).toMatch(/^tides — session \S+ \(continue it later/);
    expect(screen.slice(1)).toEqual([...TIDE_CONVERSATION_SCREEN, "you> "]);
  });

  it("writes no carriage return or escape sequence to either stream when they are not terminals", async () => {
    const agent = writeTideAgent(dir);
    const replay = join(dir, "replay.json");
    writeFileSync(replay, JSON.stringify(["when is high tide in Brest?"]));
    const run = await cli(["run", agent, "--replay", replay]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`tides: ${ANSWER}\n`);
    expect(run.stdout).not.toMatch(/[\r\x1b]/);
    expect(run.stderr).not.toMatch(/[\r\x1b]/);
  });
});
