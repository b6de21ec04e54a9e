import { ConfigurationError, ToolsmithError } from "../errors/toolsmith-error.js";

/** An error class a retry names: its `name` is what is matched. */
export type ErrorClass = new (...args: never[]) => Error;

/**
 * When a node that failed runs again (ADK's `RetryConfig`): up to `maxAttempts` attempts in all (5), waiting
 * `initialDelay` seconds (1), times `backoffFactor` (2) after each, at most `maxDelay` (60), spread by `jitter`
 * (1: up to the delay either way). With `exceptions`, only errors of those classes or names are retried. Each attempt
 * runs the node afresh: what an attempt sent stays sent (and stored), so give a retry only to a node whose work may
 * run twice.
 */
export interface RetryConfig {
  maxAttempts?: number;
  initialDelay?: number;
  maxDelay?: number;
  backoffFactor?: number;
  jitter?: number;
  exceptions?: Array<string | ErrorClass> | null;
}

/** A {@link RetryConfig} with its exception classes read as names (ADK's `PreparedRetryConfig`). */
export interface PreparedRetryConfig {
  readonly maxAttempts?: number;
  readonly initialDelay?: number;
  readonly maxDelay?: number;
  readonly backoffFactor?: number;
  readonly jitter?: number;
  readonly exceptions?: readonly string[];
}

/** Error classes and names as names (ADK's `normalizeRetryExceptions`); `undefined` retries any error. */
export function normalizeRetryExceptions(exceptions?: Array<string | ErrorClass> | null): string[] | undefined {
  if (exceptions === undefined || exceptions === null) return undefined;
  return exceptions.map((item) => {
    if (typeof item === "string") return item;
    if (typeof item === "function" && item.name) return item.name;
    throw new ConfigurationError("INVALID_WORKFLOW", `retryConfig.exceptions holds ${String(item)}: give error classes or their names.`);
  });
}

/** A retry configuration checked and made ready (ADK's `prepareRetryConfig`). */
export function prepareRetryConfig(config: RetryConfig): PreparedRetryConfig {
  for (const key of ["maxAttempts", "initialDelay", "maxDelay", "backoffFactor", "jitter"] as const) {
    const value = config[key];
    if (value !== undefined && !(typeof value === "number" && value >= 0 && !Number.isNaN(value))) {
      throw new ConfigurationError("INVALID_WORKFLOW", `retryConfig.${key} must be a number of 0 or more, not ${JSON.stringify(value)}.`);
    }
  }
  return { maxAttempts: config.maxAttempts, initialDelay: config.initialDelay, maxDelay: config.maxDelay, backoffFactor: config.backoffFactor, jitter: config.jitter, exceptions: normalizeRetryExceptions(config.exceptions) };
}

/** Whether a node that failed on attempt `attempt` runs again. */
export function shouldRetry(error: unknown, config: PreparedRetryConfig, attempt: number): boolean {
  if (attempt >= (config.maxAttempts ?? 5)) return false;
  return config.exceptions === undefined || errorNames(error).some((name) => config.exceptions!.includes(name));
}

/** How long to wait, in seconds, before the attempt after `attempt` (ADK's backoff with jitter). */
export function retryDelaySeconds(config: PreparedRetryConfig, attempt: number, random: () => number = Math.random): number {
  const maxDelay = config.maxDelay ?? 60;
  const jitter = config.jitter ?? 1;
  let delay = (config.initialDelay ?? 1) * (config.backoffFactor ?? 2) ** Math.max(0, attempt - 1);
  if (jitter > 0) {
    delay = Math.min(delay, maxDelay / (1 + jitter));
    const span = jitter * delay;
    delay = Math.max(0, delay - span + random() * 2 * span);
  }
  return Math.min(delay, maxDelay);
}

/** An error's class name and its assigned `name`, once each (what `exceptions` is matched against). */
export function errorNames(error: unknown): string[] {
  if (error instanceof Error) return [...new Set([error.constructor?.name, error.name].filter((name): name is string => !!name))];
  if (typeof error === "object" && error !== null) return [error.constructor.name];
  return [typeof error];
}

/** A node that ran past its `timeout` (ADK's `NodeTimeoutError`); code `NODE_TIMEOUT`. */
export class NodeTimeoutError extends ToolsmithError {
  constructor(
    readonly nodeName: string,
    readonly timeout: number,
  ) {
    super("NODE_TIMEOUT", `Node '${nodeName}' timed out after ${timeout} seconds.`);
  }
}

/** Whether an error is a {@link NodeTimeoutError}. */
export function isNodeTimeoutError(error: unknown): error is NodeTimeoutError {
  return error instanceof Error && error.name === "NodeTimeoutError";
}
