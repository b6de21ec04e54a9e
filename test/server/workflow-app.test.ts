import { describe, expect, it } from "vitest";
import { DEFAULT_ROUTE, FunctionNode, getPendingUserInputRequests, LlmAgent, node, RequestInput, Workflow } from "../../src/index.js";
import { modelRequirements } from "../../src/server/model-requirements.js";
import { FunctionModel, textResponse } from "../../src/testing/index.js";
import { inlineApi } from "./inline-api.js";

/** `classify` routes a question to an LLM agent and anything else to a function node; the agent runs `model`. */
function triage(model: LlmAgent["model"]) {
  const classify = new FunctionNode("classify", (ctx, text: string) => {
    ctx.route = text.includes("?") ? "question" : "other";
    return text;
  });
  const answerer = new LlmAgent({ name: "answerer", model, instruction: "Answer the question." });
  const noted = node(() => "Noted.", { name: "noted" });
  return new Workflow({ name: "triage", edges: [["START", classify, { question: answerer, [DEFAULT_ROUTE]: noted }]] });
}

const message = (text: string) => ({ role: "user", parts: [{ text }] });

describe("a graph workflow served as an app", () => {
  it("runs through /run: each node's event with its path and output, stored in the session", async () => {
    const { json } = await inlineApi({ triage: triage(new FunctionModel(() => textResponse("Because."))) });
    const { body: session } = await json("/apps/triage/users/u1/sessions", { json: {} });
    const { body: events } = await json("/run", { json: { appName: "triage", userId: "u1", sessionId: session.id, newMessage: message("why?") } });
    expect(events.map((event: Record<string, any>) => [event.author, event.nodeInfo?.path, event.output])).toEqual([
      ["classify", "triage.classify", "why?"],
      ["answerer", "triage.answerer", "Because."],
    ]);
    const { body: stored } = await json(`/apps/triage/users/u1/sessions/${session.id}`);
    // The user's message, the agent node's input as a user turn, and the two nodes' events.
    expect(stored.events.map((event: Record<string, any>) => event.author)).toEqual(["user", "classify", "user", "answerer"]);
  });

  it("is drawn for ADK's dev UI as its nodes and edges, each routed edge labelled with its route", async () => {
    const { json } = await inlineApi({ triage: triage(new FunctionModel(() => textResponse("ok"))) });
    const lines = ((await json("/dev/apps/triage/build_graph_image")).body.dotSrc as string).split("\n");
    for (const line of [
      '"triage.START" [shape=circle, label="START"];',
      '"triage.classify" [shape=box, label="classify"];',
      '"triage.answerer" [shape=ellipse, label="answerer"];',
      '"triage.START" -> "triage.classify";',
      '"triage.classify" -> "triage.answerer" [label="question"];',
      '"triage.classify" -> "triage.noted" [label="default"];',
      '"triage" -> "triage.START";',
    ]) {
      expect(lines).toContain(`  ${line}`);
    }
  });

  it("names what its agent nodes' models need from the environment, as for any agent", () => {
    const requirements = modelRequirements({ app: "triage", root: triage("gemini-2.5-flash"), environment: {} });
    expect(requirements.models).toMatchObject([{ model: "gemini-2.5-flash", agents: ["answerer"], ready: false }]);
    expect(requirements.warnings).toEqual([expect.stringMatching(/^triage needs GOOGLE_API_KEY or GEMINI_API_KEY or GOOGLE_GENAI_API_KEY \(or, for Vertex AI, [^)]*\) for gemini-2\.5-flash/)]);
  });

  it("asks the person through /run and resumes on the answer sent to /run, as a client of ADK's API does", async () => {
    const ask = node(async function* ask(_ctx, text: string) {
      yield new RequestInput({ interruptId: "ok", message: `Send "${text}"?` });
    });
    const send = node((_ctx, answer: unknown) => `sent: ${JSON.stringify(answer)}`, { name: "send" });
    const { json } = await inlineApi({ mail: new Workflow({ name: "mail", edges: [["START", ask, send]] }) });
    const { body: session } = await json("/apps/mail/users/u1/sessions", { json: {} });
    await json("/run", { json: { appName: "mail", userId: "u1", sessionId: session.id, newMessage: message("hello") } });
    const { body: paused } = await json(`/apps/mail/users/u1/sessions/${session.id}`);
    expect(getPendingUserInputRequests(paused.events)).toMatchObject([{ kind: "input", interruptId: "ok", message: 'Send "hello"?', author: "ask" }]);
    const answer = { role: "user", parts: [{ functionResponse: { id: "ok", name: "adk_request_input", response: { result: "yes" } } }] };
    const { body: events } = await json("/run", { json: { appName: "mail", userId: "u1", sessionId: session.id, newMessage: answer } });
    expect(events.map((event: Record<string, any>) => [event.author, event.output])).toEqual([["send", 'sent: "yes"']]);
    const { body: done } = await json(`/apps/mail/users/u1/sessions/${session.id}`);
    expect(getPendingUserInputRequests(done.events)).toEqual([]);
  });
});
