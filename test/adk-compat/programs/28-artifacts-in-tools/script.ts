import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Save the Q3 report: revenue up 4%.", "Correct it: revenue up 5%.", "Read me the Q3 report, and the Q4 one."],
  modelTurns: [
    calls([{ name: "save_report", args: { filename: "q3.txt", text: "Revenue up 4%." } }]),
    says("Saved q3.txt."),
    calls([{ name: "save_report", args: { filename: "q3.txt", text: "Revenue up 5%." } }]),
    says("Saved a new version of q3.txt."),
    calls([{ name: "read_report", args: { filename: "q3.txt" } }, { name: "read_report", args: { filename: "q4.txt" } }]),
    says("Q3: revenue up 5%. There is no Q4 report."),
  ],
};
