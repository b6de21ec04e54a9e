import { createHash } from "node:crypto";
import { join, sep } from "node:path";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { PACKAGE_ROOT } from "../platform/package-root.js";
import type { ApiEnv, ApiServerParts } from "./api-env.js";
import type { AppRegistry } from "./app-registry.js";
import { registerA2ARoutes, type A2ASurfaceOptions } from "./a2a-routes.js";
import { registerArtifactRoutes } from "./artifact-routes.js";
import { registerDebugRoutes } from "./debug-routes.js";
import { registerHealthRoutes } from "./health-routes.js";
import { requestLog, type Logger } from "./request-log.js";
import { RunTracker } from "./run-tracker.js";
import { registerEvalRoutes } from "./eval-routes.js";
import { HttpError, toHttpError } from "./http-error.js";
import { registerInfoRoutes } from "./info-routes.js";
import { registerLiveRoutes } from "./live-routes.js";
import { BEARER_PROTOCOL_PREFIX, bearerTokenFromProtocols, LIVE_PROTOCOL } from "./live-token.js";
import { registerRunRoutes } from "./run-routes.js";
import { refuseOtherOrigins } from "./same-origin.js";
import { registerSessionRoutes } from "./session-routes.js";
import { staticFile } from "./static-files.js";
import { registerToolRoutes } from "./tool-routes.js";
import { TraceStore } from "./trace-store.js";

/** Where the bundled web UI lives: `web-ui/` at the package root, next to both `src/` and `dist/`. */
export const WEB_UI_DIR = join(PACKAGE_ROOT, "web-ui") + sep;

/** Options of {@link createApiApp}. */
export interface ApiAppOptions {
  registry: AppRegistry;
  /** Bearer-token mode: each token maps to the one user id it may act for. Off when absent or empty. */
  tokens?: Readonly<Record<string, string>>;
  /** Origins allowed to call the API from a browser; none (no CORS headers) by default. `["*"]` allows any. */
  corsOrigins?: readonly string[];
  /** Largest request body accepted, in bytes. Default 8 MiB. */
  maxBodyBytes?: number;
  /** Serve toolsmith's web UI at `/`. */
  webUi?: boolean;
  /** Serve ADK's Angular dev UI from this folder (its `dist/browser`) at `/dev-ui/`. */
  adkDevUiDir?: string;
  /**
   * Host names the `Host` header may carry; others get 403. A server on
   * loopback sets the loopback names, so a web page that rebinds its own
   * domain to 127.0.0.1 cannot reach the API. Any host when absent.
   */
  allowedHosts?: readonly string[];
  /** The runs under way; give one to drain them on shutdown ({@link RunTracker.drain}). A new one when absent. */
  runs?: RunTracker;
  /** Logs one JSON line per request (with its request id). No request log when absent. */
  logger?: Logger;
  /** Serve each app over A2A under `/a2a/<app>/` (`toolsmith web --a2a`); off when absent. */
  a2a?: Omit<A2ASurfaceOptions, "maxBodyBytes">;
}

/** The names a loopback server answers to. */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** The default request body limit. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * The HTTP API as a Hono app: ADK's API server endpoints with the same paths,
 * bodies and event JSON, toolsmith's tool endpoints, and optionally the web
 * UI. Call it without a port through `app.request(...)`, or serve it with
 * {@link startServer}.
 *
 * @example
 * ```ts
 * const registry = new AppRegistry({ loader: new AgentLoader({ agentsDir: "agents" }), services: await openServices() });
 * const app = createApiApp({ registry });
 * const apps = await (await app.request("/list-apps")).json();
 * ```
 */
