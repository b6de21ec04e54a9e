import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Weather in Paris?", "Thanks!"],
  modelTurns: [calls([{ name: "get_weather", args: { city: "Paris" } }]), says("It is sunny in Paris."), says("You're welcome.")],
};
