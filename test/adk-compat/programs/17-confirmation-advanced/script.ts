import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["I would like 3 days off."],
  modelTurns: [
    calls([{ name: "request_time_off", args: { days: 3 } }]),
    says("Your manager approved 2 of the 3 days."),
  ],
};
