import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["What is the weather in Lisbon?", "And in Oslo?"],
  modelTurns: [
    calls([{ name: "get_weather", args: { city: "Lisbon" } }]),
    says("It is sunny in Lisbon."),
    calls([{ name: "get_weather", args: { city: "Oslo" } }]),
    says("It is sunny in Oslo."),
  ],
};
