import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Please reimburse 50$ for meals", "Please reimburse 200$ for meals", "(the approved ticket, as a JSON function response)"],
  modelTurns: [
    calls([{ name: "reimburse", args: { purpose: "meals", amount: 50 } }]),
    says("The reimbursement of $50 for meals is done."),
    calls([{ name: "ask_for_approval", args: { purpose: "meals", amount: 200 } }]),
    says("Your request for $200 is waiting for approval."),
    calls([{ name: "reimburse", args: { purpose: "meals", amount: 200 } }]),
    says("Approved: $200 for meals is reimbursed."),
  ],
};
