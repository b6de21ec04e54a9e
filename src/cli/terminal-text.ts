/**
 * Text that comes from outside the program (a model's answer, a tool's result, a server's question) made safe to
 * print to a terminal. Control characters are escape sequences there: they move the cursor and rewrite a line
 * (so a confirmation could show another command than the one approved), set the window title, write the clipboard
 * (OSC 52, which the user then pastes into a shell) or hide text. Unicode's bidirectional controls reorder what is
 * shown likewise. Each is shown as a visible symbol instead (Unicode's control pictures: `␛` for ESC, `␍` for a
 * carriage return not ending a line) or as `<U+202E>`; new lines and tabs stay.
 */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(UNSAFE, visible);
}

// C0 controls but tab and new line, DEL, the C1 controls, and the bidirectional embeddings, overrides and isolates.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(character: string): string {
  const code = character.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
}
