import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { FunctionTool, getText, InMemoryRunner, LlmAgent } from "../../src/index.js";
import { collect, userMessage } from "../../src/testing/index.js";
import { anthropicWire } from "./support/anthropic-wire.js";
import { sse, startProviderServer, type ProviderServer } from "./support/provider-server.js";

describe("Anthropic extended thinking with tools", () => {
  let server: ProviderServer;
  beforeEach(async () => {
    server = await startProviderServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("streams thinking as thought events and sends the signed thinking back before the tool result", async () => {
    const events = [
      { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-6", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } },
      { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Need the " } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "clock." } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig-abc" } },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_1", name: "now", input: {} } },
      { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "" } },
      { type: "content_block_stop", index: 1 },
      { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 9 } },
      { type: "message_stop" },
    ];
    server.enqueue((_request, response) => sse(response, events.map((data) => ({ event: data.type, data }))), anthropicWire.streamText(["It is noon."]));
    const now = new FunctionTool({ name: "now", description: "The time.", parameters: z.object({}), execute: () => ({ time: "12:00" }) });
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "clock", model: anthropicWire.createModel(server), tools: [now] }), appName: "t" });
    const session = await runner.sessionService.createSession({ appName: "t", userId: "u1" });
    const seen = await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage("Time?"), runConfig: { streamingMode: "sse" } }));

    expect(seen.filter((event) => event.partial && event.content?.parts?.[0]?.thought).map((event) => getText({ parts: [{ text: event.content!.parts![0]!.text! }] }))).toEqual(["Need the ", "clock."]);
    expect(getText(seen.at(-1)!.content)).toBe("It is noon.");
    const assistant = server.requests[1]!.body.messages[1];
    expect(assistant).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Need the clock.", signature: "sig-abc" },
        { type: "tool_use", id: "toolu_1", name: "now", input: {} },
      ],
    });
    expect(server.requests[1]!.body.messages[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1", content: JSON.stringify({ time: "12:00" }) });
  });
});
