import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["united states"],
  modelTurns: [calls([{ name: "get_capital_city", args: { country: "united states" } }]), says("The capital of the united states is Washington, D.C. (Note: This is the capital of the USA).")],
};
