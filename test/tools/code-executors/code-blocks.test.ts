import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CodeExecutionLanguage } from "../../../src/tools/code-executors/base-code-executor.js";
import { codeAsText, codeExecutionResultPart, extractCode, languageOfDelimiter } from "../../../src/tools/code-executors/code-blocks.js";
import { UnsafeLocalCodeExecutor } from "../../../src/tools/code-executors/unsafe-local-code-executor.js";
import type { Content } from "../../../src/content/content.js";

const DELIMITERS = new UnsafeLocalCodeExecutor().codeBlockDelimiters;
// ADK's own function, which its package does not export by name: read from the installed @google/adk, not copied.
const adkCodeUtils = (await import("../../../node_modules/@google/adk/dist/esm/code_executors/code_execution_utils.js" as string)) as { extractCodeAndTruncateContent(content: unknown, delimiters: unknown): string };
const model = (...texts: string[]): Content => ({ role: "model", parts: texts.map((text) => ({ text })) });

describe("finding the code to run in a model's answer", () => {
  it("takes the first fenced block, keeps the text before it and drops what follows, as ADK does", () => {
    const found = extractCode(model("Let me compute.\n```python\nprint(6*7)\n```\nThat is all."), DELIMITERS);
    expect(found?.code).toBe("print(6*7)");
    expect(found?.language).toBe(CodeExecutionLanguage.PYTHON);
    expect(found?.content.parts).toEqual([{ text: "Let me compute.\n" }, { text: "print(6*7)", executableCode: { code: "print(6*7)", language: "PYTHON" }, partMetadata: { codeLanguage: "python" } }]);
  });

  it("names the block's language by its fence, where ADK runs every block as Python", () => {
    expect(extractCode(model("```javascript\nconsole.log(1)\n```"), DELIMITERS)?.language).toBe(CodeExecutionLanguage.JAVASCRIPT);
    expect(extractCode(model("```bash\necho 1\n```"), DELIMITERS)?.language).toBe(CodeExecutionLanguage.SHELL);
    expect(extractCode(model("```sh\necho 1\n```"), DELIMITERS)?.language).toBe(CodeExecutionLanguage.SHELL);
    expect(extractCode(model("```tool_code\nprint(1)\n```"), DELIMITERS)?.language).toBe(CodeExecutionLanguage.PYTHON);
    expect(languageOfDelimiter("<code>")).toBe(CodeExecutionLanguage.PYTHON);
    expect(languageOfDelimiter("```TypeScript\n")).toBe(CodeExecutionLanguage.TYPESCRIPT);
  });

  it("runs the earliest block of two, whatever their delimiters' order", () => {
    const found = extractCode(model("```bash\necho first\n```\n```python\nprint('second')\n```"), DELIMITERS);
    expect(found?.code).toBe("echo first");
  });

  it("joins the answer's text parts with newlines and leaves thoughts out", () => {
    const content: Content = { role: "model", parts: [{ text: "```python\nprint('thought')\n```", thought: true }, { text: "```python" }, { text: "print(2)\n```" }] };
    expect(extractCode(content, DELIMITERS)?.code).toBe("print(2)");
  });

  it("finds nothing in plain text, an unclosed block or an empty one", () => {
    expect(extractCode(model("No code here."), DELIMITERS)).toBeUndefined();
    expect(extractCode(model("```python\nprint(1)"), DELIMITERS)).toBeUndefined();
    expect(extractCode(model("```python\n\n```"), DELIMITERS)).toBeUndefined();
    expect(extractCode({ role: "model", parts: [] }, DELIMITERS)).toBeUndefined();
    expect(extractCode(undefined, DELIMITERS)).toBeUndefined();
  });

  it("takes code the model gave as an executableCode part unless its result follows", () => {
    const waiting: Content = { role: "model", parts: [{ text: "Running:" }, { executableCode: { code: "print(3)" } }, { text: "after" }] };
    expect(extractCode(waiting, DELIMITERS)).toEqual({ code: "print(3)", language: CodeExecutionLanguage.PYTHON, content: { role: "model", parts: [{ text: "Running:" }, { executableCode: { code: "print(3)" } }] } });
    const ran: Content = { role: "model", parts: [{ executableCode: { code: "print(3)" } }, { codeExecutionResult: { outcome: "OUTCOME_OK" as never, output: "3" } }] };
    expect(extractCode(ran, DELIMITERS)).toBeUndefined();
  });

  it("never changes the answer it reads", () => {
    const content = model("a\n```python\nprint(1)\n```\nb");
    const before = structuredClone(content);
    extractCode(content, DELIMITERS);
    expect(content).toEqual(before);
  });

  it("finds the same code as ADK's extractCodeAndTruncateContent for any text made of fences and words (fuzzed)", () => {
    const piece = fc.constantFrom("```python\n", "```javascript\n", "```bash\n", "```tool_code\n", "\n```", "print(1)", "x = 2", "\n", " ", "text", "`");
    let withCode = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join("");
        const ours = extractCode(model(text), DELIMITERS);
        const theirs = { role: "model", parts: [{ text }] };
        const adkCode = adkCodeUtils.extractCodeAndTruncateContent(theirs, DELIMITERS);
        if (ours) withCode++;
        // ADK gives "" for no code; both read the same block, and keep the same text before it.
        expect(ours?.code ?? "").toBe(adkCode ?? "");
        if (ours) expect(ours.content.parts?.map((part) => part.text)).toEqual((theirs.parts as Array<{ text?: string }>).map((part) => part.text));
      }),
      { numRuns: 2000 },
    );
    console.log(`code extraction against ADK's: 2,000 random answers, ${withCode} with code to run, all read alike`);
    expect(withCode).toBeGreaterThan(100);
  });
});

