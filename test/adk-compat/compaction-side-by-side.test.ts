import { describe, expect, it } from "vitest";
import { drain, runOn, text, type Framework } from "./side-by-side.js";

/**
 * The same program on `@google/adk` 2.0 and on toolsmith: an agent with a TokenBasedContextCompactor and an
 * LlmSummarizer, six turns of a conversation. The model's answers report the prompt's size (its contents' JSON
 * characters over three, so more than toolsmith's estimate); the budget is 250 tokens.
 */
async function conversation(f: Framework, model: string) {
  const summarizer = new f.LlmSummarizer({ llm: f.LLMRegistry.newLlm(model) });
  const agent = new f.LlmAgent({ name: "assistant", model, instruction: "Help.", contextCompactors: [new f.TokenBasedContextCompactor({ tokenThreshold: 250, eventRetentionSize: 2, summarizer })] });
  const runner = new f.InMemoryRunner({ agent, appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events: unknown[] = [];
  for (let turn = 1; turn <= 6; turn++) events.push(...(await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: `question ${turn}: ${"some detail ".repeat(12)}` }] } }))));
  const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
  return { runner, events, output: stored.events };
}

type Request = { contents: Array<{ role: string; parts: Array<{ text?: string }> }>; config?: { tools?: unknown[]; systemInstruction?: unknown }; functionDeclarations?: unknown[] };
const isSummaryRequest = (request: Request) => !request.config?.systemInstruction && (request.functionDeclarations?.length ?? 0) === 0 && request.contents.length === 1 && /conversation/.test(request.contents[0]!.parts[0]!.text ?? "");

const tokens = (request: Request) => Math.ceil(JSON.stringify(request.contents).length / 3);

/** Answers the summariser with a summary, and the agent with a short reply reporting the prompt's size. */
const script = Array.from({ length: 40 }, () => (request: unknown) => {
  const asked = request as Request & { config?: { systemInstruction?: unknown } };
  if (isSummaryRequest(asked)) return text("SUMMARY");
  return { ...text(`answer ${asked.contents.length}`), usageMetadata: { promptTokenCount: tokens(asked) } };
});

describe("context compaction, side by side with @google/adk 2.0", () => {
  it("records compactions as CompactedEvents and sends the summary as ADK words it; toolsmith compacts before the request that would pass the budget, ADK after", async () => {
    const runs = { adk: await runOn("adk", [...script], conversation), toolsmith: await runOn("toolsmith", [...script], conversation) };
    const shape = (framework: "adk" | "toolsmith") => {
      const stored = runs[framework].output as Array<Record<string, unknown>>;
      const records = stored.filter((event) => event.isCompacted === true);
      const requests = runs[framework].requests.filter((request) => !/conversation history|earlier part of a conversation/.test(JSON.stringify(request.contents)));
      return {
        records: records.length,
        recordFields: records[0] ? ["isCompacted", "startTime", "endTime", "compactedContent"].filter((field) => field in records[0]!) : [],
        compactedContent: records[0]?.compactedContent,
        userMessagesStored: stored.filter((event) => event.author === "user").length,
        requestSizes: requests.map((request) => tokens(request as Request)),
        firstSummaryText: JSON.stringify(requests.find((request) => JSON.stringify(request.contents).includes("SUMMARY"))?.contents[0]),
      };
    };
    const adk = shape("adk");
    const toolsmith = shape("toolsmith");
    console.log(`ADK: ${JSON.stringify(adk)}\ntoolsmith: ${JSON.stringify(toolsmith)}`);
    // The same record fields and summary text, and both keep every user message.
    expect(toolsmith.recordFields).toEqual(adk.recordFields);
    expect(toolsmith.compactedContent).toBe(adk.compactedContent);
    expect(toolsmith.userMessagesStored).toBe(adk.userMessagesStored);
    expect(toolsmith.firstSummaryText).toBe(adk.firstSummaryText);
    // ADK sends a request past the budget before it compacts; toolsmith never does.
    expect(Math.max(...adk.requestSizes)).toBeGreaterThan(250);
    expect(Math.max(...toolsmith.requestSizes)).toBeLessThanOrEqual(250);
  });
});
