import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { SOURCE_NODE_FLAGS } from "./support/source-node-flags.js";

const run = promisify(execFile);
async function example(name: string): Promise<string> {
  const { stdout } = await run(process.execPath, [...SOURCE_NODE_FLAGS, `examples/${name}/main.ts`], { timeout: 60_000 });
  return stdout;
}

describe("examples", () => {
  it("weather-sentiment calls both tools and answers from their results", async () => {
    const output = await example("weather-sentiment");
    expect(output).toContain('weather_sentiment_agent → get_weather_report({"city":"Paris"})');
    expect(output).toContain("weather_sentiment_agent: The weather in Paris is sunny with a temperature of 25 degrees Celsius.");
    expect(output).toContain("(sentiment: positive)");
  });

  it("customer-support transfers an urgent request to the support agent", async () => {
    const output = await example("customer-support");
    expect(output).toContain("(transfer to support_agent)");
    expect(output).toMatch(/^support_agent: This is the support agent/m);
  });

  it("approval-flow refunds only after the manager confirms", async () => {
    const output = await example("approval-flow");
    expect(output.indexOf("manager approves")).toBeLessThan(output.indexOf("refund_agent: The refund of 120"));
  });

  it("reimbursement answers the long-running approval's pending status, then goes on in a second runner when it arrives", async () => {
    const output = await example("reimbursement");
    expect(output).toContain("reimbursement_agent: Your request is waiting for your manager's approval.");
    expect(output).toMatch(/\(call adk-[0-9a-f-]+ waits for the manager\)/);
    expect(output).toContain("reimbursement_agent: Approved and reimbursed: 450 for the conference.");
  });

  it("deep-agent plans, delegates a review, and runs the command only after the user approves", async () => {
    const output = await example("deep-agent");
    expect(output).toContain("reviewer: Safe: it only prints a line.");
    expect(output.indexOf("(the user approves the command)")).toBeLessThan(output.indexOf("deep_agent: The script printed:"));
    // Sandboxed where bubblewrap works; otherwise the tool's message says why it did not run.
    expect(output).toMatch(/deep_agent: The script printed: (hello from the sandbox|The command did not run: sandboxed execution is unavailable)/);
  });

  it("skills loads a skill on demand, runs its script, and the editor sub-agent writes only after the user approves", async () => {
    const output = await example("skills");
    // Sandboxed where bubblewrap works; otherwise the script's result says why it did not run.
    expect(output).toMatch(/deep_agent → editor\(\{"request":"Write a summary of essay\.txt \((11|The command did not run: sandboxed execution is unavailable\.[^)]*) words\) to \/summary\.md\."\}\)/);
    expect(output.indexOf("(the user approves the file)")).toBeLessThan(output.indexOf("deep_agent: Done: Wrote /summary.md in the house style."));
    expect(output).toContain("summary.md: Tides rise and fall twice a day.");
  });
});

describe("the stats example (toolsmith web examples)", () => {
  it("answers by running Python in the sandbox: a sum, a file saved as an artifact, and a failure in its own words", async () => {
    const { InMemoryRunner } = await import("../src/index.js");
    const { checkBubblewrap } = await import("../src/tools/builtin/index.js");
    const { rootAgent } = await import("../examples/stats/agent.ts");
    const runner = new InMemoryRunner({ agent: rootAgent, appName: "stats" });
    const session = await runner.sessionService.createSession({ appName: "stats", userId: "u" });
    const answer = async (message: string) => {
      let last = "";
      for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: message }] } })) {
        if (!event.partial && event.content?.parts?.[0]?.text) last = event.content.parts.map((part) => part.text ?? "").join("");
      }
      return last;
    };
    const sandbox = await checkBubblewrap();
    if (!sandbox.ok) {
      // Where bubblewrap cannot run, nothing runs and the answer says so.
      expect(await answer("what is 6 * 7?")).toContain("The code failed:");
      return;
    }
    expect(await answer("what is 2**10 + 1?")).toBe("The code printed 1025.");
    expect(await answer("squares up to 12")).toBe("The code printed 12 rows, the last (12, 144). It saved squares.csv; see the artifacts.");
    expect(await answer("what is 1/0?")).toBe("The code failed: ZeroDivisionError: division by zero");
    expect(await answer("hello")).toBe('Ask me to compute something, such as "what is 2**32 / 7?" or "squares up to 12".');
    const csv = await runner.artifactService.loadArtifact({ appName: "stats", userId: "u", sessionId: session.id, filename: "squares.csv" });
    expect(Buffer.from(csv!.inlineData!.data!, "base64").toString().split("\n").slice(0, 3)).toEqual(["n,square", "1,1", "2,4"]);
  });
});

describe("the examples' eval set", () => {
  it("weather-sentiment's eval set passes when the real toolsmith eval command replays it", async () => {
    const { stdout, stderr } = await run(process.execPath, [...SOURCE_NODE_FLAGS, "bin/toolsmith.mjs", "eval", "examples/weather-sentiment/agent.ts", "examples/weather-sentiment/weather_sentiment.evalset.json"], { timeout: 60_000 });
    expect(stdout).toMatch(/weather_sentiment\/paris_then_feedback +tool_trajectory_avg_score +1\.000 +1\.000 +PASS/);
    // ROUGE-1 of the agent's London report against the set's shorter answer: overlap 12 of 19 and 13 words, F = 24/32.
    expect(stdout).toMatch(/weather_sentiment\/london_weather +response_match_score +0\.750 +0\.600 +PASS/);
    expect(stdout).toContain("2 of 2 case(s) passed.");
    expect(stderr).toContain("[2/2] passed weather_sentiment/london_weather");
  });
});
