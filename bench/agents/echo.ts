/** The app the server load test talks to: one tool call, then a reply streamed in chunks, with no delay between them. */
import { FunctionTool, LlmAgent } from "toolsmith";
import { FunctionModel, lastFunctionResponse, lastUserText, streamedText } from "toolsmith/testing";

const lookup = new FunctionTool({
  name: "lookup",
  description: "Looks a word up.",
  parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
  execute: ({ word }, context) => {
    context.state.set("last_word", word);
    return { word, meaning: `the meaning of ${String(word)}` };
  },
});

export const rootAgent = new LlmAgent({
  name: "echo_agent",
  tools: [lookup],
  model: new FunctionModel(
    (request) => {
      const result = lastFunctionResponse(request);
      if (result) return streamedText(`The word ${String(result.response?.word)} means ${String(result.response?.meaning)}, as looked up.`);
      return { content: { role: "model", parts: [{ functionCall: { name: "lookup", args: { word: lastUserText(request) ?? "" } } }] } };
    },
    { name: "echo-rules" },
  ),
});
