import type { Agent } from "../agents/agent.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { BasePlugin } from "../plugins/base-plugin.js";
import { refuseUnhonouredOptions } from "../errors/unhonoured-option.js";

/**
 * ADK's resumability setting. toolsmith always resumes a paused run with the agent that owns the answered call
 * (ADK's `isResumable: true`), in this process or another: `isResumable: false`, ADK's default, is refused
 * rather than ignored, because toolsmith has no other way to resume.
 */
export interface ResumabilityConfig {
  /** Must be `true` in toolsmith, which always resumes with the agent that owns the answered call. */
  isResumable: boolean;
}

/** ADK's {@link ResumabilityConfig} maker: `isResumable` is `false` unless given, as in ADK. */
export function createResumabilityConfig(params: Partial<ResumabilityConfig> = {}): ResumabilityConfig {
  return { isResumable: false, ...params };
}

/** Throws unless `config` asks for what toolsmith does: resuming with the agent that owns the answered call. */
export function assertResumable(config: ResumabilityConfig | undefined): void {
  if (config === undefined || config.isResumable === true) return;
  throw new ConfigurationError(
    "UNSUPPORTED_OPTION",
    `resumabilityConfig.isResumable is ${String(config.isResumable)}, but toolsmith always resumes a paused run with the agent that owns the answered call. Leave resumabilityConfig out or set isResumable: true.`,
  );
}

/** Options of {@link App}, as ADK's `AppOptions`. */
export interface AppOptions {
  /** The app's name: a letter, then letters, digits, `_` or `-`; not `user`. */
  name: string;
  /** The agent the app runs. */
  rootAgent: Agent;
  /** Plugins every runner of the app runs, before the runner's own. */
  plugins?: readonly BasePlugin[];
  /** See {@link ResumabilityConfig}: only `isResumable: true` is accepted. */
  resumabilityConfig?: ResumabilityConfig;
}

const APP_NAME = /^[a-zA-Z][a-zA-Z0-9_-]*$/;

/** Throws a `ConfigurationError` (`INVALID_APP_NAME`) unless `name` is a valid app name, by ADK's rule. */
export function validateAppName(name: string): void {
  if (typeof name !== "string" || !APP_NAME.test(name)) {
    throw new ConfigurationError("INVALID_APP_NAME", `Invalid app name ${JSON.stringify(name)}: start it with a letter and use only letters, digits, "_" and "-".`);
  }
  if (name === "user") throw new ConfigurationError("INVALID_APP_NAME", `The app name "user" is reserved for the person's own messages: choose another.`);
}

// A registered symbol, so an App made by another copy of toolsmith (an agents folder with its own install) is
// still recognised by the loader.
const APP_BRAND = Symbol.for("toolsmith.app");

/**
 * ADK's `App`: an agent with the plugins (and resumability setting) that go with it wherever it runs. Give it to
 * `new Runner({ app, sessionService })`, or export it from an agent module (`export const app = new App(…)`) for
 * `toolsmith web`, `api-server` and `run`, which then run its plugins too.
 *
 * @example
 * ```ts
 * export const app = new App({ name: "support", rootAgent, plugins: [new LoggingPlugin()] });
 * const runner = new Runner({ app, sessionService: new InMemorySessionService() });
 * ```
 */
export class App {
  readonly [APP_BRAND] = true;
  readonly name: string;
  readonly rootAgent: Agent;
  readonly plugins: readonly BasePlugin[];
  readonly resumabilityConfig?: ResumabilityConfig;

  constructor(options: AppOptions) {
    refuseUnhonouredOptions(`App "${options.name}"`, options, ["name", "rootAgent", "plugins", "resumabilityConfig"]);
    validateAppName(options.name);
    if (!options.rootAgent) throw new ConfigurationError("NO_ROOT_AGENT", `App "${options.name}" has no rootAgent: pass the agent it runs, new App({ name, rootAgent }).`);
    assertResumable(options.resumabilityConfig);
    this.name = options.name;
    this.rootAgent = options.rootAgent;
    this.plugins = [...(options.plugins ?? [])];
    if (options.resumabilityConfig) this.resumabilityConfig = options.resumabilityConfig;
  }
}

/** An agent with the plugins that go with it wherever it runs. */
export interface AgentWithPlugins {
  agent: Agent;
  /** An `App`'s plugins, run before any others; none for a bare agent. */
  plugins: readonly BasePlugin[];
}

/** An {@link App}'s root agent and plugins, or a bare agent with none: what a runner of either is made from. */
export function agentWithPlugins(entry: Agent | App): AgentWithPlugins {
  return isApp(entry) ? { agent: entry.rootAgent, plugins: entry.plugins } : { agent: entry, plugins: [] };
}

/** Whether `value` is an {@link App}, made by this copy of toolsmith or another (ADK's `isApp`). */
export function isApp(value: unknown): value is App {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[APP_BRAND] === true;
}
