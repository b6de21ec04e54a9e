import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Where am I, and what time is it there?"],
  modelTurns: [
    calls([
      { name: "get_location", args: {} },
      { name: "get_local_time", args: { timezone: "device" } },
    ]),
    says("You are in Lisbon, where it is 10:30."),
  ],
};
