import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["What is the weather in New York?"],
  modelTurns: [
    calls([{ name: "get_weather", args: { city: "New York" } }]),
    says("It is sunny and 25 degrees Celsius in New York."),
  ],
};
