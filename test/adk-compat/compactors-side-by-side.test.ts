import { describe, expect, it } from "vitest";
import * as adkModule from "@google/adk";
import * as toolsmithModule from "../../src/index.js";
import { call, drain, runOnBoth, text, type Framework, type ModelScript } from "./side-by-side.js";

/**
 * ADK 2's other compactors on `@google/adk` 2.0 and on toolsmith, the same program on both:
 * `TruncatingContextCompactor`, `TrajectoryThoughtPruningCompactor`, and `AgentControlledContextCompactor` with
 * `ConsolidateContextTool`. What the model is sent, what the plugins' compaction hooks hear, what is stored.
 */

/** Four user turns to an agent with `compactor`, a plugin recording the compaction hooks; returns the stored events too. */
async function fourTurns(f: Framework, model: string, compactor: unknown) {
  const hooks: string[] = [];
  const Plugin: new (name: string) => object = f.BasePlugin;
  class Watch extends Plugin {
    async beforeContextCompaction({ trigger }: { trigger: string }) {
      hooks.push(`before ${trigger}`);
    }
    async afterContextCompaction({ trigger }: { trigger: string }) {
      hooks.push(`after ${trigger}`);
    }
  }
  const runner = new f.InMemoryRunner({ agent: new f.LlmAgent({ name: "assistant", model, contextCompactors: [compactor] }), appName: "app", plugins: [new Watch("watch")] });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events: unknown[] = [];
  for (const message of ["u1", "u2", "u3", "u4"]) events.push(...(await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: message }] } }))));
  const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
  return { runner, events, output: { hooks, stored: stored.events.map(briefly) } };
}

