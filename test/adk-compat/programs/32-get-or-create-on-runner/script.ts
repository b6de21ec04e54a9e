import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Where is order 1234?", "And order 5678?"],
  modelTurns: [
    calls([{ name: "lookup_order", args: { orderId: "1234" } }]),
    says("Order 1234 has shipped."),
    calls([{ name: "lookup_order", args: { orderId: "5678" } }]),
    says("Order 5678 is being packed."),
  ],
};
