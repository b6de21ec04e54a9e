import { says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["write a joke about BLOCK", "write a short poem"],
  modelTurns: [says("Roses are red, code is neat.")],
};
