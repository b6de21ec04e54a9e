/**
 * toolsmith: an agent development kit for TypeScript whose heart is the tool
 * system. This entry holds the core; model adapters, persistent services, MCP
 * and the server live behind subpath exports so they load only when used.
 *
 * @module toolsmith
 */

// Tools
export {
  FunctionTool,
  LongRunningFunctionTool,
  type FunctionToolOptions,
  type ToolArguments,
  type ToolOptions,
  type ToolInputParameters,
  type ToolExecuteArgument,
  type ToolExecuteFunction,
  type RequireConfirmation,
} from "./tools/function-tool.js";
export { AgentTool, type AgentToolOptions, type AgentToolConfig } from "./tools/agent-tool.js";
export { exitLoop } from "./tools/exit-loop-tool.js";
export { LoadMemoryTool, PreloadMemoryTool, ExitLoopTool, LOAD_MEMORY, PRELOAD_MEMORY, EXIT_LOOP } from "./tools/memory-and-loop-tools.js";
export { FinishTaskTool, FINISH_TASK_TOOL_NAME, FINISH_TASK_SUCCESS_RESULT } from "./tools/finish-task-tool.js";
export { LoadArtifactsTool, LOAD_ARTIFACTS } from "./tools/load-artifacts-tool.js";
export { getUserChoiceTool } from "./tools/user-choice-tool.js";
export { requestInputTool, REQUEST_INPUT_FUNCTION_CALL_NAME } from "./tools/request-input-tool.js";
export { getUserInputRequests, getPendingUserInputRequests, requiresUserInput, type UserInputRequest, type UserInputKind } from "./pause/user-input-requests.js";
export { LOAD_WEB_PAGE, loadWebPage, createLoadWebPageTool, type LoadWebPageOptions } from "./tools/load-web-page.js";
export { ExampleTool, BaseExampleProvider, isBaseExampleProvider, type Example } from "./tools/example-tool.js";
export { GeminiBuiltInTool, type GeminiBuiltInToolKey } from "./tools/gemini/gemini-built-in-tool.js";
export { GOOGLE_SEARCH, GoogleSearchTool } from "./tools/gemini/google-search-tool.js";
export { URL_CONTEXT, UrlContextTool } from "./tools/gemini/url-context-tool.js";
export { GOOGLE_MAPS_GROUNDING, GoogleMapsGroundingTool } from "./tools/gemini/google-maps-grounding-tool.js";
export { BuiltInCodeExecutor } from "./tools/gemini/built-in-code-executor.js";
export { BaseCodeExecutor, CodeExecutionLanguage, FileContentEncoding } from "./tools/code-executors/base-code-executor.js";
// ADK names a code executor's file `File` and its answer `CodeExecutionResult`; genai's part field of that name is `GenaiCodeExecutionResult` here.
export type { CodeExecutionFile, CodeExecutionFile as File, CodeExecutionInput, CodeExecutionResult, ExecuteCodeParams } from "./tools/code-executors/base-code-executor.js";
export { UnsafeLocalCodeExecutor, type UnsafeLocalCodeExecutorOptions } from "./tools/code-executors/unsafe-local-code-executor.js";
export { BaseEnvironment, type ExecutionResult } from "./environment/base-environment.js";
export { LocalEnvironment, type LocalEnvironmentOptions } from "./environment/local-environment.js";
export { TRANSFER_TOOL_NAME } from "./llm-agent/transfer-to-agent-tool.js";
export type { Tool, Toolset, ToolUnion, FunctionDeclaration, JsonSchema, ArgumentIssue, ArgumentsCheck } from "./tools/tool.js";
export { isToolset } from "./tools/tool.js";
export { BaseTool, isBaseTool, type BaseToolParams, type RunAsyncToolRequest, type ToolProcessLlmRequest } from "./tools/base-tool.js";
export { BaseToolset, isBaseToolset, type ToolPredicate } from "./tools/base-toolset.js";
export { isFunctionTool, isAgentTool } from "./tools/tool-kinds.js";
export { ToolContext, type ConfirmationRequest } from "./tools/tool-context.js";
export { filterToolset, prefixToolset, renameTool, type ToolFilter } from "./tools/toolset-wrappers.js";
export { normalizeToolResult, toolErrorResult } from "./tools/tool-result.js";
export type { ToolParameters } from "./tools/tool-parameters.js";

// Agents
export { LlmAgent, type LlmAgentOptions, type InstructionProvider } from "./llm-agent/llm-agent.js";
export { type Agent as AgentLike, findAgent } from "./agents/agent.js";

