import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Roll a 10-sided die and check if the result is prime."],
  modelTurns: [
    calls([{ name: "roll_dice", args: { sides: 10 } }], "rolling dice"),
    says("I rolled a 6.", "rolling dice"),
    calls([{ name: "check_prime", args: { numbers: [6] } }], "checking whether numbers are prime"),
    says("6 is not prime.", "checking whether numbers are prime"),
  ],
};
