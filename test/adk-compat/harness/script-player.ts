import type { ScriptContent, ScriptTurn } from "./script.js";

/**
 * Plays a program's model turns: each request takes the first unused turn whose
 * `when` occurs in the system instruction. A request with no turn left gets an
 * error, which the framework reports as the model failing.
 */
export class ScriptPlayer {
  readonly #turns: Array<ScriptTurn | undefined>;

  constructor(turns: readonly ScriptTurn[]) {
    this.#turns = [...turns];
  }

  /** The answer to a request whose system instruction is `systemInstruction`. */
  answer(systemInstruction: string): ScriptContent {
    const index = this.#turns.findIndex((turn) => turn !== undefined && (turn.when === undefined || systemInstruction.includes(turn.when)));
    const turn = index < 0 ? undefined : this.#turns[index];
    if (turn === undefined) {
      throw new Error(`The script has no model turn left for a request whose system instruction begins "${systemInstruction.slice(0, 80)}". Add one to script.ts.`);
    }
    this.#turns[index] = undefined;
    return structuredClone(turn.content);
  }

  /** How many turns were not played. */
  get unusedTurns(): number {
    return this.#turns.filter((turn) => turn !== undefined).length;
  }
}
