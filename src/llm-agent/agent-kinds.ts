import { LoopAgent } from "../agents/loop-agent.js";
import { ParallelAgent } from "../agents/parallel-agent.js";
import { SequentialAgent } from "../agents/sequential-agent.js";
import { LlmAgent } from "./llm-agent.js";
import { isOfKind } from "../platform/kind.js";

/** Whether a value is an {@link LlmAgent} (ADK's check), of this copy of toolsmith or another. */
export function isLlmAgent(value: unknown): value is LlmAgent {
  return isOfKind(value, LlmAgent, "LlmAgent");
}

/** Whether a value is a {@link SequentialAgent} (ADK's check). */
export function isSequentialAgent(value: unknown): value is SequentialAgent {
  return isOfKind(value, SequentialAgent, "SequentialAgent");
}

/** Whether a value is a {@link ParallelAgent} (ADK's check). */
export function isParallelAgent(value: unknown): value is ParallelAgent {
  return isOfKind(value, ParallelAgent, "ParallelAgent");
}

/** Whether a value is a {@link LoopAgent} (ADK's check). */
export function isLoopAgent(value: unknown): value is LoopAgent {
  return isOfKind(value, LoopAgent, "LoopAgent");
}