// ADK's other name for LlmAgent.
export { LlmAgent as Agent } from "./llm-agent/llm-agent.js";
export { BaseAgent, isBaseAgent, type BaseAgentConfig, type AgentCallback } from "./agents/base-agent.js";
export { SequentialAgent } from "./agents/sequential-agent.js";
export { ParallelAgent } from "./agents/parallel-agent.js";
export { LoopAgent, type LoopAgentOptions } from "./agents/loop-agent.js";
export { RoutedAgent, isRoutedAgent, type AgentRouter, type RoutedAgentConfig } from "./agents/routed-agent.js";
export { isLlmAgent, isSequentialAgent, isParallelAgent, isLoopAgent } from "./llm-agent/agent-kinds.js";
// ADK 2's graph workflows: nodes joined by edges, run by the runner like an agent.
export { Workflow, isWorkflow, asRunnableRoot, isRunnableRoot, type WorkflowConfig, type DynamicEntry } from "./workflow/workflow.js";
export { BaseNode, WorkflowNode, NodeContext, START, NodeSchemaValidationError, isNodeSchemaValidationError, NodeReportedError, isNodeReportedError, type BaseNodeConfig, type NodeSchema, type RunNodeOptions, type NodeResult } from "./workflow/node.js";
export { StateSchemaError, isStateSchemaError } from "./workflow/state-schema.js";
export { node, type NodeLike, type NodeOptions } from "./workflow/build-node.js";
export { FunctionNode, type FunctionNodeConfig, type FunctionNodeHandler, type FunctionNodeResult } from "./workflow/function-node.js";
export { JoinNode } from "./workflow/join-node.js";
export { ToolNode, type ToolNodeConfig } from "./workflow/tool-node.js";
export { NodeTool, isNodeTool } from "./workflow/node-tool.js";
export { ParallelWorker, type ParallelWorkerConfig } from "./workflow/parallel-worker.js";
export { RequestInput, isRequestInput, type RequestInputParams } from "./workflow/request-input.js";
export { NodeTimeoutError, isNodeTimeoutError, normalizeRetryExceptions, prepareRetryConfig, type ErrorClass, type PreparedRetryConfig, type RetryConfig } from "./workflow/retry.js";
export { createNodeErrorEvent, isNodeErrorEvent, type CreateNodeErrorEventParams, type NodeErrorEvent } from "./workflow/node-error-event.js";
export { DEFAULT_ROUTE, Edge, Graph, type ChainElement, type EdgeItem, type RoutingMap } from "./workflow/graph.js";
export { commonPrefixOf, createSubBranch } from "./workflow/run-node.js";
export type { RouteValue, NodeInfo } from "./events/event.js";

// Steps an ADK program adds to an LLM agent's request and response (agent.requestProcessors, agent.responseProcessors).
export { BaseLlmRequestProcessor, BaseLlmResponseProcessor } from "./llm-agent/llm-processors.js";

// Context compaction: summaries in place of older history, ADK's names.
export {
  TokenBasedContextCompactor,
  type BaseContextCompactor,
  type TokenBasedContextCompactorOptions,
} from "./llm-agent/compaction/token-based-context-compactor.js";
export { TruncatingContextCompactor, type TruncatingContextCompactorOptions } from "./llm-agent/compaction/truncating-context-compactor.js";
export { TrajectoryThoughtPruningCompactor, type TrajectoryThoughtPruningCompactorOptions } from "./llm-agent/compaction/trajectory-thought-pruning-compactor.js";
export { AgentControlledContextCompactor, type AgentControlledContextCompactorOptions } from "./llm-agent/compaction/agent-controlled-context-compactor.js";
export { AnchoredContextCompactor, type AnchoredContextCompactorOptions } from "./llm-agent/compaction/anchored-context-compactor.js";
export { ConsolidateContextTool } from "./tools/consolidate-context-tool.js";
export { LlmSummarizer, CompactionError, type BaseSummarizer, type LlmSummarizerOptions, type SummarizeOptions } from "./llm-agent/compaction/llm-summarizer.js";
export { estimateContentTokens } from "./llm-agent/compaction/estimate-tokens.js";
export { isCompactedEvent, isScratchpadEvent, createCompactedEvent, type CompactedEvent, type CompactedEventInit } from "./events/compacted-event.js";
export { StreamingMode } from "./agents/streaming-mode.js";
export type { WorkflowAgentOptions } from "./agents/workflow-agent.js";
export { ReadonlyContext } from "./agents/readonly-context.js";
export { CallbackContext } from "./agents/callback-context.js";
export { Context } from "./agents/context.js";
export { InvocationContext, requireAgent } from "./agents/invocation-context.js";
export type { InvocationContextParams, RunConfig } from "./agents/invocation-context.js";
export type { LiveRunConfig } from "./agents/run-config.js";
export { LiveRequestQueue, type LiveRequest } from "./agents/live-request-queue.js";
export { ActiveStreamingTool, type ActiveStreamingToolParams } from "./agents/active-streaming-tool.js";
export { stopStreamingTool } from "./tools/stop-streaming-tool.js";
export type {
  BeforeModelCallback,
  AfterModelCallback,
  OnModelErrorCallback,
  BeforeToolCallback,
  AfterToolCallback,
  OnToolErrorCallback,
  OneOrMany,
} from "./llm-agent/callbacks.js";

