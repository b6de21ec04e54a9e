/** A text's lines, as the filesystem backend streams them: split on `\n`, no empty line after a final newline. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}
