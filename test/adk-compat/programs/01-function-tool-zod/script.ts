import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["What is the stock price of GOOG?"],
  modelTurns: [calls([{ name: "getStockPrice", args: { ticker: "GOOG" } }]), says("The current price of GOOG is $123.45.")],
};