// Human in the loop and credentials
export {
  REQUEST_CONFIRMATION,
  REQUEST_CREDENTIAL,
  REQUEST_CONFIRMATION as REQUEST_CONFIRMATION_FUNCTION_CALL_NAME,
  REQUEST_CREDENTIAL as REQUEST_CREDENTIAL_FUNCTION_CALL_NAME,
  ClientResponseError,
  originalCallFrom,
} from "./pause/client-requests.js";
export { IntentMismatchError, isIntentMismatchError, type IntentMismatchReason } from "./pause/intent-mismatch-error.js";
export { CredentialCipher, CredentialKeyError, CREDENTIAL_KEY_VARIABLE, PREVIOUS_CREDENTIAL_KEYS_VARIABLE, type CredentialCipherOptions, type CredentialOwner } from "./auth/credential-encryption.js";
export {
  InMemoryCredentialService,
  StateCredentialService,
  type CredentialService,
  type CredentialRequest,
  type AuthCredential,
} from "./auth/credential-service.js";
export { SessionStateCredentialService } from "./auth/session-state-credential-service.js";
export { OAuth2Error, CredentialExchangeError, type CredentialExchangeErrorCode, type AuthorizationCodeFlow } from "./auth/oauth2.js";

// Plugins
export { BasePlugin, ContextCompactionTrigger } from "./plugins/base-plugin.js";
export { PluginManager, PluginError } from "./plugins/plugin-manager.js";
export { LoggingPlugin, type LogLine } from "./plugins/logging-plugin.js";
export { GlobalInstructionPlugin } from "./plugins/global-instruction-plugin.js";
export {
  SecurityPlugin,
  InMemoryPolicyEngine,
  PolicyOutcome,
  getAskUserConfirmationFunctionCalls,
  type BasePolicyEngine,
  type PolicyCheckResult,
  type ToolCallPolicyContext,
} from "./plugins/security-plugin.js";

// Runner
export { Runner, InMemoryRunner, isRoutableLlmAgent, determineAgentForResumption, type RunnerOptions, type RunnerServiceOptions, type RunAsyncRequest, type RunEphemeralRequest, type RunLiveRequest } from "./runner/runner.js";
export { isRunner } from "./runner/runner-kind.js";
export { App, isApp, validateAppName, createResumabilityConfig, type AppOptions, type ResumabilityConfig } from "./runner/app.js";

// Events and content
export type { Content, Part, FunctionCall, FunctionResponse, Blob, FileData, ExecutableCode, CodeExecutionResult as GenaiCodeExecutionResult } from "./content/content.js";
export { Language, Outcome } from "./content/content.js";
export { getFunctionCalls, getFunctionResponses, getText, stringifyContent, endsWithCodeExecutionResult as hasTrailingCodeExecutionResult } from "./content/content.js";
export { createEvent, isFinalResponse, type Event, type EventInit } from "./events/event.js";
export { createEventActions, ToolConfirmation, AuthCredentialTypes, type EventActions, type AuthConfig } from "./events/event-actions.js";

// Models
export type { Model, GenerateContentOptions } from "./models/model.js";
export { BaseLlm, isBaseLlm } from "./models/base-llm.js";
export { RoutedLlm, type LlmRouter } from "./models/routed-llm.js";
export { findEventByFunctionCallId, findMatchingFunctionCall, findEventByLastFunctionResponseId } from "./events/find-events.js";
export { LLMRegistry, type BaseLlmClass } from "./models/llm-registry.js";
export { appendInstructions, type LlmRequest, type GenerateContentConfig } from "./models/llm-request.js";
export { LiveConnectionClosedError, type BaseLlmConnection, type LiveConnectConfig } from "./models/live-connection.js";
export type { LlmResponse, Transcription, LiveSessionResumptionUpdate, LiveGoAway, UsageMetadata, GroundingMetadata, GroundingChunk, GroundingChunkWeb, GroundingChunkRetrievedContext, GroundingSupport, Segment, SearchEntryPoint } from "./models/llm-response.js";
export { registerModelProvider, type ModelFactory } from "./models/model-registry.js";
export { ModelProviderError, type ModelProviderErrorDetails } from "./models/model-provider-error.js";
export type { RetryOptions } from "./models/retry-policy.js";

