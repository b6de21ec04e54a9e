/** The app the server load test talks to: one tool call, then a reply streamed in four chunks, with no delay between them. */
import { FunctionTool, LlmAgent } from "../../src/index.js";
import { lastToolResult, lastUserText, ruleModel, streamedText } from "../../examples/_demo/rule-model.js";

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
  model: ruleModel(
    "echo-rules",
    (request) => {
      const result = lastToolResult(request);
      if (result) return streamedText(`The word ${String(result.response.word)} means ${String(result.response.meaning)}, as looked up.`);
      return { content: { role: "model", parts: [{ functionCall: { name: "lookup", args: { word: lastUserText(request) ?? "" } } }] } };
    },
    { chunkDelayMs: 0 },
  ),
});
