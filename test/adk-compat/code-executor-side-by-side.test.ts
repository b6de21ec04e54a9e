/**
 * ADK's code executors on `@google/adk` 2.0 and on toolsmith, run side by side: the same executor class written
 * against ADK's names, the same `UnsafeLocalCodeExecutor` calls, the same stored history read back. What differs
 * is deliberate and asserted here (see docs/adk-compat.md, "Code executors").
 */
import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";
import { runOn, text, type Framework } from "./side-by-side.js";

/** A program written once against ADK's names: an agent whose executor records the code it is asked to run. */
function recordingProgram(asked: Array<{ code: string; language: string }>) {
  return async (f: Framework, model: string) => {
    class Recording extends f.BaseCodeExecutor {
      async executeCode({ codeExecutionInput }: { codeExecutionInput: { code: string; language: string } }) {
        asked.push({ code: codeExecutionInput.code, language: codeExecutionInput.language });
        return { stdout: "42\n", stderr: "", outputFiles: [] };
      }
    }
    const agent = new f.LlmAgent({ name: "calculator", model, instruction: "Compute.", codeExecutor: new Recording() });
    const runner = new f.InMemoryRunner({ agent, appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events: unknown[] = [];
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "6 * 7?" }] } })) events.push(event);
    return { runner, events };
  };
}

describe("code executors, side by side with @google/adk 2.0", () => {
  it("ADK's LLM agent never runs its executor's code; toolsmith's runs it and asks the model again with the result", async () => {
    const answer = "Computing.\n```javascript\nconsole.log(6 * 7)\n```";
    const adkAsked: Array<{ code: string; language: string }> = [];
    const ours: Array<{ code: string; language: string }> = [];
    const onAdk = await runOn("adk", [text(answer)], recordingProgram(adkAsked));
    const onToolsmith = await runOn("toolsmith", [text(answer), text("It is 42.")], recordingProgram(ours));
    // ADK: one model call, its answer stored as given, nothing run (its code-execution response step is not registered).
    expect(adkAsked).toEqual([]);
    expect(onAdk.requests).toHaveLength(1);
    expect(onAdk.events.map((event) => event.content)).toEqual([{ role: "model", parts: [{ text: answer }] }]);
    // toolsmith: the block runs in its own language (ADK's step, were it run, names every block Python).
    expect(ours).toEqual([{ code: "console.log(6 * 7)", language: "javascript" }]);
    expect(onToolsmith.requests).toHaveLength(2);
    expect(onToolsmith.requests[0]).toEqual(onAdk.requests[0]);
    expect(onToolsmith.requests[1]!.contents).toEqual([
      { role: "user", parts: [{ text: "6 * 7?" }] },
      { role: "model", parts: [{ text: "Computing.\n" }, { text: "```javascript\nconsole.log(6 * 7)\n```" }] },
      { role: "user", parts: [{ text: "```tool_output\nCode execution result:\n42\n\n\n```" }] },
    ]);
    expect(onToolsmith.events.map((event) => event.author)).toEqual(["calculator", "calculator", "calculator"]);
  });

  it("gives a BaseCodeExecutor ADK's defaults on both", () => {
    class Mine extends adk.BaseCodeExecutor {
      async executeCode() {
        return { stdout: "", stderr: "", outputFiles: [] };
      }
    }
    class Ours extends toolsmith.BaseCodeExecutor {
      async executeCode() {
        return { stdout: "", stderr: "", outputFiles: [] };
      }
    }
    const fields = (executor: object) => {
      const { optimizeDataFile, stateful, errorRetryAttempts, codeBlockDelimiters, executionResultDelimiters } = executor as Record<string, unknown>;
      return { optimizeDataFile, stateful, errorRetryAttempts, codeBlockDelimiters, executionResultDelimiters };
    };
    expect(fields(new Ours())).toEqual(fields(new Mine()));
    expect(Object.entries(toolsmith.CodeExecutionLanguage)).toEqual(Object.entries(adk.CodeExecutionLanguage));
    expect(Object.entries(toolsmith.FileContentEncoding)).toEqual(Object.entries(adk.FileContentEncoding));
    // ADK's executors pass toolsmith's check, and toolsmith's ADK's (one brand, Symbol.for).
    expect(new Mine() instanceof toolsmith.BaseCodeExecutor).toBe(true);
    expect(new toolsmith.BuiltInCodeExecutor() instanceof toolsmith.BaseCodeExecutor).toBe(true);
  });

  it("answers the same from UnsafeLocalCodeExecutor for the same code, on both", async () => {
    const cases: Array<{ code: string; language: string; inputFiles?: unknown[]; args?: unknown }> = [
      { code: "print(6 * 7)", language: "python" },
      { code: "console.log(process.argv.slice(2).join(' '))", language: "javascript", args: ["a", "b"] },
      { code: "echo $1 $2", language: "shell", args: { out: "x.txt" } },
      { code: "echo partial; exit 3", language: "shell" },
      { code: "let x: number = 1", language: "typescript" },
      { code: "open('note.txt', 'w').write(open('in.txt').read().upper())", language: "python", inputFiles: [{ name: "in.txt", content: "hello", mimeType: "text/plain" }] },
    ];
    const adkExecutor = new adk.UnsafeLocalCodeExecutor({ timeoutSeconds: 10 });
    const ourExecutor = new toolsmith.UnsafeLocalCodeExecutor({ timeoutSeconds: 10 });
    const ourContext = { abortSignal: new AbortController().signal } as never;
    for (const { code, language, inputFiles = [], args } of cases) {
      const input = { code, language, inputFiles: structuredClone(inputFiles), ...(args !== undefined ? { args } : {}) };
      const theirs = await adkExecutor.executeCode({ invocationContext: {} as never, codeExecutionInput: input as never });
      const ours = await ourExecutor.executeCode({ invocationContext: ourContext, codeExecutionInput: { ...input, inputFiles: structuredClone(inputFiles) } as never });
      expect({ code, ...ours }).toEqual({ code, ...theirs });
    }
  });

  it("reads back a session toolsmith stored: ADK's request step shows the code and its result as toolsmith's does", async () => {
    // toolsmith runs code and stores its events; ADK's agent (with an executor) then reads them for its next request.
    const stored = await runOn("toolsmith", [text("```python\nprint(6 * 7)\n```"), text("It is 42.")], recordingProgram([]));
    const onAdk = await runOn("adk", [text("Still 42.")], async (f, model) => {
      class Idle extends f.BaseCodeExecutor {
        async executeCode() {
          return { stdout: "", stderr: "", outputFiles: [] };
        }
      }
      const agent = new f.LlmAgent({ name: "calculator", model, instruction: "Compute.", codeExecutor: new Idle() });
      const runner = new f.InMemoryRunner({ agent, appName: "app" });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      for (const event of stored.events) await runner.sessionService.appendEvent({ session, event: f.createEvent({ invocationId: "earlier", author: event.author, content: event.content }) });
      const events: unknown[] = [];
      for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Again?" }] } })) events.push(event);
      return { runner, events };
    });
    // toolsmith keeps the result's text in codeExecutionResult.output too, which is what ADK's step reads (it shows
    // "undefined" for a result ADK stored itself, whose output it leaves empty).
    expect(onAdk.requests[0]!.contents).toEqual([
      { role: "model", parts: [{ text: "```tool_code\nprint(6 * 7)\n```" }] },
      { role: "user", parts: [{ text: "```tool_output\nCode execution result:\n42\n\n\n```" }] },
      { role: "model", parts: [{ text: "It is 42." }] },
      { role: "user", parts: [{ text: "Again?" }] },
    ]);
  });
});
