import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["What is 7 + 5?", "What is 2 to the power of 10?"],
  modelTurns: [
    calls([{ name: "toolset_add_numbers", args: { a: 7, b: 5 } }]),
    says("7 + 5 = 12."),
    calls([{ name: "toolset_power", args: { base: 2, exponent: 10 } }]),
    says("2 to the power of 10 is 1024."),
  ],
};
