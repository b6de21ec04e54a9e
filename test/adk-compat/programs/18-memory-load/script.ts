import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["My favorite project is Project Alpha.", "What is my favorite project?"],
  modelTurns: [
    says("Noted: your favorite project is Project Alpha."),
    calls([{ name: "load_memory", args: { query: "favorite project" } }]),
    says("Your favorite project is Project Alpha."),
  ],
};
