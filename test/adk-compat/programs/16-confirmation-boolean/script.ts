import { says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Reimburse me $45"],
  modelTurns: [
    { content: { role: "model", parts: [{ text: "I am initiating the reimbursement request for 45. Please confirm it to proceed." }, { functionCall: { name: "reimburse", args: { amount: 45 } } }] } },
    says("Reimbursement of 45 has been successfully processed."),
  ],
};
