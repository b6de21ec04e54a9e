/**
 * `text` without the run of `char` at its end, in one pass from the end.
 * The regular expression it replaces (`/\.+$/`, `/\n+$/`, `/\/+$/`) is tried from every
 * position, and a long run that does not end the text (a model's 50,000
 * newlines before one more word) costs time quadratic in its length: about
 * 3 s for 50,000 characters, with the event loop blocked.
 */
export function trimTrailing(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return end === text.length ? text : text.slice(0, end);
}
