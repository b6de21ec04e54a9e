import { ToolsmithError } from "../errors/toolsmith-error.js";
import type { CreateMessageRequest, CreateMessageResult } from "@modelcontextprotocol/sdk/types.js";
import { getText, type Content, type Part } from "../content/content.js";
import type { LlmRequest } from "../models/llm-request.js";
import type { LlmResponse } from "../models/llm-response.js";
import type { Model } from "../models/model.js";

type SamplingBlock = { type: string; text?: string; data?: string; mimeType?: string };

/**
 * Answers an MCP server's `sampling/createMessage` request with a toolsmith
 * model: the messages become the request's contents (text, images and audio
 * as inline parts), the system prompt its instruction, and the model's final
 * text the answer. No tools are offered to the model.
 */
export async function answerSampling(model: Model, params: CreateMessageRequest["params"], abortSignal?: AbortSignal): Promise<CreateMessageResult> {
  const contents: Content[] = params.messages.map((message) => {
    const blocks = (Array.isArray(message.content) ? message.content : [message.content]) as SamplingBlock[];
    return { role: message.role === "assistant" ? "model" : "user", parts: blocks.map(toPart).filter((part): part is Part => part !== undefined) };
  });
  const request: LlmRequest = {
    model: model.name,
    contents,
    systemInstruction: params.systemPrompt ?? "",
    functionDeclarations: [],
    config: {
      maxOutputTokens: params.maxTokens,
      ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
      ...(params.stopSequences ? { stopSequences: params.stopSequences } : {}),
    },
  };
  let last: LlmResponse | undefined;
  for await (const response of model.generateContent(request, { stream: false, abortSignal })) if (!response.partial) last = response;
  if (last?.errorMessage) throw new ToolsmithError("MODEL_ERROR", `The model failed: ${last.errorMessage}`);
  return { role: "assistant", content: { type: "text", text: getText(last?.content) }, model: model.name, stopReason: "endTurn" };
}

function toPart(block: SamplingBlock): Part | undefined {
  if (block.type === "text" && typeof block.text === "string") return { text: block.text };
  if ((block.type === "image" || block.type === "audio") && block.data && block.mimeType) return { inlineData: { mimeType: block.mimeType, data: block.data } };
  return undefined;
}
