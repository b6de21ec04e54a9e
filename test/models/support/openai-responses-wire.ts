import { OpenAIResponsesModel } from "../../../src/models/openai/index.js";
import { json, sse, type SseEvent } from "./provider-server.js";
import { openAIStrictViolations } from "./provider-constraints.js";
import { splitText, type ScriptedCall, type Wire } from "./wire.js";

const usage = { input_tokens: 11, input_tokens_details: { cached_tokens: 0 }, output_tokens: 7, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 18 };

function response(output: object[], status = "completed") {
  return {
    id: "resp_1", object: "response", created_at: 1_700_000_000, status, model: "gpt-4.1", output, usage: status === "completed" ? usage : null,
    error: null, incomplete_details: null, instructions: null, metadata: {}, parallel_tool_calls: true, temperature: 1, tool_choice: "auto", tools: [], top_p: 1,
  };
}

const message = (text: string) => ({ type: "message", id: "msg_1", status: "completed", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] });
const functionCall = (call: ScriptedCall, index: number) => ({ type: "function_call", id: `fc_${index}`, call_id: call.id, name: call.name, arguments: JSON.stringify(call.args), status: "completed" });

function events(list: object[]): SseEvent[] {
  return list.map((data, sequence) => ({ event: (data as { type: string }).type, data: { ...data, sequence_number: sequence } }));
}

/** OpenAI's Responses API. */
export const openAIResponsesWire: Wire = {
  provider: "OpenAI Responses",
  createModel: (server, retry) => new OpenAIResponsesModel({ model: "gpt-4.1", apiKey: "test-key", baseURL: `${server.url}/v1`, strict: true, providerName: "OpenAI", ...(retry ? { retry } : {}) }),
  path: () => "/v1/responses",
  text: (text) => (_request, reply) => json(reply, 200, response([message(text)])),
  calls: (calls) => (_request, reply) => json(reply, 200, response(calls.map(functionCall))),
  streamText: (pieces) => (_request, reply) => {
    const text = pieces.join("");
    return sse(
      reply,
      events([
        { type: "response.created", response: response([], "in_progress") },
        { type: "response.output_item.added", output_index: 0, item: { ...message(""), status: "in_progress", content: [] } },
        { type: "response.content_part.added", item_id: "msg_1", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } },
        ...pieces.map((delta) => ({ type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta, logprobs: [] })),
        { type: "response.output_text.done", item_id: "msg_1", output_index: 0, content_index: 0, text, logprobs: [] },
        { type: "response.output_item.done", output_index: 0, item: message(text) },
        { type: "response.completed", response: response([message(text)]) },
      ]),
    );
  },
  streamCalls: (calls) => (_request, reply) =>
    sse(
      reply,
      events([
        { type: "response.created", response: response([], "in_progress") },
        ...calls.flatMap((call, index) => [
          { type: "response.output_item.added", output_index: index, item: { ...functionCall(call, index), arguments: "", status: "in_progress" } },
          ...splitText(JSON.stringify(call.args), 3).map((delta) => ({ type: "response.function_call_arguments.delta", item_id: `fc_${index}`, output_index: index, delta })),
          { type: "response.function_call_arguments.done", item_id: `fc_${index}`, output_index: index, arguments: JSON.stringify(call.args) },
          { type: "response.output_item.done", output_index: index, item: functionCall(call, index) },
        ]),
        { type: "response.completed", response: response(calls.map(functionCall)) },
      ]),
    ),
  error: (status, text, headers) => (_request, reply) => json(reply, status, { error: { message: text, type: "invalid_request_error", param: null, code: null } }, headers),
  hang: (firstPiece) => (_request, reply) =>
    sse(
      reply,
      events([
        { type: "response.created", response: response([], "in_progress") },
        { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: firstPiece, logprobs: [] },
      ]),
      { keepOpen: true },
    ),
  functionResponses: (body) => body.input.filter((item: any) => item.type === "function_call_output").map((item: any) => ({ id: item.call_id, response: JSON.parse(item.output) })),
  toolSchemas: (body) => Object.fromEntries((body.tools ?? []).map((tool: any) => [tool.name, tool])),
  toolViolations: (tool) => (tool.strict === true ? openAIStrictViolations(tool.parameters) : ["not sent with strict: true"]),
  generation: (body) => ({ temperature: body.temperature, maxTokens: body.max_output_tokens }),
  systemText: (body) => body.instructions ?? "",
  streamed: (request) => request.body.stream === true,
};
