import { timingSafeEqual } from "node:crypto";
import type { AgentCard } from "@a2a-js/sdk";
import type { UserBuilder } from "@a2a-js/sdk/server/express";
import type { Application, NextFunction, Request, Response } from "express";
import type { Agent } from "../agents/agent.js";
import type { ArtifactService } from "../artifacts/artifact-service.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import { logger } from "../logging/logger.js";
import type { MemoryService } from "../memory/memory-service.js";
import type { Runner } from "../runner/runner.js";
import { InMemorySessionService } from "../sessions/in-memory-session-service.js";
import type { SessionService } from "../sessions/session-service.js";
import { asRunnableRoot } from "../workflow/workflow.js";
import { getA2AAgentCard, resolveAgentCard } from "./agent-card.js";
import { A2AAgentExecutor } from "./agent-executor.js";
import { AGENT_CARD_PATH } from "./agent-card-path.js";
import { loadA2AExpress, loadA2AServer } from "./load-sdk.js";

/** Checks an A2A request's credentials and resolves to its user; throwing refuses the request (`@a2a-js/sdk`'s `UserBuilder`). */
export type A2aUserBuilder = UserBuilder;

/** Options of {@link toA2a}, as ADK's `ToA2aOptions`. */
export interface ToA2aOptions {
  /** The host in the card's URLs (default `localhost`). */
  host?: string;
  /** The port in the card's URLs (default 8000). */
  port?: number;
  /** The scheme in the card's URLs (default `http`). */
  protocol?: string;
  /** Where the A2A surface is mounted (default: the root); the card is at `<basePath>/.well-known/agent-card.json`. */
  basePath?: string;
  /** The card to serve (or its URL or file) instead of the one made from the agent. */
  agentCard?: AgentCard | string;
  /** The runner to run the agent with; by default one is made with the services below. */
  runner?: Runner;
  /** Where A2A contexts' sessions are kept (default: in memory). */
  sessionService?: SessionService;
  memoryService?: MemoryService;
  artifactService?: ArtifactService;
  /** An Express application to mount the surface on; by default a new one (with a 50 MB JSON body limit). */
  app?: Application;
  /**
   * Checks each request's credentials (a bearer token: {@link bearerTokenUserBuilder}; an OIDC token; …). Required
   * unless `allowUnauthenticated` is set: anyone who reaches the surface can run the agent and its tools.
   */
  authentication?: A2aUserBuilder;
  /** Serve without authentication, for local development only; a warning is logged. Default `false`. */
  allowUnauthenticated?: boolean;
}

const OPTIONS = ["host", "port", "protocol", "basePath", "agentCard", "runner", "sessionService", "memoryService", "artifactService", "app", "authentication", "allowUnauthenticated"];

/**
 * Serves an agent over A2A on an Express application, as ADK's `toA2a`: its card at
 * `<basePath>/.well-known/agent-card.json`, JSON-RPC at `<basePath>/jsonrpc` and REST at `<basePath>/rest`, each
 * request run by an {@link A2AAgentExecutor} with streamed text. It fails closed: without `authentication` it
 * throws, unless `allowUnauthenticated: true` says the surface is for local development.
 *
 * @example
 * ```ts
 * const app = await toA2a(agent, { port: 8001, authentication: bearerTokenUserBuilder(process.env.A2A_TOKEN!) });
 * app.listen(8001);
 * ```
 */