describe("the result part of a run", () => {
  it("shows the output, and the saved files' names only when there are some (ADK's TypeScript always adds the line)", () => {
    expect(codeExecutionResultPart({ stdout: "42\n", stderr: "", outputFiles: [] })).toEqual({ text: "Code execution result:\n42\n\n", codeExecutionResult: { outcome: "OUTCOME_OK", output: "Code execution result:\n42\n\n" } });
    const withFile = codeExecutionResultPart({ stdout: "", stderr: "", outputFiles: [{ name: "chart.png", content: "", mimeType: "image/png" }] });
    expect(withFile.text).toBe("Saved artifacts:\nchart.png");
  });

  it("shows only standard error when the code failed, with the outcome failed", () => {
    expect(codeExecutionResultPart({ stdout: "partial", stderr: "Traceback: boom", outputFiles: [] })).toEqual({ text: "Traceback: boom", codeExecutionResult: { outcome: "OUTCOME_FAILED", output: "Traceback: boom" } });
  });
});

describe("the history as a model without code execution reads it", () => {
  const resultDelimiters: [string, string] = ["```tool_output\n", "\n```"];

  it("shows code in its language's fence and a result as the user's text, without changing the stored content", () => {
    const code: Content = { role: "model", parts: [{ text: "Computing" }, { text: "console.log(1)", executableCode: { code: "console.log(1)" }, partMetadata: { codeLanguage: "javascript" } }] };
    const stored = structuredClone(code);
    expect(codeAsText(code, DELIMITERS, resultDelimiters)).toEqual({ role: "model", parts: [{ text: "Computing" }, { text: "```javascript\nconsole.log(1)\n```" }] });
    expect(code).toEqual(stored);
    const result: Content = { role: "model", parts: [codeExecutionResultPart({ stdout: "1\n", stderr: "", outputFiles: [] })] };
    expect(codeAsText(result, DELIMITERS, resultDelimiters)).toEqual({ role: "user", parts: [{ text: "```tool_output\nCode execution result:\n1\n\n\n```" }] });
  });

  it("shows Python (and code of no known language) in the first delimiters, as ADK does", () => {
    const python: Content = { role: "model", parts: [{ executableCode: { code: "print(1)", language: "PYTHON" as never } }] };
    expect(codeAsText(python, DELIMITERS, resultDelimiters).parts).toEqual([{ text: "```tool_code\nprint(1)\n```" }]);
  });

  it("reads a result ADK's TypeScript stored (text, no output) by its text, where ADK shows the model \"undefined\"", () => {
    const adkStored: Content = { role: "model", parts: [{ text: "Code execution result:\n5\n", codeExecutionResult: { outcome: "OUTCOME_OK" as never } }] };
    expect(codeAsText(adkStored, DELIMITERS, resultDelimiters).parts).toEqual([{ text: "```tool_output\nCode execution result:\n5\n\n```" }]);
  });

  it("leaves other contents as they are (the same object)", () => {
    const plain = model("hello");
    expect(codeAsText(plain, DELIMITERS, resultDelimiters)).toBe(plain);
  });
});
