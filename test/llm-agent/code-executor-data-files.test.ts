/** ADK's optimizeDataFile: the user's CSV files given to the agent's code, explored once with pandas (Debian's Python, python3-pandas). */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { InMemoryRunner } from "../../src/runner/runner.js";
import { LlmAgent } from "../../src/llm-agent/llm-agent.js";
import { CODE_EXECUTION_CONTEXT_KEY, exploreCsvCode } from "../../src/llm-agent/run-model-code.js";
import { BaseCodeExecutor, type CodeExecutionResult, type ExecuteCodeParams } from "../../src/tools/code-executors/base-code-executor.js";
import { UnsafeLocalCodeExecutor } from "../../src/tools/code-executors/unsafe-local-code-executor.js";
import { getText, type Content } from "../../src/content/content.js";
import type { Event } from "../../src/events/event.js";
import { ScriptedModel, textResponse } from "../../src/testing/index.js";

/** Debian's Python with pandas (python3-pandas), which .ci/run installs; outside CI its test is skipped without it. */
const DEBIAN_PYTHON = "/usr/bin/python3";
const hasPandas = spawnSync(DEBIAN_PYTHON, ["-c", "import pandas"]).status === 0;
if (process.env.CI && !hasPandas) throw new Error(`${DEBIAN_PYTHON} cannot import pandas; .ci/run installs Debian's python3-pandas package.`);

const CSV = "city,temperature\nOslo,4\nLisbon,19\nCairo,31\n";
const withCsv = (text: string, csv = CSV): Content => ({ role: "user", parts: [{ text }, { inlineData: { mimeType: "text/csv", data: Buffer.from(csv).toString("base64") } }] });
const texts = (contents: readonly Content[]) => contents.map((content) => `${content.role}: ${(content.parts ?? []).map((part) => part.text ?? (part.inlineData ? `[${part.inlineData.mimeType}]` : "?")).join(" | ")}`);

async function turn(runner: InMemoryRunner, sessionId: string, message: Content): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: "u", sessionId, newMessage: message })) events.push(event);
  return events;
}

describe("an agent whose code executor optimizes data files", () => {
  it.skipIf(!hasPandas)(`shows the model the CSV file's name and pandas' reading of it, and gives the file to the model's code${hasPandas ? "" : " (skipped: no pandas for /usr/bin/python3; apt-get install python3-pandas)"}`, async () => {
    const executor = new UnsafeLocalCodeExecutor({ pythonCommandPath: DEBIAN_PYTHON });
    executor.optimizeDataFile = true;
    const model = new ScriptedModel([textResponse("```python\nimport pandas as pd\nprint(pd.read_csv('data_1_2.csv')['temperature'].max())\n```"), textResponse("Cairo is warmest, at 31.")]);
    const agent = new LlmAgent({ name: "analyst", model, codeExecutor: executor });
    const runner = new InMemoryRunner({ agent, appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await turn(runner, session.id, withCsv("Which city is warmest?"));
    const first = texts(model.requests[0]!.contents);
    expect(first[0]).toBe("user: Which city is warmest? | \nAvailable file: `data_1_2.csv`\n");
    expect(first[1]).toBe(`model: Processing input file: \`data_1_2.csv\` | \`\`\`tool_code\n${exploreCsvCode("data_1_2.csv")}\n\`\`\``);
    expect(first[2]).toBe(
      "user: ```tool_output\nCode execution result:\ndata_1_2.csv: 3 rows, 2 columns\n- city: object, 3 filled, 3 distinct: 'Oslo', 'Lisbon', 'Cairo'\n- temperature: int64, 3 filled, 3 distinct: 4, 19, 31\n\n\n```",
    );
    expect(getText(events.at(-2)!.content)).toBe("Code execution result:\n31\n\n");
    expect(getText(events.at(-1)!.content)).toBe("Cairo is warmest, at 31.");
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.state[CODE_EXECUTION_CONTEXT_KEY]).toEqual({ processed_input_files: ["data_1_2.csv"] });
    // The stored message keeps the file itself; only the request shows its name.
    expect(stored!.events[0]!.content!.parts![1]!.inlineData?.mimeType).toBe("text/csv");
  });

  it("explores a file once per session, and each new file once", async () => {
    const asked: ExecuteCodeParams["codeExecutionInput"][] = [];
    class Recording extends BaseCodeExecutor {
      override optimizeDataFile = true;
      async executeCode({ codeExecutionInput }: ExecuteCodeParams): Promise<CodeExecutionResult> {
        asked.push(codeExecutionInput);
        return { stdout: "explored", stderr: "", outputFiles: [] };
      }
    }
    const model = new ScriptedModel([textResponse("Noted."), textResponse("```python\nprint(1)\n```"), textResponse("Both noted.")]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "analyst", model, codeExecutor: new Recording() }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    await turn(runner, session.id, withCsv("Here is one."));
    await turn(runner, session.id, withCsv("And another.", "a,b\n1,2\n"));
    // The first turn explores data_1_2.csv; the second explores only the new file, named by its place in the request
    // as ADK names it (the fifth content: after the first message, the exploration's code and result, and "Noted."),
    // and the model's code gets both.
    expect(asked.map((input) => input.inputFiles.map((file) => file.name))).toEqual([["data_1_2.csv"], ["data_5_2.csv"], ["data_1_2.csv", "data_5_2.csv"]]);
    expect(asked.map((input) => input.code.startsWith("import pandas as pd"))).toEqual([true, true, false]);
    expect(Buffer.from(asked[2]!.inputFiles[1]!.content, "base64").toString()).toBe("a,b\n1,2\n");
  });

  it("ends the run with CODE_EXECUTION_FAILED when the executor throws while exploring, before the model is called", async () => {
    class Broken extends BaseCodeExecutor {
      override optimizeDataFile = true;
      async executeCode(): Promise<CodeExecutionResult> {
        throw new Error("no worker free");
      }
    }
    const model = new ScriptedModel([textResponse("never")]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "analyst", model, codeExecutor: new Broken() }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await turn(runner, session.id, withCsv("Look."));
    expect(events.at(-1)!.errorCode).toBe("CODE_EXECUTION_FAILED");
    expect(model.requests).toHaveLength(0);
  });

  it("names the loading variable after the file, so a name starting with a digit or holding dots still loads", () => {
    expect(exploreCsvCode("data_1_2.csv")).toContain('name = "data_1_2.csv"\ndata_1_2 = pd.read_csv(name)');
    expect(exploreCsvCode("2024.sales-q1.csv")).toContain("_2024_sales_q1 = pd.read_csv(name)");
  });
});
