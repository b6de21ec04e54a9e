/**
 * An analyst for `toolsmith web examples` that answers by running Python: its
 * model writes code, `SandboxedCodeExecutor` runs it under bubblewrap (no
 * network, no host file, a fresh folder each time), and the model answers from
 * what the code printed; a file the code writes becomes a session artifact. Its
 * model is a FunctionModel that follows two rules, so it runs without
 * credentials: ask "what is 2**32 / 7?" or "squares up to 12". Where bubblewrap
 * cannot run, the result says so and nothing runs. Give `model` a name such as
 * "gemini-2.5-flash" to use a real one.
 */
import { LlmAgent } from "toolsmith";
import { FunctionModel, lastUserText, streamedText } from "toolsmith/testing";
import { SandboxedCodeExecutor } from "toolsmith/tools";

const FENCE = "```";

/** Python for the user's request, or `undefined` when the rules have none. */
function codeFor(request: string): string | undefined {
  // Only digits, operators and brackets reach the code: the rules never paste the user's words into it.
  const expression = /what is ([\d+\-*/%(). ]+)\??$/i.exec(request.trim())?.[1]?.trim();
  if (expression) return `result = ${expression}\nprint(result)`;
  const upTo = /squares up to (\d{1,4})/i.exec(request)?.[1];
  if (upTo) {
    return [
      "rows = [(n, n * n) for n in range(1, " + upTo + " + 1)]",
      "with open('squares.csv', 'w') as file:",
      "    file.write('n,square\\n' + ''.join(f'{n},{square}\\n' for n, square in rows))",
      "print(f'{len(rows)} rows, the last {rows[-1]}')",
    ].join("\n");
  }
  return undefined;
}

export const rootAgent = new LlmAgent({
  name: "stats_analyst",
  description: "Answers questions by writing Python and running it in a sandbox.",
  instruction: `When a computation helps, answer with Python in a ${FENCE}python block; its output comes back to you. Then answer from it.`,
  codeExecutor: new SandboxedCodeExecutor({ timeoutSeconds: 10 }),
  model: new FunctionModel(
    (request) => {
      // The code's result reaches the model as the user's text between tool_output fences (as in ADK).
      const last = request.contents.at(-1)?.parts?.[0]?.text ?? "";
      const output = new RegExp(`^${FENCE}tool_output\\n([\\s\\S]*)\\n${FENCE}$`).exec(last)?.[1];
      if (output !== undefined) {
        const printed = /^Code execution result:\n([\s\S]*?)\n*(?:\n\nSaved artifacts:\n(.*))?$/.exec(output);
        // A failure is what the code wrote to standard error: its last line says what went wrong (a Python traceback's does).
        if (!printed) return streamedText(`The code failed: ${output.trim().split("\n").at(-1)}`);
        return streamedText(`The code printed ${printed[1]!.trim()}.${printed[2] ? ` It saved ${printed[2]}; see the artifacts.` : ""}`);
      }
      const code = codeFor(lastUserText(request) ?? "");
      if (code) return { content: { role: "model", parts: [{ text: `Let me compute that.\n${FENCE}python\n${code}\n${FENCE}` }] } };
      return streamedText('Ask me to compute something, such as "what is 2**32 / 7?" or "squares up to 12".');
    },
    { name: "analyst-rules", chunkDelayMs: 25 },
  ),
});