export async function toA2a(agent: Agent, options: ToA2aOptions = {}): Promise<Application> {
  refuseUnhonouredOptions("toA2a", options, OPTIONS);
  const { express, handlers } = await loadA2AExpress();
  const { DefaultRequestHandler, InMemoryTaskStore } = await loadA2AServer();
  const userBuilder = userBuilderOf(options, handlers.UserBuilder.noAuthentication);
  const root = asRunnableRoot(agent);
  const basePath = options.basePath ?? "";
  const rpcUrl = `${options.protocol ?? "http"}://${options.host ?? "localhost"}:${options.port ?? 8000}${basePath}`;
  const card = options.agentCard
    ? await resolveAgentCard(options.agentCard)
    : await getA2AAgentCard(root, [
        { url: `${rpcUrl}/jsonrpc`, transport: "JSONRPC" },
        { url: `${rpcUrl}/rest`, transport: "HTTP+JSON" },
      ]);
  const executor = new A2AAgentExecutor({
    runner: options.runner ?? { agent: root, appName: root.name, sessionService: options.sessionService ?? new InMemorySessionService(), memoryService: options.memoryService, artifactService: options.artifactService },
    runConfig: { streamingMode: "sse" },
  });
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const app = options.app ?? express();
  if (!options.app) app.use(express.json({ limit: "50mb" }));
  app.use(`${basePath}/${AGENT_CARD_PATH}`, handlers.agentCardHandler({ agentCardProvider: requestHandler }));
  const authenticated = authenticatedUser(userBuilder, userBuilder === handlers.UserBuilder.noAuthentication);
  app.use(`${basePath}/rest`, authenticated.check, handlers.restHandler({ requestHandler, userBuilder: authenticated.userBuilder }));
  app.use(`${basePath}/jsonrpc`, authenticated.check, handlers.jsonRpcHandler({ requestHandler, userBuilder: authenticated.userBuilder }));
  return app;
}

const USER = Symbol("toolsmith.a2aUser");

/**
 * The user builder run once per request before the SDK's handler: a request it refuses (by throwing, or with a
 * user that is not authenticated, unless the surface is open to `anyone`) gets 401 with the reason, and neither the agent nor the SDK sees it (the SDK
 * itself answers a refusing builder with 500 and logs a stack). The SDK's handler is then given the user found.
 */
function authenticatedUser(userBuilder: A2aUserBuilder, anyone: boolean): { check: (request: Request, response: Response, next: NextFunction) => void; userBuilder: A2aUserBuilder } {
  const check = (request: Request, response: Response, next: NextFunction) => {
    userBuilder(request).then(
      (user) => {
        if (!user.isAuthenticated && !anyone) return refuse(response, "The A2A request's credentials were not accepted.");
        (request as unknown as Record<symbol, unknown>)[USER] = user;
        next();
      },
      (error: unknown) => refuse(response, error instanceof Error ? error.message : String(error)),
    );
  };
  return { check, userBuilder: async (request) => (request as unknown as Record<symbol, Awaited<ReturnType<A2aUserBuilder>>>)[USER]! };
}

function refuse(response: Response, reason: string): void {
  response.status(401).set("www-authenticate", "Bearer").json({ error: `${reason} Send the credentials the A2A server was set up with (for a bearer token: Authorization: Bearer <token>).`, code: "UNAUTHORIZED" });
}

function userBuilderOf(options: ToA2aOptions, noAuthentication: A2aUserBuilder): A2aUserBuilder {
  if (options.authentication) return options.authentication;
  if (options.allowUnauthenticated === true) {
    logger.warn(
      "SECURITY WARNING: the A2A surface is served WITHOUT authentication (allowUnauthenticated: true): anyone who reaches it can run the agent and its tools with any input and read the output. Use this only for local, trusted development.",
    );
    return noAuthentication;
  }
  throw new ConfigurationError(
    "A2A_UNAUTHENTICATED",
    "toA2a will not serve the agent without authentication: anyone who reaches the A2A surface could run the agent and its tools. Give `authentication` (bearerTokenUserBuilder(token), or a UserBuilder that checks an OIDC token) or, for local development only, `allowUnauthenticated: true`.",
  );
}

/**
 * Authenticates A2A requests by a shared bearer token, as ADK's: callers send `Authorization: Bearer <token>`,
 * compared in constant time; any other request is refused before the agent runs. Serve it over HTTPS.
 */
export function bearerTokenUserBuilder(token: string): A2aUserBuilder {
  const expected = Buffer.from(token.trim(), "utf8");
  if (expected.length === 0) {
    throw new ConfigurationError("A2A_UNAUTHENTICATED", "bearerTokenUserBuilder needs a token that is not empty: an empty token would let anyone in. Give a real shared secret.");
  }
  return async (request: Request) => {
    const header = request.headers.authorization ?? "";
    const credential = Buffer.from(header.toLowerCase().startsWith("bearer ") ? header.slice("bearer ".length) : "", "utf8");
    if (credential.length !== expected.length || !timingSafeEqual(credential, expected)) {
      throw new Error("A2A request rejected: missing or invalid `Authorization: Bearer` credential.");
    }
    return { isAuthenticated: true, userName: "a2a-bearer-token" };
  };
}
