import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Please summarize: The quick brown fox jumps over the lazy dog, again and again, all day long."],
  modelTurns: [
    calls([{ name: "summary_agent", args: { request: "The quick brown fox jumps over the lazy dog, again and again, all day long." } }], "helpful assistant"),
    says("A fox keeps jumping over a dog.", "expert summarizer"),
    // ADK 2.0.0 asks the model again after the agent tool although skipSummarization is true
    // (AgentTool keeps the option but never sets it on the event): this turn answers that request.
    says("A fox keeps jumping over a dog.", "helpful assistant"),
  ],
};
