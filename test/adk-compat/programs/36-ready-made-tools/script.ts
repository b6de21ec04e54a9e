import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["What does the metadata page say? Then help me pick a plan."],
  modelTurns: [
    calls([{ name: "load_web_page", args: { url: "http://169.254.169.254/latest/meta-data/" } }]),
    calls([{ name: "get_user_choice", args: { options: ["basic", "pro"] } }]),
    says("I could not read that page. You picked the pro plan."),
  ],
};
