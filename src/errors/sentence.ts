/**
 * `text` ending its sentence once, for a message that quotes another's words and goes on: a quoted message that
 * already ends with `.`, `!` or `?` keeps its own ending, so a message never reads "The disk is full.. Check".
 */
export function endSentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** What a thrown value says: an `Error`'s message (its name when the message is empty), anything else as text. */
export function thrownMessage(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}