// Sessions
export { createSession, type Session } from "./sessions/session.js";
export type {
  SessionService,
  SessionKey,
  DeleteSessionRequest,
  CreateSessionRequest,
  GetSessionRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  AppendEventRequest,
} from "./sessions/session-service.js";
export { InMemorySessionService, type InMemorySessionServiceOptions } from "./sessions/in-memory-session-service.js";
export { BaseSessionService } from "./sessions/base-session-service.js";
export { getOrCreateSessionIn } from "./sessions/store-requests.js";
export { State, type ReadonlyState } from "./sessions/state.js";
export { APP_PREFIX, USER_PREFIX, TEMP_PREFIX } from "./sessions/state-prefixes.js";

// Artifacts and memory
export type { ArtifactService, ArtifactKey, ArtifactVersion, SaveArtifactRequest, LoadArtifactRequest, ListArtifactsRequest } from "./artifacts/artifact-service.js";
export { InMemoryArtifactService } from "./artifacts/in-memory-artifact-service.js";
export { InvalidArtifactNameError } from "./artifacts/artifact-name.js";
export type { MemoryService, MemoryEntry, SearchMemoryRequest, SearchMemoryResponse } from "./memory/memory-service.js";
export { InMemoryMemoryService } from "./memory/in-memory-memory-service.js";

// Choosing a service by URI (drivers are imported only when their scheme is used)
export { createSessionService, type ClosableService } from "./services/create-session-service.js";
export { DatabaseSessionService, getSessionServiceFromUri } from "./services/database-session-service.js";
export { getArtifactServiceFromUri } from "./services/artifact-service-from-uri.js";
export { createArtifactService, DEFAULT_ARTIFACT_URI } from "./services/create-artifact-service.js";
export { createMemoryService } from "./services/create-memory-service.js";
export { createCredentialService } from "./services/create-credential-service.js";
export { DEFAULT_DATABASE_PATH, DEFAULT_DATABASE_URI } from "./services/service-uri.js";
export { defaultStorage, type DefaultStorage } from "./services/default-storage.js";

// Errors
export {
  ToolsmithError,
  type ToolsmithErrorCode,
  isToolsmithError,
  ConfigurationError,
  InvalidArgumentsError,
  SessionNotFoundError,
  StaleSessionError,
  SharedStateConflictError,
  LlmCallsLimitExceededError,
} from "./errors/toolsmith-error.js";
export { LogLevel, getLogger, setLogLevel, setLogger, type Logger } from "./logging/logger.js";
export {
  EventType,
  toStructuredEvents,
  hasThoughts,
  pruneThoughts,
  type StructuredEvent,
  type ThoughtEvent,
  type ContentEvent,
  type ToolCallEvent,
  type ToolResultEvent,
  type CallCodeEvent,
  type CodeResultEvent,
  type ErrorEvent,
  type ActivityEvent,
  type ToolConfirmationEvent,
  type FinishedEvent,
} from "./events/structured-events.js";
export { StateValueError } from "./sessions/json-value.js";
export { StorageError } from "./errors/storage-error.js";

/** toolsmith's version (ADK exports its own under this name). */
export { TOOLSMITH_VERSION as version } from "./platform/package-root.js";

// ADK utility names (helper session).
export { GoogleLLMVariant } from "./models/gemini/google-llm-variant.js";
export { isGemini2OrAbove, isGemini3xFlashLive } from "./models/model-name.js";
export { generateClientFunctionCallId, populateClientFunctionCallId } from "./events/client-function-call-id.js";
export { trimTempDeltaState, trimTempState } from "./sessions/trim-temp-state.js";
export { mergeStates } from "./sessions/merge-states.js";
export { zodObjectToSchema } from "./tools/zod-object-to-schema.js";
export { AsyncQueue } from "./platform/async-queue.js";
export { Task, type TaskExecutable } from "./platform/task.js";
export { OAuthGrantType } from "./auth/oauth-grant-type.js";
export { cleanName } from "./agents/clean-name.js";
export { isGoogleApi } from "./auth/is-google-api.js";
export { BranchPath } from "./workflow/branch-path.js";
