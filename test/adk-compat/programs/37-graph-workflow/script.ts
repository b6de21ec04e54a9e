import { says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["I want my money back for order A-17", "Where is your nearest shop?"],
  modelTurns: [says("Order A-17 arrived 12 days ago, within the 30 days, so you can have a refund.")],
};
