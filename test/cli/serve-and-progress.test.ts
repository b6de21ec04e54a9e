import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ProgressIndicator } from "../../src/cli/progress-indicator.js";
import { cli } from "./cli-harness.js";

const stopped = () => AbortSignal.abort();

describe("toolsmith web and api-server options", () => {
  it("refuses a tokens file that is not a token-to-user map, a bad port and a directory that does not exist", async () => {
    const tokens = join(mkdtempSync(join(tmpdir(), "toolsmith-tokens-")), "tokens.json");
    writeFileSync(tokens, '["just-a-token"]');
    expect(await cli(["web", "examples", "--tokens-file", tokens], [], { interrupt: stopped() })).toMatchObject({ code: 2, stderr: expect.stringContaining("must hold a JSON object mapping each token to a user id") });
    expect(await cli(["web", "examples", "--port", "http"], [], { interrupt: stopped() })).toMatchObject({ code: 2, stderr: expect.stringContaining("--port must be a number") });
    expect(await cli(["web", "no-such-dir"], [], { interrupt: stopped() })).toMatchObject({ code: 3, stderr: expect.stringContaining("does not exist") });
  });
});

describe("ProgressIndicator", () => {
  it("draws a spinner with its label on a terminal and clears the line when stopped", async () => {
    let written = "";
    const progress = new ProgressIndicator({ isTTY: true, write: (text: string) => (written += text) });
    progress.start("thinking…");
    await new Promise((resolve) => setTimeout(resolve, 200));
    progress.stop();
    expect(written).toContain("⠋ thinking…");
    expect(written.match(/thinking…/g)!.length).toBeGreaterThan(1);
    expect(written.endsWith("\r\x1b[2K")).toBe(true);
  });

  it("draws nothing when the output is not a terminal", () => {
    let written = "";
    const progress = new ProgressIndicator({ isTTY: false, write: (text: string) => (written += text) });
    progress.start("thinking…");
    progress.stop();
    expect(written).toBe("");
  });
});
