const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Clears the terminal line the cursor is on and returns to its start. */
const CLEAR_LINE = "\r\x1b[2K";

/** A stream the indicator writes to: a process stream, or a string in tests. */
export interface TerminalStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Options of {@link ProgressIndicator}. */
export interface ProgressIndicatorOptions {
  /**
   * The stream the command's text goes to (stdout), which shares the
   * terminal with the spinner. Write it through {@link ProgressIndicator.write}
   * so the indicator knows where the cursor is. Without it, the spinner's own
   * stream is taken to be the whole terminal.
   */
  output?: TerminalStream;
  /** Time between two frames. Default 80 ms. */
  intervalMs?: number;
}

/**
 * A spinner with a label on one terminal line, shown while a model or tool
 * call is in flight. It is drawn only on an empty line and cleared before any
 * text reaches the terminal, so it never erases what was written; and it is
 * drawn only when both its stream and the output are terminals, so piped
 * output holds no control characters.
 */
export class ProgressIndicator {
  readonly #stream: TerminalStream;
  readonly #output: TerminalStream | undefined;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;
  #label = "";
  /** Whether the cursor is at the start of an empty line: a frame drawn now (it begins with a line clear) erases nothing. */
  #atLineStart = true;

  constructor(stream: TerminalStream, options: ProgressIndicatorOptions = {}) {
    this.#stream = stream;
    this.#output = options.output;
    this.#intervalMs = options.intervalMs ?? 80;
  }

  /**
   * Shows (or relabels) the spinner. In the middle of a line (text still
   * streaming) it stays hidden, as its first frame would erase that line;
   * call again once the line has ended.
   */
  start(label: string): void {
    this.#label = label;
    if (this.#timer || !this.#atLineStart || !this.#drawsHere()) return;
    this.#draw();
    this.#timer = setInterval(() => this.#draw(), this.#intervalMs);
  }

  /** Removes the spinner line, leaving the cursor at the start of that empty line. */
  stop(): void {
    if (!this.#timer) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#stream.write(CLEAR_LINE);
  }

  /**
   * Writes text to the output (or to `stream`, another stream on the same
   * terminal) with the spinner cleared first, keeping track of the line it
   * leaves the cursor on.
   */
  write(text: string, stream: TerminalStream = this.#output ?? this.#stream): void {
    this.stop();
    stream.write(text);
    this.wrote(text);
  }

  /**
   * Records text that reached the terminal some other way, such as a prompt
   * and the Enter that answered it, so the next {@link start} knows whether
   * the line is empty.
   */
  wrote(text: string): void {
    if (text) this.#atLineStart = text.endsWith("\n");
  }

  #drawsHere(): boolean {
    return !!this.#stream.isTTY && (this.#output === undefined || !!this.#output.isTTY);
  }

  #draw(): void {
    this.#stream.write(`${CLEAR_LINE}${FRAMES[this.#frame++ % FRAMES.length]} ${this.#label}`);
  }
}
