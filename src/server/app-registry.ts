import type { Agent } from "../agents/agent.js";
import type { CredentialService } from "../auth/credential-service.js";
import { Runner } from "../runner/runner.js";
import { AppNotFoundError, type AgentLoader, type LoadedApp } from "./agent-loader.js";
import { runnerServices, type Services } from "./open-services.js";

/** Options of {@link AppRegistry}. */
export interface AppRegistryOptions {
  loader: AgentLoader;
  services: Services;
  /** Defaults to the services' credential service, shared by the apps. */
  credentialService?: CredentialService;
}

/** The apps a server serves: one runner per app over the shared services, rebuilt when the app's module is reloaded. */
export class AppRegistry {
  readonly loader: AgentLoader;
  readonly services: Services;
  readonly credentialService: CredentialService;
  readonly #runners = new Map<string, { agent: Agent; runner: Runner }>();

  constructor(options: AppRegistryOptions) {
    this.loader = options.loader;
    this.services = options.services;
    this.credentialService = options.credentialService ?? options.services.credentialService;
  }

  listApps(): string[] {
    return this.loader.listApps();
  }

  /** Throws {@link AppNotFoundError} unless the app exists, without loading it. */
  assertApp(appName: string): void {
    if (!this.loader.hasApp(appName)) throw new AppNotFoundError(appName, this.listApps());
  }

  async agent(appName: string): Promise<Agent> {
    this.assertApp(appName);
    return this.loader.load(appName);
  }

  /** The app's root agent with its `App`'s plugins, which every run and evaluation of the app runs. */
  async app(appName: string): Promise<LoadedApp> {
    this.assertApp(appName);
    return this.loader.loadApp(appName);
  }

  /**
   * The app's runner. An exported `App`'s plugins run in it; the app's sessions are stored under the name the
   * URLs use (its file or folder name), whatever the `App` calls itself.
   */
  async runner(appName: string): Promise<Runner> {
    const { agent, plugins } = await this.app(appName);
    const cached = this.#runners.get(appName);
    if (cached?.agent === agent) return cached.runner;
    const runner = new Runner({ appName, agent, plugins, ...runnerServices(this.services), credentialService: this.credentialService });
    this.#runners.set(appName, { agent, runner });
    return runner;
  }

  /** Closes every runner's toolsets and stops watching files. */
  async close(): Promise<void> {
    await Promise.all([...this.#runners.values()].map(({ runner }) => runner.close()));
    this.#runners.clear();
    this.loader.close();
  }
}
