/** An LLM agent with a code executor: the loop runs the code in its model's answers (src/llm-agent/run-model-code.ts). */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InMemoryRunner, Runner } from "../../src/runner/runner.js";
import { LlmAgent } from "../../src/llm-agent/llm-agent.js";
import { runLlmAgent } from "../../src/llm-agent/llm-agent-loop.js";
import { CODE_EXECUTION_CONTEXT_KEY } from "../../src/llm-agent/run-model-code.js";
import { BaseCodeExecutor, type CodeExecutionResult, type ExecuteCodeParams } from "../../src/tools/code-executors/base-code-executor.js";
import { UnsafeLocalCodeExecutor } from "../../src/tools/code-executors/unsafe-local-code-executor.js";
import { BuiltInCodeExecutor } from "../../src/tools/gemini/built-in-code-executor.js";
import { isFinalResponse, type Event } from "../../src/events/event.js";
import { getText, type Content } from "../../src/content/content.js";
import type { LlmResponse } from "../../src/models/llm-response.js";
import { InMemoryArtifactService } from "../../src/artifacts/in-memory-artifact-service.js";
import { SqliteSessionService } from "../../src/sqlite/index.js";
import { functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { drive, invocationFor, tool } from "./fixtures.js";

/** An executor that records what it is asked and answers as told, for the loop's own behaviour. */
class RecordingExecutor extends BaseCodeExecutor {
  readonly asked: ExecuteCodeParams["codeExecutionInput"][] = [];
  constructor(private readonly answer: (code: string) => CodeExecutionResult | Promise<CodeExecutionResult>) {
    super();
  }
  async executeCode({ codeExecutionInput }: ExecuteCodeParams): Promise<CodeExecutionResult> {
    this.asked.push(codeExecutionInput);
    return this.answer(codeExecutionInput.code);
  }
}

const printed = (stdout: string): CodeExecutionResult => ({ stdout, stderr: "", outputFiles: [] });
const texts = (contents: readonly Content[]) => contents.map((content) => `${content.role}: ${(content.parts ?? []).map((part) => part.text ?? (part.functionCall ? `call ${part.functionCall.name}` : part.functionResponse ? `response ${part.functionResponse.name}` : "?")).join(" | ")}`);

async function runOnce(agent: LlmAgent, message = "What is 6 * 7?", runner = new InMemoryRunner({ agent, appName: "app" }), sessionId?: string) {
  const id = sessionId ?? (await runner.sessionService.createSession({ appName: "app", userId: "u" })).id;
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: "u", sessionId: id, newMessage: userMessage(message) })) events.push(event);
  return { events, runner, sessionId: id };
}

