import { says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Process this please.", "Process this and add note."],
  modelTurns: [says("Processing complete!"), says("Processing complete!")],
};
