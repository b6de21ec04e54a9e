import type { Agent } from "../agents/invocation-context.js";
import type { AuthConfig } from "../events/event-actions.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { AgentNode, isAgent } from "./agent-node.js";
import { credentialGateSettings, FunctionNode, type FunctionNodeHandler } from "./function-node.js";
import { ParallelWorker } from "./parallel-worker.js";
import type { Tool } from "../tools/tool.js";
import { isPlainObject } from "../tools/tool-result.js";
import { isTool, ToolNode } from "./tool-node.js";
import { isBaseNode, nodeSettings, START, type BaseNode, type BaseNodeConfig } from "./node.js";

/** What an edge takes: a node, an agent, a tool, a function, or `"START"` (ADK's `NodeLike`). */
export type NodeLike = BaseNode | Agent | Tool | FunctionNodeHandler<never, unknown> | "START";

/** Options `node()` gives the node it builds (ADK's `NodeOptions`). */
export type NodeOptions = Partial<BaseNodeConfig> & { parallelWorker?: boolean; maxParallelWorkers?: number; authConfig?: AuthConfig };

const OVERRIDABLE = ["name", "description", "waitForOutput", "inputSchema", "outputSchema", "rerunOnResume", "retryConfig", "timeout", "stateSchema", "isolationScope"] as const;

/**
 * A node from anything an edge takes, with `options` applied (ADK's `node()`): a function becomes a
 * {@link FunctionNode} named by `options.name` or the function's own name, an agent an agent node, a tool a
 * `ToolNode`, and a node is itself, or a copy with the options when there are any.
 */
export function node<TInput = unknown, TOutput = unknown>(handler: FunctionNodeHandler<TInput, TOutput>, options?: NodeOptions): BaseNode;
export function node(nodeLike: NodeLike, options?: NodeOptions): BaseNode;
export function node(nodeLike: NodeLike, options: NodeOptions = {}): BaseNode {
  return buildNode(nodeLike, options);
}

/** {@link node}, for values the engine meets in edges and `runNode`. */
export function buildNode(nodeLike: unknown, options: NodeOptions = {}): BaseNode {
  if (options.parallelWorker === true) {
    if (nodeLike === "START" || nodeLike === START) throw new ConfigurationError("INVALID_WORKFLOW", "node(): START cannot run once per item; give parallelWorker a node, an agent, a tool or a function.");
    const { parallelWorker: _worker, maxParallelWorkers, ...inner } = options;
    return new ParallelWorker(buildNode(nodeLike, inner), { maxParallelWorkers });
  }
  return buildOne(nodeLike, options);
}

function buildOne(nodeLike: unknown, options: NodeOptions): BaseNode {
  if (options.maxParallelWorkers !== undefined && options.parallelWorker !== true) {
    throw new ConfigurationError("INVALID_WORKFLOW", "node(): maxParallelWorkers goes with parallelWorker: true (a worker running the node once per item of a list).");
  }
  // As in ADK, only a function node asks for a credential before it runs; toolsmith refuses it elsewhere, where ADK drops it.
  if (options.authConfig !== undefined && !(typeof nodeLike === "function" || nodeLike instanceof FunctionNode)) {
    throw new ConfigurationError("UNSUPPORTED_OPTION", "node()'s authConfig goes with a function (or a FunctionNode): that node asks for the credential before it runs. An agent's tools ask for theirs with ToolContext.requestCredential.");
  }
  if (nodeLike === "START" || nodeLike === START) return START;
  if (isBaseNode(nodeLike)) return withOverrides(nodeLike, options);
  if (typeof nodeLike === "function") {
    const name = options.name ?? nodeLike.name;
    if (!name) throw new ConfigurationError("INVALID_WORKFLOW", "node(): the function has no name. Pass { name } with it.");
    return new FunctionNode(name, nodeLike as FunctionNodeHandler, { ...nodeConfig(options), authConfig: options.authConfig });
  }
  if (isAgent(nodeLike)) return new AgentNode(nodeLike, { ...nodeConfig(options), name: options.name });
  if (isTool(nodeLike)) return new ToolNode(nodeLike, { ...nodeConfig(options), name: options.name });
  throw new ConfigurationError("INVALID_WORKFLOW", `${describe(nodeLike)} cannot be a node: give a node, an agent, a tool or a function.`);
}

/** Whether a value can be made a node. */
export function isNodeLike(value: unknown): value is NodeLike {
  return value === "START" || isBaseNode(value) || typeof value === "function" || isAgent(value) || isTool(value);
}

/** Whether a value is a routing map: a plain object, not a node or an agent. */
export const isRoutingMap: (value: unknown) => value is Record<string, unknown> = isPlainObject;

function withOverrides(original: BaseNode, options: NodeOptions): BaseNode {
  const overrides: Record<string, unknown> = {};
  for (const key of OVERRIDABLE) if (options[key] !== undefined) overrides[key] = options[key];
  // A function node given authConfig gets the credential gate, as ADK's copy takes the node's own authConfig.
  const gate = options.authConfig === undefined ? undefined : credentialGateSettings(options.name ?? original.name, options.authConfig, options.rerunOnResume);
  if (gate) overrides.rerunOnResume = gate.rerunOnResume;
  if (Object.keys(overrides).length === 0) return original;
  const { name, description, waitForOutput, inputSchema, outputSchema, rerunOnResume, retryConfig, timeout, stateSchema, isolationScope } = original;
  // As ADK: a copy of the node (same class, same fields) with the options, checked as a new node's are.
  const copy = Object.create(Object.getPrototypeOf(original) as object) as BaseNode;
  return Object.assign(copy, original, nodeSettings({ name, description, waitForOutput, inputSchema, outputSchema, rerunOnResume, retryConfig, timeout, stateSchema, isolationScope, ...overrides } as BaseNodeConfig), gate ? { authConfig: gate.authConfig } : {});
}

/** The node options of `node()`'s options (those of a wrapper it does not make are checked above). */
function nodeConfig(options: NodeOptions): Partial<BaseNodeConfig> {
  const { name: _name, parallelWorker: _parallelWorker, maxParallelWorkers: _maxParallelWorkers, authConfig: _authConfig, ...config } = options;
  return config;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return `A ${(value as object).constructor?.name ?? "object"}`;
  return `A ${typeof value}`;
}
