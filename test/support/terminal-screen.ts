/**
 * What a terminal shows after receiving some bytes, by a headless xterm.js:
 * how tests check that output written with control characters (a spinner's
 * line clears) leaves the text a user reads intact.
 */
import xterm from "@xterm/headless";

/** Options of {@link terminalScreen}. */
export interface TerminalScreenOptions {
  /** Wide enough that no line of the output wraps. Default 200. */
  cols?: number;
  /** Tall enough for the output; lines scrolled off are kept too. Default 100. */
  rows?: number;
}

/**
 * The terminal's lines, scrollback first, with trailing blanks trimmed and
 * blank lines at the end dropped. A bare "\n" moves to the start of the next
 * line, as a pty's output processing (ONLCR) makes it do.
 */
export async function terminalScreen(bytes: string, options: TerminalScreenOptions = {}): Promise<string[]> {
  const terminal = new xterm.Terminal({ cols: options.cols ?? 200, rows: options.rows ?? 100, scrollback: 10_000, convertEol: true, allowProposedApi: true });
  try {
    await new Promise<void>((resolve) => terminal.write(bytes, resolve));
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let index = 0; index < buffer.length; index++) lines.push(buffer.getLine(index)?.translateToString(true) ?? "");
    while (lines.length && lines.at(-1) === "") lines.pop();
    return lines;
  } finally {
    terminal.dispose();
  }
}