describe("an LLM agent with a code executor", () => {
  it("runs the answer's code, stores the code and its result, and asks the model again with both as text", async () => {
    const model = new ScriptedModel([textResponse("Let me compute.\n```python\nprint(6 * 7)\n```\nI will report back."), textResponse("It is 42.")]);
    const agent = new LlmAgent({ name: "calculator", model, codeExecutor: new UnsafeLocalCodeExecutor() });
    const { events, runner, sessionId } = await runOnce(agent);
    expect(events.map((event) => event.content?.parts?.map((part) => (part.executableCode ? "code" : part.codeExecutionResult ? `result ${part.codeExecutionResult.outcome}` : `text ${part.text}`)))).toEqual([
      ["text Let me compute.\n", "code"],
      ["result OUTCOME_OK"],
      ["text It is 42."],
    ]);
    // As ADK's isFinalResponse reads them: the answer cut at its code counts as final, the result does not.
    expect(events.map(isFinalResponse)).toEqual([true, false, true]);
    expect(texts(model.requests[1]!.contents)).toEqual(["user: What is 6 * 7?", "model: Let me compute.\n | ```tool_code\nprint(6 * 7)\n```", "user: ```tool_output\nCode execution result:\n42\n\n\n```"]);
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId });
    expect(stored!.events.slice(1).map((event) => event.id)).toEqual(events.map((event) => event.id));
    expect(stored!.events[1]!.content!.parts![1]!.executableCode).toEqual({ code: "print(6 * 7)", language: "PYTHON" });
    model.assertComplete();
  });

  it("saves the files the code wrote as the session's artifacts, recorded on the result's event", async () => {
    const model = new ScriptedModel([textResponse("```python\nopen('report.csv', 'w').write('a,b\\n1,2')\nprint('saved')\n```"), textResponse("Saved report.csv.")]);
    const artifactService = new InMemoryArtifactService();
    const agent = new LlmAgent({ name: "analyst", model, codeExecutor: new UnsafeLocalCodeExecutor() });
    const runner = new InMemoryRunner({ agent, appName: "app" });
    Object.assign(runner, { artifactService });
    const { events, sessionId } = await runOnce(agent, "Write a report", runner);
    expect(events[1]!.actions.artifactDelta).toEqual({ "report.csv": 0 });
    expect(getText(events[1]!.content)).toBe("Code execution result:\nsaved\n\n\n\nSaved artifacts:\nreport.csv");
    const artifact = await runner.artifactService.loadArtifact({ appName: "app", userId: "u", sessionId, filename: "report.csv" });
    expect(artifact?.inlineData?.mimeType).toBe("text/csv");
    expect(Buffer.from(artifact!.inlineData!.data!, "base64").toString()).toBe("a,b\n1,2");
  });

  it("names a file it could not save instead of dropping it: a user: name would reach past the session", async () => {
    const executor = new RecordingExecutor(() => ({ stdout: "done", stderr: "", outputFiles: [{ name: "user:profile.txt", content: "x", mimeType: "text/plain" }, { name: "ok.txt", content: "y", mimeType: "text/plain" }] }));
    const model = new ScriptedModel([textResponse("```python\nwrite()\n```"), textResponse("ok")]);
    const { events, runner, sessionId } = await runOnce(new LlmAgent({ name: "coder", model, codeExecutor: executor }));
    expect(events[1]!.actions.artifactDelta).toEqual({ "ok.txt": 0 });
    expect(getText(events[1]!.content)).toBe(`Code execution result:\ndone\n[Files not saved as artifacts: user:profile.txt (a name starting "user:" would be shared by all the user's sessions)]\n\n\nSaved artifacts:\nok.txt`);
    expect(await runner.artifactService.listArtifactKeys({ appName: "app", userId: "u", sessionId })).toEqual(["ok.txt"]);
  });

  it("lets the model fix failing code, then takes its answer as it is after errorRetryAttempts failures in a row", async () => {
    const executor = new RecordingExecutor((code) => (code.includes("bad") ? { stdout: "", stderr: "NameError: bad", outputFiles: [] } : printed("fine")));
    const model = new ScriptedModel([
      textResponse("```python\nbad()\n```"),
      textResponse("```python\ngood()\n```"),
      textResponse("```python\nbad()\n```"),
      textResponse("```python\nbad()\n```"),
      textResponse("I could not: ```python\nbad()\n```"),
    ]);
    const { events } = await runOnce(new LlmAgent({ name: "coder", model, codeExecutor: executor }));
    // A success in between resets the count: two failures in a row stop the running, and the third answer stands.
    expect(executor.asked.map((asked) => asked.code)).toEqual(["bad()", "good()", "bad()", "bad()"]);
    expect(getText(events.at(-1)!.content)).toBe("I could not: ```python\nbad()\n```");
    expect(isFinalResponse(events.at(-1)!)).toBe(true);
    expect(getText(events[1]!.content)).toBe("NameError: bad");
    model.assertComplete();
  });

  it("runs the tools of an answer that calls tools, and no code it also holds", async () => {
    const executor = new RecordingExecutor(() => printed("never"));
    const lookup = tool("lookup", () => ({ value: 7 }));
    const model = new ScriptedModel([{ ...functionCallsResponse({ name: "lookup", args: {} }), content: { role: "model", parts: [{ text: "```python\nprint(1)\n```" }, { functionCall: { name: "lookup", args: {} } }] } }, textResponse("It is 7.")]);
    const { events } = await runOnce(new LlmAgent({ name: "coder", model, tools: [lookup], codeExecutor: executor }));
    expect(executor.asked).toEqual([]);
    expect(getText(events.at(-1)!.content)).toBe("It is 7.");
  });

  it("ends the run with CODE_EXECUTION_FAILED when the executor throws, without running the code again", async () => {
    const executor = new RecordingExecutor(() => {
      throw new Error("the sandbox host is down");
    });
    const model = new ScriptedModel([textResponse("```python\nprint(1)\n```")]);
    const { events, runner, sessionId } = await runOnce(new LlmAgent({ name: "coder", model, codeExecutor: executor }));
    expect(executor.asked).toHaveLength(1);
    const last = events.at(-1)!;
    expect(last.errorCode).toBe("CODE_EXECUTION_FAILED");
    expect(last.errorMessage).toBe('Agent "coder": its code executor (RecordingExecutor) threw while running the model\'s code, which may have run in part: the sandbox host is down. Fix the executor; the code was not run again.');
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId });
    expect(stored!.events.map((event) => event.errorCode ?? (event.content?.parts?.some((part) => part.executableCode) ? "code" : "text"))).toEqual(["text", "code", "CODE_EXECUTION_FAILED"]);
  });

  it("refuses an executor's answer that is not ADK's shape with CODE_EXECUTION_FAILED, rather than showing the model \"undefined\"", async () => {
    const executor = new RecordingExecutor(() => "42" as never);
    const model = new ScriptedModel([textResponse("```python\nprint(1)\n```")]);
    const { events } = await runOnce(new LlmAgent({ name: "coder", model, codeExecutor: executor }));
    expect(events.at(-1)!.errorCode).toBe("CODE_EXECUTION_FAILED");
    expect(events.at(-1)!.errorMessage).toContain("executeCode must answer { stdout, stderr, outputFiles }; it answered 42");
  });

  it("gives a stateful executor the session's id as the execution's, recorded once in the state as ADK records it", async () => {
    const executor = new RecordingExecutor(() => printed("ok"));
    executor.stateful = true;
    const model = new ScriptedModel([textResponse("```python\nx = 1\n```"), textResponse("```python\nprint(x)\n```"), textResponse("done")]);
    const { events, runner, sessionId } = await runOnce(new LlmAgent({ name: "coder", model, codeExecutor: executor }));
    expect(executor.asked.map((asked) => asked.executionId)).toEqual([sessionId, sessionId]);
    expect(events.filter((event) => Object.keys(event.actions.stateDelta).length > 0).map((event) => event.actions.stateDelta)).toEqual([{ [CODE_EXECUTION_CONTEXT_KEY]: { execution_session_id: sessionId } }]);
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId });
    expect(stored!.state[CODE_EXECUTION_CONTEXT_KEY]).toEqual({ execution_session_id: sessionId });
  });

  it("gives a stateless executor no execution id", async () => {
    const executor = new RecordingExecutor(() => printed("ok"));
    await runOnce(new LlmAgent({ name: "coder", model: new ScriptedModel([textResponse("```python\nx = 1\n```"), textResponse("done")]), codeExecutor: executor }));
    expect(executor.asked[0]).toEqual({ code: "x = 1", language: "python", inputFiles: [] });
  });

  it("stops the code when the run is cancelled while it runs: the result says so, and the model is not asked again", async () => {
    const abort = new AbortController();
    // Cancelled once the code is surely running (a fixed delay raced the interpreter's start on a loaded machine).
    const marker = join(mkdtempSync(join(tmpdir(), "toolsmith-test-")), "started");
    const model = new ScriptedModel([textResponse(`\`\`\`python\nimport pathlib, time\npathlib.Path(${JSON.stringify(marker)}).touch()\ntime.sleep(30)\n\`\`\``), textResponse("never")]);
    const agent = new LlmAgent({ name: "coder", model, codeExecutor: new UnsafeLocalCodeExecutor() });
    const context = await invocationFor(agent, { abortSignal: abort.signal });
    const started = Date.now();
    const driving = drive(runLlmAgent(agent, context), context);
    await expect.poll(() => existsSync(marker), { timeout: 20_000, interval: 20 }).toBe(true);
    abort.abort();
    const events = await driving;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(model.requests).toHaveLength(1);
    expect(events.some((event) => event.content?.parts?.some((part) => part.executableCode))).toBe(true);
    const results = events.flatMap((event) => event.content?.parts ?? []).filter((part) => part.codeExecutionResult);
    expect(results.map((part) => part.text)).toEqual(["Code execution was stopped: the run was cancelled."]);
  });

  it("streams the answer's text, then stores the answer cut at its code", async () => {
    const chunks: LlmResponse[] = [{ ...textResponse("Computing "), partial: true }, { ...textResponse("```python\nprint(2 + 2)\n```"), partial: true }, textResponse("Computing ```python\nprint(2 + 2)\n``` and more")];
    const model = new ScriptedModel([chunks, textResponse("4")]);
    const agent = new LlmAgent({ name: "coder", model, codeExecutor: new UnsafeLocalCodeExecutor() });
    const context = await invocationFor(agent, { runConfig: { streamingMode: "sse" } });
    const events = await drive(runLlmAgent(agent, context), context);
    const complete = events.filter((event) => !event.partial);
    expect(complete.map((event) => getText(event.content))).toEqual(["Computing print(2 + 2)", "Code execution result:\n4\n\n", "4"]);
    expect(events.some((event) => event.partial)).toBe(true);
  });

  it("keeps outputKey for the final answer, not for an answer whose code ran", async () => {
    const model = new ScriptedModel([textResponse("```python\nprint(5)\n```"), textResponse("Five.")]);
    const { runner, sessionId } = await runOnce(new LlmAgent({ name: "coder", model, outputKey: "answer", codeExecutor: new RecordingExecutor(() => printed("5")) }));
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId });
    expect(stored!.state.answer).toBe("Five.");
  });

  it("shows a later run the earlier code as text, from a session stored in a SQLite file and reopened", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "toolsmith-code-session-")), "sessions.db");
    const first = new ScriptedModel([textResponse("```javascript\nconsole.log(21 * 2)\n```"), textResponse("42")]);
    const agentOf = (model: ScriptedModel) => new LlmAgent({ name: "coder", model, codeExecutor: new UnsafeLocalCodeExecutor() });
    const opened = new SqliteSessionService({ path });
    const { sessionId } = await runOnce(agentOf(first), "Compute", new Runner({ agent: agentOf(first), appName: "app", sessionService: opened }));
    await opened.close?.();
    const second = new ScriptedModel([textResponse("It was 42.")]);
    const reopened = new SqliteSessionService({ path });
    await runOnce(agentOf(second), "What was it?", new Runner({ agent: agentOf(second), appName: "app", sessionService: reopened }), sessionId);
    expect(texts(second.requests[0]!.contents)).toEqual(["user: Compute", "model: ```javascript\nconsole.log(21 * 2)\n```", "user: ```tool_output\nCode execution result:\n42\n\n\n```", "model: 42", "user: What was it?"]);
    await reopened.close?.();
  });

  it("leaves Gemini's own code execution to Gemini: BuiltInCodeExecutor joins the tools and the loop runs nothing", () => {
    const builtIn = new BuiltInCodeExecutor();
    const agent = new LlmAgent({ name: "coder", model: "gemini-2.5-flash", codeExecutor: builtIn });
    expect(agent.localCodeExecutor).toBeUndefined();
    expect(agent.codeExecutor).toBe(builtIn);
    expect(agent.tools).toEqual([builtIn]);
    expect(builtIn instanceof BaseCodeExecutor).toBe(true);
    const local = new UnsafeLocalCodeExecutor();
    const withLocal = new LlmAgent({ name: "coder", model: "gemini-2.5-flash", codeExecutor: local });
    expect(withLocal.localCodeExecutor).toBe(local);
    expect(withLocal.tools).toEqual([]);
    // A clone runs code through the same executor, as ADK's clone keeps the agent's options.
    expect(withLocal.clone({ name: "copy" }).localCodeExecutor).toBe(local);
    expect(local instanceof UnsafeLocalCodeExecutor && !(builtIn instanceof UnsafeLocalCodeExecutor)).toBe(true);
  });
});
