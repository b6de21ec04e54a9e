import type { Content } from "../content/content.js";
import { State, type ReadonlyState } from "../sessions/state.js";
import type { InvocationContext } from "./invocation-context.js";

/**
 * What instruction providers and toolsets may read about the current
 * invocation. Nothing here can change the session.
 */
export class ReadonlyContext {
  /** @internal The invocation this view reads from. */
  protected readonly invocation: InvocationContext;

  constructor(invocation: InvocationContext) {
    this.invocation = invocation;
  }

  /**
   * The invocation this context reads from, as ADK exposes it: for tools and
   * toolsets that run agents or reach the services themselves.
   */
  get invocationContext(): InvocationContext {
    return this.invocation;
  }
  get invocationId(): string {
    return this.invocation.invocationId;
  }
  get agentName(): string {
    return this.invocation.agent.name;
  }
  get appName(): string {
    return this.invocation.session.appName;
  }
  get userId(): string {
    return this.invocation.session.userId;
  }
  get sessionId(): string {
    return this.invocation.session.id;
  }
  /** The message that started this invocation. */
  get userContent(): Content | undefined {
    return this.invocation.userContent;
  }
  /** The session state, for reading. */
  get state(): ReadonlyState {
    return new State(this.invocation.session.state, {});
  }
}
