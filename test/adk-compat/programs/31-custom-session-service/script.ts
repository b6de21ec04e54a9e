import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["What about order 77?"],
  modelTurns: [calls([{ name: "note_order", args: { orderId: "77" } }]), says("Order 77 is on its way.")],
};
