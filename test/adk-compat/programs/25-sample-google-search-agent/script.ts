import { says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Who won the 2024 Tour de France?"],
  modelTurns: [says("Tadej Pogačar won the 2024 Tour de France.")],
};
