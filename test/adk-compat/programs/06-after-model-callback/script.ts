import { says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["write a short joke about computers", "write a short poem about coding"],
  modelTurns: [says("Here is a joke: computers never get tired, only their fans do."), says("Lines of code, like lines of verse.")],
};
