import { says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["write a short joke"],
  modelTurns: [says("Why did the developer go broke? Because he used up all his cache.")],
};
