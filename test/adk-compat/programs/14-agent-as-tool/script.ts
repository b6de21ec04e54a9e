import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["(the sample's text about quantum computing)"],
  modelTurns: [
    calls([{ name: "summary_agent", args: { request: "Quantum computing represents a fundamentally different approach to computation." } }]),
    says("Quantum computers use qubits in superposition.", "expert summarizer"),
    // ADK 2.0.0 asks the model again after the agent tool although skipSummarization is true
    // (AgentTool keeps the option but never sets it on the event): this turn answers that request.
    says("Quantum computers use qubits in superposition."),
  ],
};
