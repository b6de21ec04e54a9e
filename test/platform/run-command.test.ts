import { describe, expect, it } from "vitest";
import { runCommand } from "../../src/platform/run-command.js";

const base = { cwd: process.cwd(), maxOutputBytes: 10_000 };

describe("runCommand", () => {
  it("gives the command its input on standard input, then closes it", async () => {
    const text = await runCommand({ ...base, argv: ["/bin/sh", "-c", "tr a-z A-Z; echo end"], input: "hello\n", timeoutMs: 10_000 });
    expect(text).toMatchObject({ exitCode: 0, stdout: "HELLO\nend\n", stderr: "", timedOut: false, truncated: false });
    const bytes = Uint8Array.from([0, 1, 2, 255]);
    const counted = await runCommand({ ...base, argv: ["/bin/sh", "-c", "wc -c"], input: bytes });
    expect(counted.stdout.trim()).toBe("4");
  });

  it("does not fail when the command exits without reading all its input", async () => {
    const result = await runCommand({ ...base, argv: ["/bin/sh", "-c", "exit 0"], input: "x".repeat(5_000_000) });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
  });

  it("gives a command without input an empty, closed standard input, so a reader ends at once", async () => {
    const result = await runCommand({ ...base, argv: ["/bin/sh", "-c", "cat; echo done"], timeoutMs: 10_000 });
    expect(result).toMatchObject({ exitCode: 0, stdout: "done\n", timedOut: false });
  });

  it("sets no time limit when timeoutMs is left out", async () => {
    const result = await runCommand({ ...base, argv: ["/bin/sh", "-c", "sleep 0.3; echo slept"] });
    expect(result).toMatchObject({ exitCode: 0, stdout: "slept\n", timedOut: false });
  });

  it("takes a time limit past what a timer holds (about 24.8 days) as no limit, rather than firing at once", async () => {
    const result = await runCommand({ ...base, argv: ["/bin/sh", "-c", "sleep 0.2; echo slept"], timeoutMs: 3e9 });
    expect(result).toMatchObject({ exitCode: 0, stdout: "slept\n", timedOut: false });
  });

  it("kills the command's whole process group at its time limit", async () => {
    const started = Date.now();
    const result = await runCommand({ ...base, argv: ["/bin/sh", "-c", "sleep 30 & sleep 30"], timeoutMs: 300 });
    expect(result).toMatchObject({ signal: "SIGKILL", timedOut: true });
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
