/** Longest piece of a line shown on one numbered row. */
export const MAX_LINE_CHARS = 5_000;

/**
 * Lines numbered like `cat -n` (number right-aligned to 6, a tab, the text),
 * from `firstLineNumber`. A line longer than {@link MAX_LINE_CHARS} continues
 * on rows numbered `5.1`, `5.2`, … so every row stays readable.
 */
export function formatNumberedLines(lines: readonly string[], firstLineNumber: number): string {
  const rows: string[] = [];
  lines.forEach((line, index) => {
    const number = firstLineNumber + index;
    if (line.length <= MAX_LINE_CHARS) {
      rows.push(`${String(number).padStart(6)}\t${line}`);
      return;
    }
    for (let start = 0, piece = 0; start < line.length; start += MAX_LINE_CHARS, piece++) {
      const label = piece === 0 ? String(number) : `${number}.${piece}`;
      rows.push(`${label.padStart(6)}\t${line.slice(start, start + MAX_LINE_CHARS)}`);
    }
  });
  return rows.join("\n");
}
