const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * A spinner with a label on one terminal line, shown while a model or tool
 * call is in flight. Draws nothing when the stream is not a terminal, so piped
 * output stays clean.
 */
export class ProgressIndicator {
  readonly #stream: { write(text: string): unknown; isTTY?: boolean };
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;
  #label = "";

  constructor(stream: { write(text: string): unknown; isTTY?: boolean }) {
    this.#stream = stream;
  }

  /** Shows (or relabels) the spinner. */
  start(label: string): void {
    this.#label = label;
    if (!this.#stream.isTTY || this.#timer) return;
    this.#draw();
    this.#timer = setInterval(() => this.#draw(), 80);
  }

  /** Removes the spinner line. */
  stop(): void {
    if (!this.#timer) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#stream.write("\r\x1b[2K");
  }

  #draw(): void {
    this.#stream.write(`\r\x1b[2K${FRAMES[this.#frame++ % FRAMES.length]} ${this.#label}`);
  }
}
