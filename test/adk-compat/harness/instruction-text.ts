/** The text of a system instruction given as a string, a part, a list of parts or a content. */
export function instructionText(instruction: unknown): string {
  if (instruction === undefined || instruction === null) return "";
  if (typeof instruction === "string") return instruction;
  if (Array.isArray(instruction)) return instruction.map(instructionText).join("");
  const record = instruction as { text?: string; parts?: unknown[] };
  if (typeof record.text === "string") return record.text;
  return (record.parts ?? []).map(instructionText).join("");
}
