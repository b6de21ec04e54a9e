import { Language, Outcome, type Content, type Part } from "../../content/content.js";
import { CodeExecutionLanguage, type CodeExecutionResult } from "./base-code-executor.js";

/** The first block of code in a model's answer, and the answer as it is stored once the block is taken out. */
export interface ExtractedCode {
  code: string;
  language: CodeExecutionLanguage;
  /** The answer up to the code: its text before the block, then the code as an `executableCode` part; what followed is dropped, as ADK drops it. */
  content: Content;
}

/** Languages by the word after a code fence's backticks. */
const LANGUAGE_BY_FENCE: Record<string, CodeExecutionLanguage> = {
  tool_code: CodeExecutionLanguage.PYTHON,
  python: CodeExecutionLanguage.PYTHON,
  py: CodeExecutionLanguage.PYTHON,
  javascript: CodeExecutionLanguage.JAVASCRIPT,
  js: CodeExecutionLanguage.JAVASCRIPT,
  typescript: CodeExecutionLanguage.TYPESCRIPT,
  ts: CodeExecutionLanguage.TYPESCRIPT,
  bash: CodeExecutionLanguage.SHELL,
  sh: CodeExecutionLanguage.SHELL,
  shell: CodeExecutionLanguage.SHELL,
  powershell: CodeExecutionLanguage.POWERSHELL,
  cmd: CodeExecutionLanguage.WINDOWS_CMD,
};

/**
 * The language a block's opening delimiter names (`"```javascript\n"` is JavaScript). ADK passes every block on
 * as Python, so a JavaScript block ran under python3; a delimiter naming no known language is still Python, as
 * there.
 */
export function languageOfDelimiter(opening: string): CodeExecutionLanguage {
  const word = /^\s*`{3,}\s*([A-Za-z_]+)/.exec(opening)?.[1]?.toLowerCase();
  return word !== undefined && Object.hasOwn(LANGUAGE_BY_FENCE, word) ? LANGUAGE_BY_FENCE[word]! : CodeExecutionLanguage.PYTHON;
}

/**
 * Finds the code to run in a model's answer, as ADK's `extractCodeAndTruncateContent` does: an `executableCode`
 * part not already followed by its result, else the earliest block between one of `delimiters` in the answer's
 * text (its text parts joined by newlines; thoughts are not run). Among delimiters opening at the same place the
 * first listed wins; the block ends at the nearest closing delimiter of any pair. The content is not changed.
 */
export function extractCode(content: Content | undefined, delimiters: ReadonlyArray<readonly [string, string]>): ExtractedCode | undefined {
  const parts = content?.parts;
  if (!parts || parts.length === 0) return undefined;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    if (part.executableCode && !parts[index + 1]?.codeExecutionResult) {
      const code = part.executableCode.code ?? "";
      return { code, language: CodeExecutionLanguage.PYTHON, content: { ...content, parts: parts.slice(0, index + 1) } };
    }
  }
  const textParts = parts.filter((part) => typeof part.text === "string" && part.text.length > 0 && !part.thought);
  if (textParts.length === 0) return undefined;
  const text = textParts.map((part) => part.text).join("\n");
  const opening = earliest(text, delimiters.map(([before]) => before), 0);
  if (!opening) return undefined;
  const codeStart = opening.at + opening.delimiter.length;
  const closing = earliest(text, delimiters.map(([, after]) => after), codeStart);
  if (!closing) return undefined;
  const code = text.slice(codeStart, closing.at);
  // ADK takes a block with no code as no block.
  if (code.length === 0) return undefined;
  const prefix = text.slice(0, opening.at);
  const language = languageOfDelimiter(opening.delimiter);
  const kept: Part[] = [];
  if (prefix.length > 0) kept.push({ ...textParts[0], text: prefix });
  kept.push(executableCodePart(code, language));
  return { code, language, content: { ...content, parts: kept } };
}

/** The earliest place from `from` where one of `delimiters` starts (the first listed, at a tie); empty ones never match. */
function earliest(text: string, delimiters: readonly string[], from: number): { at: number; delimiter: string } | undefined {
  let found: { at: number; delimiter: string } | undefined;
  for (const delimiter of delimiters) {
    if (delimiter.length === 0) continue;
    const at = text.indexOf(delimiter, from);
    if (at >= 0 && (!found || at < found.at)) found = { at, delimiter };
  }
  return found;
}

/**
 * The part that records code the agent ran (ADK's `buildExecutableCodePart`): the code as text and as
 * `executableCode`. genai names only Python, so the language is also kept in `partMetadata.codeLanguage`, and the
 * model is shown the code again in its own language's fence.
 */
export function executableCodePart(code: string, language: CodeExecutionLanguage = CodeExecutionLanguage.PYTHON): Part {
  return {
    text: code,
    executableCode: { code, language: language === CodeExecutionLanguage.PYTHON ? Language.PYTHON : Language.LANGUAGE_UNSPECIFIED },
    partMetadata: { codeLanguage: language },
  };
}

/**
 * The part that records a run's result (ADK's `buildCodeExecutionResultPart`): on failure what the code wrote to
 * standard error; else its output and the names of the files it saved (ADK's TypeScript writes "Saved artifacts:"
 * even when there are none; this follows ADK's Python, which leaves the line out). The text is both the part's
 * `text` and the result's `output`, which ADK's TypeScript leaves empty and then shows the model as "undefined".
 */
export function codeExecutionResultPart(result: CodeExecutionResult): Part {
  if (result.stderr) return { text: result.stderr, codeExecutionResult: { outcome: Outcome.OUTCOME_FAILED, output: result.stderr } };
  const pieces: string[] = [];
  if (result.stdout || result.outputFiles.length === 0) pieces.push(`Code execution result:\n${result.stdout}\n`);
  if (result.outputFiles.length > 0) pieces.push(`Saved artifacts:\n${result.outputFiles.map((file) => file.name).join(", ")}`);
  const text = pieces.join("\n\n");
  return { text, codeExecutionResult: { outcome: Outcome.OUTCOME_OK, output: text } };
}

/**
 * A content of the history as a model without code execution reads it (ADK's `convertCodeExecutionParts`): code
 * that ends it becomes text between the code delimiters of its language (the first pair, as in ADK, when none
 * names it), and a content that is only a run's result becomes the user's text between the result delimiters.
 * Returns the same content when there is nothing to change; never changes the one given (it is a stored event's).
 */
export function codeAsText(content: Content, codeDelimiters: ReadonlyArray<readonly [string, string]>, resultDelimiters: readonly [string, string]): Content {
  const parts = content.parts;
  if (!parts || parts.length === 0) return content;
  const last = parts.at(-1)!;
  if (last.executableCode) {
    const language = last.partMetadata?.["codeLanguage"] ?? CodeExecutionLanguage.PYTHON;
    const [before, after] = codeDelimiters.find(([opening]) => languageOfDelimiter(opening) === language) ?? codeDelimiters[0] ?? ["", ""];
    return { ...content, parts: [...parts.slice(0, -1), { text: `${before}${last.executableCode.code ?? ""}${after}` }] };
  }
  if (parts.length === 1 && last.codeExecutionResult) {
    const output = last.codeExecutionResult.output ?? last.text ?? "";
    return { role: "user", parts: [{ text: `${resultDelimiters[0]}${output}${resultDelimiters[1]}` }] };
  }
  return content;
}
