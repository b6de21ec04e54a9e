import { says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Hello, please respond.", "This message won't reach the LLM."],
  modelTurns: [says("Hello! How can I help?")],
};
