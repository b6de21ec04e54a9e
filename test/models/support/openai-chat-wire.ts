import { OpenAIChatModel } from "../../../src/models/openai/index.js";
import { json, sse } from "./provider-server.js";
import { openAIStrictViolations } from "./provider-constraints.js";
import { splitText, type ScriptedCall, type Wire } from "./wire.js";

const usage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };
const base = { id: "chatcmpl-1", created: 1_700_000_000, model: "gpt-4.1" };
const chunk = (delta: object, finishReason: string | null = null) => ({ data: { ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }] } });

function completion(message: object, finishReason: string) {
  return { ...base, object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", refusal: null, ...message }, finish_reason: finishReason, logprobs: null }], usage };
}

function toolCalls(calls: ScriptedCall[]) {
  return calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args) } }));
}

/** OpenAI Chat Completions, as OpenAI, Ollama, vLLM and llama.cpp's server speak it. */
export const openAIChatWire: Wire = {
  provider: "OpenAI Chat Completions",
  createModel: (server, retry) => new OpenAIChatModel({ model: "gpt-4.1", apiKey: "test-key", baseURL: `${server.url}/v1`, strict: true, providerName: "OpenAI", ...(retry ? { retry } : {}) }),
  path: () => "/v1/chat/completions",
  text: (text) => (_request, response) => json(response, 200, completion({ content: text }, "stop")),
  calls: (calls) => (_request, response) => json(response, 200, completion({ content: null, tool_calls: toolCalls(calls) }, "tool_calls")),
  streamText: (pieces) => (_request, response) =>
    sse(response, [chunk({ role: "assistant", content: "" }), ...pieces.map((content) => chunk({ content })), chunk({}, "stop"), { data: { ...base, object: "chat.completion.chunk", choices: [], usage } }, { data: "[DONE]" }]),
  streamCalls: (calls) => (_request, response) =>
    sse(response, [
      chunk({ role: "assistant", content: null }),
      ...calls.flatMap((call, index) => [
        chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
        ...splitText(JSON.stringify(call.args), 3).map((piece) => chunk({ tool_calls: [{ index, function: { arguments: piece } }] })),
      ]),
      chunk({}, "tool_calls"),
      { data: { ...base, object: "chat.completion.chunk", choices: [], usage } },
      { data: "[DONE]" },
    ]),
  error: (status, message, headers) => (_request, response) => json(response, status, { error: { message, type: status === 429 ? "rate_limit_exceeded" : "invalid_request_error", param: null, code: null } }, headers),
  hang: (firstPiece) => (_request, response) => sse(response, [chunk({ role: "assistant", content: "" }), chunk({ content: firstPiece })], { keepOpen: true }),
  functionResponses: (body) => body.messages.filter((message: any) => message.role === "tool").map((message: any) => ({ id: message.tool_call_id, response: JSON.parse(message.content) })),
  toolSchemas: (body) => Object.fromEntries((body.tools ?? []).map((tool: any) => [tool.function.name, tool.function])),
  toolViolations: (tool) => (tool.strict === true ? openAIStrictViolations(tool.parameters) : ["not sent with strict: true"]),
  generation: (body) => ({ temperature: body.temperature, maxTokens: body.max_tokens }),
  systemText: (body) => body.messages.find((message: any) => message.role === "system")?.content ?? "",
  streamed: (request) => request.body.stream === true,
};
