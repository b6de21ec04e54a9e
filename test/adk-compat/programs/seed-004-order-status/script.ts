import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Where is my order 12345?", "And order 999?"],
  modelTurns: [
    calls([{ name: "lookup_order_status", args: { order_id: "12345" } }]),
    says("Your order 12345 has shipped; the tracking number is 1Z9...."),
    calls([{ name: "lookup_order_status", args: { order_id: "999" } }]),
    says("Order ID 999 not found. Please check the order ID."),
  ],
};
