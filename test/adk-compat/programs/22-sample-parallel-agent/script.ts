import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["What is the weather in Paris?"],
  modelTurns: [
    says("Paris: mild and cloudy, per the web.", "Google search query"),
    calls([{ name: "get_weather_temperature", args: { city: "Paris" } }], "retrieving the current weather temperature"),
    says("It is 15 degrees in Paris.", "retrieving the current weather temperature"),
  ],
};
