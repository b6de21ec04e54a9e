import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Watch the temperature; the threshold is 30."],
  modelTurns: [
    ...Array.from({ length: 5 }, () => [
      calls([{ name: "get_temperature" }]),
      calls([{ name: "notify_user", args: { temperature: 35, threshold: 30 } }]),
      says("The temperature 35 is above 30; I notified you."),
    ]).flat(),
  ],
};
