import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolContext } from "../tools/tool-context.js";

/** A server's request for input from the person, made during a call, and how to answer it. */
export interface ElicitationAsked {
  params: ElicitRequest["params"];
  answer(result: ElicitResult): void;
}

/** The reason a call is aborted with when it was quiet for longer than its timeout. */
export class CallTimedOut extends Error {}

/**
 * One `tools/call` on its way to the server. It has its own abort controller,
 * so the call can outlive the run that paused on it; while it belongs to a run
 * (`attach`) the run's cancellation cancels it, the server's log messages
 * stream to that run and the inactivity clock runs; while a person is asked
 * (`detach`) the clock stops.
 */
export class CallInFlight {
  readonly controller = new AbortController();
  /** The key of the MCP session the call was sent on (see `McpSession.key`). */
  sessionKey = "";
  /** How many sampling requests the server made during this call (see `maxSamplingPerCall`). */
  samplingRequests = 0;
  readonly #timeoutMs: number;
  #context: ToolContext | undefined;
  #unlink: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #listener: ((asked: ElicitationAsked) => void) | undefined;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** The tool context of the run the call belongs to now; `undefined` while it waits for a person. */
  get context(): ToolContext | undefined {
    return this.#context;
  }

  /** Whether a request for input can be handed to this call's run now. */
  get listening(): boolean {
    return this.#context !== undefined && this.#listener !== undefined;
  }

  /** Joins the run of `context`: its cancellation cancels the call, and the clock starts again. */
  attach(context: ToolContext): void {
    this.detach();
    this.#context = context;
    const signal = context.abortSignal;
    if (signal.aborted) this.controller.abort(signal.reason);
    else {
      const onAbort = () => this.controller.abort(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#unlink = () => signal.removeEventListener("abort", onAbort);
    }
    this.touch();
  }

  /** Leaves the run (it paused, or the call ended): the call stays open, the clock stops. */
  detach(): void {
    this.#unlink?.();
    this.#unlink = undefined;
    this.#context = undefined;
    this.#listener = undefined;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Restarts the inactivity clock: at the start, on each progress notification, on resuming. */
  touch(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.controller.abort(new CallTimedOut()), this.#timeoutMs);
  }

  /** Resolves with the next request for input the server makes during this call. */
  nextAsk(): Promise<ElicitationAsked> {
    return new Promise((resolve) => {
      this.#listener = resolve;
    });
  }

  /** Hands the server's request to the run; resolves with the person's answer, whenever it comes. */
  ask(params: ElicitRequest["params"]): Promise<ElicitResult> {
    const listener = this.#listener;
    this.#listener = undefined;
    return new Promise((answer) => listener?.({ params, answer }));
  }
}
