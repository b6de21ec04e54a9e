import { AnthropicModel } from "../../../src/models/anthropic/index.js";
import { json, sse, type SseEvent } from "./provider-server.js";
import { objectRootViolations } from "./provider-constraints.js";
import { splitText, type Wire } from "./wire.js";

function message(content: object[], stopReason: string) {
  return { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-6", content, stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: 11, output_tokens: 7 } };
}

const start = { type: "message_start", message: { ...message([], "end_turn"), stop_reason: null, usage: { input_tokens: 11, output_tokens: 1 } } };
const end = (stopReason: string) => [
  { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 7 } },
  { type: "message_stop" },
];

function events(list: object[]): SseEvent[] {
  return list.map((data) => ({ event: (data as { type: string }).type, data }));
}

/** Anthropic's Messages API. */
export const anthropicWire: Wire = {
  provider: "Anthropic",
  createModel: (server, retry) => new AnthropicModel({ model: "claude-sonnet-4-6", apiKey: "test-key", baseURL: server.url, ...(retry ? { retry } : {}) }),
  path: () => "/v1/messages",
  text: (text) => (_request, response) => json(response, 200, message([{ type: "text", text }], "end_turn")),
  calls: (calls) => (_request, response) => json(response, 200, message(calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.args })), "tool_use")),
  streamText: (pieces) => (_request, response) =>
    sse(
      response,
      events([
        start,
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "ping" },
        ...pieces.map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
        { type: "content_block_stop", index: 0 },
        ...end("end_turn"),
      ]),
    ),
  streamCalls: (calls) => (_request, response) =>
    sse(
      response,
      events([
        start,
        ...calls.flatMap((call, index) => [
          { type: "content_block_start", index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } },
          ...splitText(JSON.stringify(call.args), 3).map((partial_json) => ({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } })),
          { type: "content_block_stop", index },
        ]),
        ...end("tool_use"),
      ]),
    ),
  error: (status, text, headers) => (_request, response) =>
    json(response, status, { type: "error", error: { type: status === 429 ? "rate_limit_error" : status >= 500 ? "api_error" : "invalid_request_error", message: text } }, headers),
  hang: (firstPiece) => (_request, response) =>
    sse(
      response,
      events([start, { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: firstPiece } }]),
      { keepOpen: true },
    ),
  functionResponses: (body) =>
    body.messages.flatMap((entry: any) => (Array.isArray(entry.content) ? entry.content : []).filter((block: any) => block.type === "tool_result").map((block: any) => ({ id: block.tool_use_id, response: JSON.parse(block.content) }))),
  toolSchemas: (body) => Object.fromEntries((body.tools ?? []).map((tool: any) => [tool.name, tool])),
  toolViolations: (tool) => objectRootViolations(tool.input_schema),
  generation: (body) => ({ temperature: body.temperature, maxTokens: body.max_tokens }),
  systemText: (body) => (typeof body.system === "string" ? body.system : ""),
  streamed: (request) => request.body.stream === true,
};
