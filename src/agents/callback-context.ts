import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { Part } from "../content/content.js";
import { createEventActions, type EventActions } from "../events/event-actions.js";
import { State } from "../sessions/state.js";
import type { InvocationContext } from "./invocation-context.js";
import { ReadonlyContext } from "./readonly-context.js";

/**
 * What callbacks around model and tool calls may read and change: the state
 * (changes become the event's `stateDelta`), the event's actions, and the
 * session's artifacts.
 */
export class CallbackContext extends ReadonlyContext {
  /** Side effects recorded on the event this context belongs to. */
  readonly actions: EventActions;
  readonly #state: State;

  constructor(invocation: InvocationContext, actions: EventActions = createEventActions()) {
    super(invocation);
    this.actions = actions;
    this.#state = new State(invocation.session.state, actions.stateDelta);
  }

  /** The session state; see {@link State} for the `app:`, `user:` and `temp:` prefixes. */
  override get state(): State {
    return this.#state;
  }

  /** Names of the session's artifacts, including the user's shared (`user:`) ones. */
  async listArtifacts(): Promise<string[]> {
    return this.#artifactService().listArtifactKeys(this.#sessionKey());
  }

  /** An artifact's latest version, or the given one; `undefined` when absent. */
  async loadArtifact(filename: string, version?: number): Promise<Part | undefined> {
    return this.#artifactService().loadArtifact({ ...this.#sessionKey(), filename, version });
  }

  /** Saves a new version of an artifact, records it in `actions.artifactDelta` and returns the version. */
  async saveArtifact(filename: string, artifact: Part): Promise<number> {
    const version = await this.#artifactService().saveArtifact({ ...this.#sessionKey(), filename, artifact });
    this.actions.artifactDelta[filename] = version;
    return version;
  }

  #sessionKey() {
    const session = this.invocation.session;
    return { appName: session.appName, userId: session.userId, sessionId: session.id };
  }

  #artifactService() {
    const service = this.invocation.artifactService;
    if (!service) throw new ConfigurationError("NO_ARTIFACT_SERVICE", "No artifact service is configured. Pass artifactService to the Runner.");
    return service;
  }
}
