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

/** Options of a {@link FunctionNode} (ADK's `FunctionNodeConfig`, without `authConfig`). */
export type FunctionNodeConfig = Partial<Omit<BaseNodeConfig, "name">>;

/**
 * A node that wraps a function (ADK's `FunctionNode`). What the function returns or yields: an event goes out as
 * it is, a `Content` as an event's content, `null`/`undefined` as nothing, anything else as the node's output.
 * State written through `ctx.state` rides on the next event the node sends, or on an event of its own at the end.
 */
export class FunctionNode<TInput = unknown, TOutput = unknown> extends BaseNode<TInput, TOutput> {
  /** The wrapped function. */
  readonly handler: FunctionNodeHandler<TInput, TOutput>;
  /** Per run, the state changes an event already carried: a change goes out once. */
  private readonly sentState = new WeakMap<NodeContext, Map<string, unknown>>();

  constructor(name: string, handler: FunctionNodeHandler<TInput, TOutput>, config: FunctionNodeConfig = {}) {
    super({ ...config, name });
    this.handler = handler;
  }

  protected async *runImpl(ctx: NodeContext, input: TInput): AsyncGenerator<unknown, void, void> {
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

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && value !== undefined && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function";
}

function isGenerator(value: unknown): value is Generator<unknown> {
  return value !== null && value !== undefined && typeof (value as Iterable<unknown>)[Symbol.iterator] === "function" && typeof (value as Generator).next === "function";
}
