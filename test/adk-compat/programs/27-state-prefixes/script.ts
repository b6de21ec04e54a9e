import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Switch me to the dark theme.", "Which theme do I use?"],
  modelTurns: [calls([{ name: "set_theme_preference", args: { theme: "dark" } }]), says("Done: you now use the dark theme."), says("You use the dark theme.")],
};