export function createApiApp(options: ApiAppOptions): Hono<ApiEnv> {
  const parts: ApiServerParts = { registry: options.registry, traces: new TraceStore(), runs: options.runs ?? new RunTracker() };
  const app = new Hono<ApiEnv>();
  if (options.logger) app.use("*", requestLog(options.logger));
  app.onError((error, context) => {
    const failure = toHttpError(error);
    // A draining server asks the client (or the balancer in front) to try again shortly, elsewhere.
    if (failure.status === 503) context.header("retry-after", "1");
    return context.json({ error: failure.message, code: failure.code }, failure.status);
  });
  app.notFound((context) => context.json({ error: `No endpoint ${context.req.method} ${context.req.path}.`, code: "NOT_FOUND" }, 404));

  const allowedHosts = options.allowedHosts ? new Set(options.allowedHosts.map((host) => host.toLowerCase())) : undefined;
  if (allowedHosts) {
    app.use("*", async (context, next) => {
      const host = (context.req.header("host") ?? new URL(context.req.url).host).toLowerCase().replace(/:\d+$/, "");
      if (!allowedHosts.has(host)) return context.json({ error: `Requests for host "${host}" are refused: this server answers to ${[...allowedHosts].join(", ")}.`, code: "HOST_NOT_ALLOWED" }, 403);
      await next();
    });
  }

  const origins = options.corsOrigins ?? [];
  if (origins.length) app.use("*", cors({ origin: origins.includes("*") ? "*" : [...origins], allowHeaders: ["content-type", "authorization"], exposeHeaders: ["x-next-page-token"] }));
  // Before any route that changes something, the A2A surface's too.
  app.use("*", async (context, next) => {
    refuseOtherOrigins(context, origins);
    await next();
  });
  const maxSize = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // Before the body limit, which may read a chunked body: the A2A surface (Express) reads and limits its own, and
  // checks its own bearer token (ADK's --a2a_auth_token), not the API's.
  if (options.a2a) registerA2ARoutes(app, parts, { ...options.a2a, maxBodyBytes: maxSize });
  const tooLarge = (context: Context<ApiEnv>) => context.json({ error: `The request body is larger than ${maxSize} bytes.`, code: "BODY_TOO_LARGE" }, 413);
  const countBody = bodyLimit({ maxSize, onError: tooLarge });
  app.use("*", async (context, next) => {
    // A declared length is checked from the header alone. Hono's bodyLimit asks for the request's body stream
    // first, which makes the Node adapter build a whole WHATWG Request and stream for every request (about a
    // tenth of a loaded server's time); it still counts the bytes of a chunked body, which declares no length.
    const length = context.req.header("content-length");
    const chunked = context.req.header("transfer-encoding") !== undefined;
    if (length !== undefined && !chunked) return Number(length) > maxSize ? tooLarge(context) : next();
    if (!chunked && (context.env as { incoming?: unknown } | undefined)?.incoming) return next(); // HTTP/1.1 with neither header: no body
    return countBody(context, next);
  });

  const uiFiles = (root: string, prefix: string, fallback?: string) => async (context: { req: { path: string } }) => {
    const response = await staticFile({ root, path: context.req.path.slice(prefix.length), fallback });
    if (!response) throw new HttpError(404, "NOT_FOUND", `No file ${context.req.path}.`);
    return response;
  };
  if (options.adkDevUiDir) {
    const devUi = options.adkDevUiDir;
    app.get("/dev-ui/assets/config/runtime-config.json", (context) => context.json({ backendUrl: "" }));
    app.get("/dev-ui", (context) => context.redirect("/dev-ui/"));
    app.get("/dev-ui/*", uiFiles(devUi, "/dev-ui", "index.html"));
  }
  if (options.webUi) {
    app.get("/", uiFiles(WEB_UI_DIR, "/"));
    app.get("/ui/*", uiFiles(WEB_UI_DIR, "/ui"));
    // Browsers ask for /favicon.ico whatever the page links; the SVG icon answers it too.
    app.get("/favicon.ico", () => uiFiles(WEB_UI_DIR, "/")({ req: { path: "/favicon.svg" } }));
  }

  // Probes come from load balancers and orchestrators, which hold no bearer token.
  registerHealthRoutes(app, parts);

  const tokens = hashTokens(options.tokens);
  if (tokens) {
    app.use("*", async (context, next) => {
      const header = context.req.header("authorization") ?? "";
      const match = /^Bearer\s+(.+)$/i.exec(header);
      // A browser's WebSocket cannot carry the header: /run_live also takes the token as a subprotocol.
      const live = context.req.path === "/run_live";
      const token = match ? match[1]!.trim() : live ? bearerTokenFromProtocols(context.req.header("sec-websocket-protocol")) : undefined;
      const userId = token !== undefined ? tokens.get(digest(token)) : undefined;
      if (userId === undefined) {
        context.header("www-authenticate", "Bearer");
        const how = live ? `send Authorization: Bearer <token>, or from a browser offer the subprotocols "${LIVE_PROTOCOL}" and "${BEARER_PROTOCOL_PREFIX}<the token in base64url>"` : "send Authorization: Bearer <token>";
        return context.json({ error: `This server needs a bearer token: ${how}.`, code: "UNAUTHORIZED" }, 401);
      }
      context.set("tokenUserId", userId);
      await next();
    });
  }

  registerDebugRoutes(app, parts);
  registerInfoRoutes(app, parts);
  registerSessionRoutes(app, parts);
  registerArtifactRoutes(app, parts);
  registerRunRoutes(app, parts);
  registerLiveRoutes(app, parts, { corsOrigins: origins });
  registerToolRoutes(app, parts);
  registerEvalRoutes(app, parts);
  return app;
}

/** Tokens are looked up by their SHA-256 digest, so the lookup's timing says nothing about a token's characters. */
function hashTokens(tokens: Readonly<Record<string, string>> | undefined): Map<string, string> | undefined {
  const entries = Object.entries(tokens ?? {});
  if (entries.length === 0) return undefined;
  return new Map(entries.map(([token, userId]) => [digest(token), userId]));
}

function digest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
