import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["What is the weather and the time in New York?"],
  modelTurns: [
    calls([{ name: "get_weather", args: { city: "New York" } }, { name: "get_current_time", args: { city: "New York" } }]),
    says("It is sunny in New York, and the time is 8:00 AM."),
  ],
};
