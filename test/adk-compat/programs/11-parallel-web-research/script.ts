import { says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Summarize recent sustainable tech advancements."],
  modelTurns: [
    says("Perovskite solar cells passed 33% efficiency.", "specializing in energy"),
    says("Solid-state batteries reached pilot production.", "specializing in transportation"),
    says("Direct air capture plants scaled to megatonnes.", "specializing in climate solutions"),
    says("## Summary of Recent Sustainable Technology Advancements\nEnergy, EVs and carbon capture all advanced.", "combining research findings"),
  ],
};
