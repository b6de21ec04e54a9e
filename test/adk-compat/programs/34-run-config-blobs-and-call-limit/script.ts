import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Here are my receipts.", "Look up order 1234, then order 5678."],
  modelTurns: [
    says("I have both receipts."),
    calls([{ name: "lookup_order", args: { orderId: "1234" } }]),
    calls([{ name: "lookup_order", args: { orderId: "5678" } }]),
    says("Both orders have shipped."),
  ],
};