/** An event as `author:parts`, thoughts marked `T:`. */
function briefly(event: { author: string; content?: { parts?: Array<{ text?: string; thought?: boolean }> } }): string {
  return `${event.author}:${(event.content?.parts ?? []).map((part) => `${part.thought ? "T:" : ""}${part.text ?? ""}`).join("|")}`;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
const thoughtful = (answer: string) => ({ content: { role: "model", parts: [{ text: `thinking about ${answer}`, thought: true }, { text: answer }] } });
const user = (message: string) => ({ role: "user", parts: [{ text: message }] });
const model = (answer: string) => ({ role: "model", parts: [{ text: answer }] });

describe("ADK 2's other context compactors, side by side with @google/adk 2.0", () => {
  it("TruncatingContextCompactor: the model sees the first events and the latest window, the hooks hear each truncation, and the session keeps everything, on both", async () => {
    const { adk, toolsmith } = await runOnBoth([text("a1"), text("a2"), text("a3"), text("a4")], (f, name) => fourTurns(f, name, new f.TruncatingContextCompactor({ threshold: 3, preserveLeadingEvents: 1 })));
    expect(toolsmith.requests).toEqual(adk.requests);
    expect(toolsmith.requests.map((request) => request.contents)).toEqual([
      [user("u1")],
      [user("u1"), model("a1"), user("u2")],
      [user("u1"), user("u2"), model("a2"), user("u3")],
      [user("u1"), user("u3"), model("a3"), user("u4")],
    ]);
    expect(toolsmith.output).toEqual(adk.output);
    expect((toolsmith.output as { hooks: string[] }).hooks).toEqual(["before Auto", "after Auto", "before Auto", "after Auto"]);
    expect(toolsmith.events).toEqual(adk.events);
  });

  it("TrajectoryThoughtPruningCompactor: the model is sent the older answers without their thoughts on both; ADK's session loses them and its caller gets each pruned event again, toolsmith's keeps them", async () => {
    const script: ModelScript = ["a1", "a2", "a3", "a4"].map(thoughtful);
    const { adk, toolsmith } = await runOnBoth(script, (f, name) => fourTurns(f, name, new f.TrajectoryThoughtPruningCompactor({ eventRetentionSize: 1 })));
    expect(toolsmith.requests).toEqual(adk.requests);
    expect(toolsmith.requests.at(-1)!.contents).toEqual([user("u1"), model("a1"), user("u2"), model("a2"), user("u3"), model("a3"), user("u4")]);
    const hooks = (run: typeof adk) => (run.output as { hooks: string[] }).hooks;
    expect(hooks(toolsmith)).toEqual(hooks(adk));
    expect(hooks(toolsmith)).toHaveLength(6);
    // Measured difference: ADK stores the pruned copies in place of the answers and yields them as new events.
    const stored = (run: typeof adk) => (run.output as { stored: string[] }).stored;
    expect(stored(adk)).toEqual(["user:u1", "assistant:a1", "user:u2", "assistant:a2", "user:u3", "assistant:a3", "user:u4", "assistant:T:thinking about a4|a4"]);
    expect(stored(toolsmith)).toEqual(["user:u1", "assistant:T:thinking about a1|a1", "user:u2", "assistant:T:thinking about a2|a2", "user:u3", "assistant:T:thinking about a3|a3", "user:u4", "assistant:T:thinking about a4|a4"]);
    expect(adk.events).toHaveLength(7);
    expect(toolsmith.events).toHaveLength(4);
  });

  it("AgentControlledContextCompactor with ConsolidateContextTool: the model's request, guided by its detail, makes the same summary request and the same next request on both", async () => {
    // ADK's view keeps the events stored after the summary's endTime, so events that share a millisecond can drop
    // out of it (run without these pauses, ADK failed with "No function call event found for function responses
    // ids"; toolsmith goes by event ids). The pauses stand for the time a real run takes between events.
    const { adk, toolsmith } = await runOnBoth([text("a1"), call("consolidate_context", { detail: "the plan" }), text("SUMMARY OF u1 a1 u2"), text("a2")], async (f, name) => {
      const hooks: string[] = [];
      const Plugin: new (pluginName: string) => object = f.BasePlugin;
      class Watch extends Plugin {
        async beforeContextCompaction({ trigger }: { trigger: string }) {
          hooks.push(`before ${trigger}`);
        }
        // After the user's message is stored, before the model's turn begins (ADK stamps its event then).
        async beforeRunCallback() {
          await pause();
          return undefined;
        }
      }
      const summarizer = new f.LlmSummarizer({ llm: f.LLMRegistry.newLlm(name) });
      const agent = new f.LlmAgent({ name: "assistant", model: name, tools: [new f.ConsolidateContextTool()], contextCompactors: [new f.AgentControlledContextCompactor({ summarizer })] });
      const runner = new f.InMemoryRunner({ agent, appName: "app", plugins: [new Watch("watch")] });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      const events: unknown[] = [];
      for (const message of ["u1", "u2"]) {
        events.push(...(await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: user(message) }))));
        await pause();
      }
      const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
      const records = stored.events.filter((event: { isCompacted?: boolean }) => event.isCompacted).map((event: { compactedContent: string }) => event.compactedContent);
      return { runner, events, output: { hooks, records, state: stored.state } };
    });
    // The tool is declared alike, and answers alike.
    expect(toolsmith.requests.map((request) => request.tools)).toEqual(adk.requests.map((request) => request.tools));
    expect(toolsmith.requests[1]!.tools).toEqual(["consolidate_context"]);
    // The summariser is asked with its own prompt on each, then the model's detail in ADK's words.
    const summaryRequest = (run: typeof adk) => JSON.stringify(run.requests[2]!.contents);
    for (const run of [adk, toolsmith]) expect(summaryRequest(run)).toContain("[Event 4 - Author: system]\\nCRITICAL INSTRUCTION FOR SUMMARY: Please summarize the history. Focus especially on: the plan");
    // The next request: the summary, then the call and its answer.
    expect(toolsmith.requests[3]).toEqual(adk.requests[3]);
    expect(toolsmith.requests[3]!.contents).toEqual([
      user("[Previous Context Summary]:\nSUMMARY OF u1 a1 u2"),
      { role: "model", parts: [{ functionCall: { name: "consolidate_context", args: { detail: "the plan" } } }] },
      { role: "user", parts: [{ functionResponse: { name: "consolidate_context", response: { status: "success", message: "Context consolidation requested." } } }] },
    ]);
    expect(toolsmith.output).toEqual(adk.output);
    expect(toolsmith.output).toEqual({ hooks: ["before AgentControlled"], records: ["SUMMARY OF u1 a1 u2"], state: {} });
  });
  it("isScratchpadEvent tells the same records apart on both", () => {
    const records = [
      { author: "user", content: { role: "user", parts: [{ text: "hi" }] } },
      { author: "system", isCompacted: true, startTime: 1, endTime: 2, compactedContent: "a summary" },
      { author: "system", isCompacted: true, startTime: 1, endTime: 2, compactedContent: "a scratchpad", isScratchpad: true },
      { author: "system", isScratchpad: true },
    ];
    const verdicts = (f: { isScratchpadEvent(event: never): boolean }) => records.map((record) => f.isScratchpadEvent(record as never));
    expect(verdicts(toolsmithModule)).toEqual(verdicts(adkModule as never));
    expect(verdicts(toolsmithModule)).toEqual([false, false, true, false]);
  });
  it("AnchoredContextCompactor: the same scratchpads, counted as ADK counts tokens, and the same requests on both", async () => {
    // The model reports 10 prompt tokens per content it was sent; the summariser numbers the events it summarised.
    const answer = (request: unknown) => {
      const asked = request as { contents: Array<{ parts: Array<{ text?: string }> }> };
      const prompt = JSON.stringify(asked.contents);
      if (/Event 1 - Author/.test(prompt)) return text(`SUMMARY(${prompt.match(/Event \d+ -/g)!.length})`);
      return { ...text(`answer ${asked.contents.length}`), usageMetadata: { promptTokenCount: 10 * asked.contents.length } };
    };
    const { adk, toolsmith } = await runOnBoth(Array.from({ length: 20 }, () => answer), async (f, name) => {
      const Plugin: new (pluginName: string) => object = f.BasePlugin;
      // Time between runs, as a real run takes: ADK's view goes by the scratchpad's endTime.
      class Slow extends Plugin {
        async beforeRunCallback() {
          await pause();
          return undefined;
        }
        async afterRunCallback() {
          await pause();
        }
      }
      const summarizer = new f.LlmSummarizer({ llm: f.LLMRegistry.newLlm(name) });
      const agent = new f.LlmAgent({ name: "assistant", model: name, contextCompactors: [new f.AnchoredContextCompactor({ tokenThreshold: 60, eventRetentionSize: 2, summarizer })] });
      const runner = new f.InMemoryRunner({ agent, appName: "app", plugins: [new Slow("slow")] });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      const events: unknown[] = [];
      for (const message of ["u1", "u2", "u3", "u4", "u5", "u6"]) events.push(...(await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: user(message) }))));
      const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
      // The record's author aside: ADK's is "system", toolsmith's the compacting agent (see docs/adk-compat.md).
      return { runner, events, output: stored.events.map((event: { author: string; isScratchpad?: boolean; compactedContent?: string; content?: { parts: Array<{ text?: string }> } }) => (event.isScratchpad ? `scratchpad:${event.compactedContent}` : `${event.author}:${event.content?.parts[0]?.text}`)) };
    });
    const agentRequests = (run: typeof adk) => run.requests.filter((request) => !/Event 1 - Author/.test(JSON.stringify(request.contents)));
    expect(agentRequests(toolsmith)).toEqual(agentRequests(adk));
    expect(agentRequests(toolsmith).at(-1)!.contents).toEqual([user("[Previous Context Summary]:\nSUMMARY(3)"), model("answer 3"), user("u6")]);
    expect(toolsmith.output).toEqual(adk.output);
    expect((toolsmith.output as string[]).filter((line) => line.startsWith("scratchpad:"))).toEqual(["scratchpad:SUMMARY(5)", "scratchpad:SUMMARY(3)", "scratchpad:SUMMARY(3)"]);
  });
});
