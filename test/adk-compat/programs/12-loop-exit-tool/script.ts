import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Write the story."],
  modelTurns: [
    says("The lighthouse keeper saw a light where no ship should be.", "tasked with starting a story"),
    says("Name the keeper.", "Constructive Critic"),
    says("Old Tom saw a light where no ship should be.", "refining a document"),
    says("No major issues found.", "Constructive Critic"),
    calls([{ name: "exit_loop" }], "refining a document"),
    says("The story is done.", "refining a document"),
  ],
};
