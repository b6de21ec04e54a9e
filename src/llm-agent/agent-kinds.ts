import { LoopAgent } from "../agents/loop-agent.js";
import { ParallelAgent } from "../agents/parallel-agent.js";
import { SequentialAgent } from "../agents/sequential-agent.js";
import { LlmAgent } from "./llm-agent.js";

/** Whether a value is an {@link LlmAgent} (ADK's check). */
export function isLlmAgent(value: unknown): value is LlmAgent {
  return value instanceof LlmAgent;
}

/** Whether a value is a {@link SequentialAgent} (ADK's check). */
export function isSequentialAgent(value: unknown): value is SequentialAgent {
  return value instanceof SequentialAgent;
}

/** Whether a value is a {@link ParallelAgent} (ADK's check). */
export function isParallelAgent(value: unknown): value is ParallelAgent {
  return value instanceof ParallelAgent;
}

/** Whether a value is a {@link LoopAgent} (ADK's check). */
export function isLoopAgent(value: unknown): value is LoopAgent {
  return value instanceof LoopAgent;
}
