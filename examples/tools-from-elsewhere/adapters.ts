// Tools written for the Vercel AI SDK and LangChain.js, used by a toolsmith agent (see README, "Tools from other libraries").
import { tool as langChainTool } from "@langchain/core/tools";
import { tool as aiTool } from "ai";
import { z } from "zod";
import { LlmAgent } from "toolsmith";
import { aiSdkToolset, fromLangChainTools } from "toolsmith/adapters";
import { ScriptedModel } from "toolsmith/testing";

const weather = aiTool({
  description: "The weather in a city.",
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }, { abortSignal }) => ({ city, sky: "clear", cancelled: abortSignal?.aborted ?? false }),
});
const add = langChainTool(({ a, b }: { a: number; b: number }) => String(a + b), {
  name: "add",
  description: "Adds two numbers.",
  schema: z.object({ a: z.number(), b: z.number() }),
});

export const agent = new LlmAgent({
  name: "assistant",
  model: new ScriptedModel([]),
  tools: [aiSdkToolset({ weather }), ...(await fromLangChainTools([add]))],
});
