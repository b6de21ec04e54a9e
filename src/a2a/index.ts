/**
 * A2A (the agent-to-agent protocol, version 0.3) for toolsmith, as ADK's `@google/adk/a2a`:
 * {@link RemoteA2AAgent} runs an agent served elsewhere as part of a toolsmith agent tree, and {@link toA2a}
 * serves a toolsmith agent to A2A clients (ADK's, toolsmith's, any other). Needs the optional peers
 * `@a2a-js/sdk` and, to serve, `express`.
 *
 * @packageDocumentation
 */
export { AGENT_CARD_PATH } from "./agent-card-path.js";
export { RemoteA2AAgent, type RemoteA2AAgentConfig, type BeforeA2ARequestCallback, type AfterA2ARequestCallback } from "./remote-a2a-agent.js";
export type { A2AStreamEventData } from "./task-events.js";
export { getA2AAgentCard, buildAgentSkills, resolveAgentCard } from "./agent-card.js";
export {
  A2AAgentExecutor,
  type AgentExecutorConfig,
  type A2ARunConfig,
  type RunnerOrRunnerConfig,
  type ExecutorContext,
  type BeforeExecuteCallback,
  type AfterEventCallback,
  type AfterExecuteCallback,
} from "./agent-executor.js";
export { toA2a, bearerTokenUserBuilder, type ToA2aOptions, type A2aUserBuilder } from "./to-a2a.js";
export { A2AProtocolError } from "./a2a-errors.js";
