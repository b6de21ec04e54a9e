import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { AuthConfig } from "../events/event-actions.js";
import { nodeCredentialGate } from "./node-credential.js";
import { createEvent, type Event } from "../events/event.js";
import { BaseNode, isContentValue, type BaseNodeConfig, type NodeContext } from "./node.js";

/** What a function node's handler may return or yield (ADK's `FunctionNodeResult`). */
export type FunctionNodeResult<TOutput> = TOutput | Event | null | undefined | void;

/**
 * The function a {@link FunctionNode} wraps (ADK's `FunctionNodeHandler`): it gets the node's context and input and
 * returns a value (or a promise of one), or yields values from a generator, sync or async.
 */
export type FunctionNodeHandler<TInput = unknown, TOutput = unknown> = (
  ctx: NodeContext,
  input: TInput,
) => FunctionNodeResult<TOutput> | Promise<FunctionNodeResult<TOutput>> | Generator<FunctionNodeResult<TOutput>, void, unknown> | AsyncGenerator<FunctionNodeResult<TOutput>, void, unknown>;

/** Options of a {@link FunctionNode} (ADK's `FunctionNodeConfig`). */
export type FunctionNodeConfig = Partial<Omit<BaseNodeConfig, "name">> & {
  /**
   * A credential the node needs before it runs (ADK's): without one, the node asks the client with an
   * `adk_request_credential` call and waits; the client's answer resumes the run, and the node runs with the
   * credential in `ctx.state` under `temp:<credentialKey>`. The answer is saved with the runner's credential
   * service, so later runs find it without asking. Such a node always runs again when resumed.
   */
  authConfig?: AuthConfig;
};

/**
 * A node that wraps a function (ADK's `FunctionNode`). What the function returns or yields: an event goes out as
 * it is, a `Content` as an event's content, `null`/`undefined` as nothing, anything else as the node's output.
 * State written through `ctx.state` rides on the next event the node sends, or on an event of its own at the end.
 */
export class FunctionNode<TInput = unknown, TOutput = unknown> extends BaseNode<TInput, TOutput> {
  /** The wrapped function. */
  readonly handler: FunctionNodeHandler<TInput, TOutput>;
  /** {@link FunctionNodeConfig.authConfig}. */
  readonly authConfig?: AuthConfig;
  /** Per run, the state changes an event already carried: a change goes out once. */
  private readonly sentState = new WeakMap<NodeContext, Map<string, unknown>>();

  constructor(name: string, handler: FunctionNodeHandler<TInput, TOutput>, config: FunctionNodeConfig = {}) {
    const { authConfig, ...nodeConfig } = config;
    super({ ...nodeConfig, name });
    this.handler = handler;
    if (authConfig !== undefined) Object.assign(this, credentialGateSettings(name, authConfig, nodeConfig.rerunOnResume));
  }

  protected async *runImpl(ctx: NodeContext, input: TInput): AsyncGenerator<unknown, void, void> {
    if (this.authConfig) {
      const asking = await nodeCredentialGate(ctx, this.authConfig, this.name);
      if (asking) {
        yield* asking;
        return;
      }
    }
    const result = this.handler(ctx, input);
    if (isAsyncIterable(result)) yield* result;
    else if (isGenerator(result)) yield* result;
    else yield await result;
    // The state written after the last event still goes out (toEvent sends it with no content).
    yield undefined;
  }

  protected override toEvent(ctx: NodeContext, data: unknown): Event | null {
    const stateDelta = this.#unsentState(ctx);
    if (data === null || data === undefined) {
      return stateDelta ? createEvent({ author: this.name, invocationId: ctx.invocationId, branch: ctx.branch, actions: { stateDelta } }) : null;
    }
    // A Content is the event's content, not an output (the base node would take it as one).
    if (isContentValue(data)) return createEvent({ author: this.name, invocationId: ctx.invocationId, branch: ctx.branch, content: data, actions: stateDelta ? { stateDelta } : undefined });
    // An event as it is, or the output's event, as any node makes them; the state written so far rides on it.
    const event = super.toEvent(ctx, data)!;
    if (stateDelta) event.actions.stateDelta = { ...stateDelta, ...event.actions.stateDelta };
    this.#markSent(ctx, event.actions.stateDelta);
    return event;
  }

  /** The changes written through `ctx.state` since the last event carried them, or nothing. */
  #unsentState(ctx: NodeContext): Record<string, unknown> | undefined {
    let sent = this.sentState.get(ctx);
    if (!sent) this.sentState.set(ctx, (sent = new Map()));
    let delta: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(ctx.actions.stateDelta)) {
      if (sent.has(key) && sent.get(key) === value) continue;
      (delta ??= {})[key] = value;
      sent.set(key, value);
    }
    return delta;
  }

  /** An event's own state changes become the node's view too, and count as sent. */
  #markSent(ctx: NodeContext, delta: Record<string, unknown>): void {
    const sent = this.sentState.get(ctx)!;
    for (const [key, value] of Object.entries(delta)) {
      ctx.actions.stateDelta[key] = value;
      sent.set(key, value);
    }
  }
}

/**
 * The settings of a function node with a credential gate: its auth config, checked, and `rerunOnResume` (a node that
 * asked runs once the client answered). Refuses (`UNSUPPORTED_OPTION`) an auth config with no scheme, and
 * `rerunOnResume: false` beside it.
 */
export function credentialGateSettings(name: string, authConfig: AuthConfig, rerunOnResume: boolean | undefined): { authConfig: AuthConfig; rerunOnResume: true } {
  if (typeof authConfig !== "object" || authConfig === null || typeof authConfig.authScheme?.type !== "string") {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `Node "${name}": authConfig must be an auth config with an authScheme (such as { authScheme: { type: "apiKey", in: "header", name: "X-Api-Key" }, credentialKey: "weather" }).`);
  }
  if (rerunOnResume === false) {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `Node "${name}": authConfig cannot go with rerunOnResume: false. A node that asks for a credential runs once the client answered; leave rerunOnResume out.`);
  }
  return { authConfig, rerunOnResume: true };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && value !== undefined && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function";
}

function isGenerator(value: unknown): value is Generator<unknown> {
  return value !== null && value !== undefined && typeof (value as Iterable<unknown>)[Symbol.iterator] === "function" && typeof (value as Generator).next === "function";
}
