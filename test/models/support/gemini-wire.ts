import { GeminiModel } from "../../../src/models/gemini/index.js";
import { json, sse } from "./provider-server.js";
import { geminiViolations } from "./provider-constraints.js";
import type { ScriptedCall, Wire } from "./wire.js";

const usageMetadata = { promptTokenCount: 11, candidatesTokenCount: 7, totalTokenCount: 18 };

function chunk(parts: object[], finishReason?: string, withUsage = false) {
  return { candidates: [{ content: { role: "model", parts }, index: 0, ...(finishReason ? { finishReason } : {}) }], ...(withUsage ? { usageMetadata } : {}), modelVersion: "gemini-2.5-flash", responseId: "r1" };
}

const callPart = (call: ScriptedCall) => ({ functionCall: { name: call.name, args: call.args } });

/** The Gemini API: generateContent, and streamGenerateContent with `alt=sse`. */
export const geminiWire: Wire = {
  provider: "Gemini",
  createModel: (server, retry) => new GeminiModel({ model: "gemini-2.5-flash", apiKey: "test-key", baseURL: server.url, ...(retry ? { retry } : {}) }),
  path: (stream) => (stream ? "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse" : "/v1beta/models/gemini-2.5-flash:generateContent"),
  text: (text) => (_request, response) => json(response, 200, chunk([{ text }], "STOP", true)),
  calls: (calls) => (_request, response) => json(response, 200, chunk(calls.map(callPart), "STOP", true)),
  streamText: (pieces) => (_request, response) =>
    sse(response, pieces.map((text, index) => ({ data: chunk([{ text }], index === pieces.length - 1 ? "STOP" : undefined, index === pieces.length - 1) }))),
  // Gemini streams each function call whole, so several calls arrive in several chunks.
  streamCalls: (calls) => (_request, response) =>
    sse(response, calls.map((call, index) => ({ data: chunk([callPart(call)], index === calls.length - 1 ? "STOP" : undefined, index === calls.length - 1) }))),
  error: (status, message, headers) => (_request, response) =>
    json(response, status, { error: { code: status, message, status: status === 429 ? "RESOURCE_EXHAUSTED" : status >= 500 ? "INTERNAL" : "INVALID_ARGUMENT" } }, headers),
  hang: (firstPiece) => (_request, response) => sse(response, [{ data: chunk([{ text: firstPiece }]) }], { keepOpen: true }),
  functionResponses: (body) =>
    body.contents.flatMap((content: any) => content.parts.filter((part: any) => part.functionResponse).map((part: any) => ({ id: part.functionResponse.id, response: part.functionResponse.response }))),
  toolSchemas: (body) => Object.fromEntries((body.tools?.[0]?.functionDeclarations ?? []).map((declaration: any) => [declaration.name, declaration])),
  toolViolations: (tool) => geminiViolations(tool.parameters),
  generation: (body) => ({ temperature: body.generationConfig?.temperature, maxTokens: body.generationConfig?.maxOutputTokens }),
  systemText: (body) => body.systemInstruction?.parts?.map((part: any) => part.text).join("") ?? "",
  streamed: (request) => request.url.includes(":streamGenerateContent"),
};
