import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["What is the capital of Canada?", "What is the capital of BLOCK?"],
  modelTurns: [calls([{ name: "get_capital_city", args: { country: "Canada" } }]), says("The capital is Paris."), calls([{ name: "get_capital_city", args: { country: "BLOCK" } }]), says("The tool was blocked.")],
};
