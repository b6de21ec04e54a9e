/** Prints rows as a plain table with padded columns. */
export function printTable(rows: readonly string[][], log: (line: string) => void = console.log): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  for (const row of rows) log(row.map((cell, column) => cell.padEnd(widths[column]!)).join("  "));
}
