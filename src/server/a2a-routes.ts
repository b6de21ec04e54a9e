import type { IncomingMessage, ServerResponse } from "node:http";
import type { Hono } from "hono";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Application } from "express";
import { bearerTokenUserBuilder, toA2a } from "../a2a/to-a2a.js";
import { loadA2AExpress } from "../a2a/load-sdk.js";
import type { Runner } from "../runner/runner.js";
import type { ApiEnv, ApiServerParts } from "./api-env.js";
import { HttpError } from "./http-error.js";

/** Options of the A2A surface `toolsmith web --a2a` and `api-server --a2a` serve. */
export interface A2ASurfaceOptions {
  /** The bearer token A2A callers must send (ADK's `--a2a_auth_token`); none serves the surface unauthenticated. */
  authToken?: string;
  /** The server's own URL (`http://127.0.0.1:8000`), named in each app's agent card; known once it listens. */
  publicUrl: () => string;
  /** The largest request body, in bytes (the server's `--max-body-bytes`). */
  maxBodyBytes: number;
}

/**
 * Each app's A2A surface under `/a2a/<app>/`, as ADK's API server mounts it: the agent card at
 * `/a2a/<app>/.well-known/agent-card.json`, JSON-RPC at `/a2a/<app>/jsonrpc`, REST at `/a2a/<app>/rest`. Each
 * app's surface is {@link toA2a} over the app's runner (its sessions in the server's store, one per A2A
 * context), made at its first request and again when the app's module is reloaded. Needs Node's request (the
 * surface is an Express application from `@a2a-js/sdk`), so it answers only on a served port.
 */
export function registerA2ARoutes(app: Hono<ApiEnv>, { registry, runs }: ApiServerParts, options: A2ASurfaceOptions): void {
  const surfaces = new Map<string, { runner: Runner; surface: Promise<Application> }>();
  const authentication = options.authToken ? bearerTokenUserBuilder(options.authToken) : undefined;
  const surfaceOf = async (appName: string): Promise<Application> => {
    const runner = await registry.runner(appName);
    const known = surfaces.get(appName);
    if (known?.runner === runner) return known.surface;
    const surface = (async () => {
      const { express, handlers } = await loadA2AExpress();
      const url = new URL(options.publicUrl());
      const expressApp = express();
      expressApp.use(express.json({ limit: options.maxBodyBytes }));
      return toA2a(runner.agent, {
        app: expressApp,
        runner,
        basePath: `/a2a/${appName}`,
        protocol: url.protocol.replace(/:$/, ""),
        host: url.hostname,
        port: Number(url.port || (url.protocol === "https:" ? 443 : 80)),
        // Without a token the command warned once already (and serves on loopback only); no warning per app.
        authentication: authentication ?? handlers.UserBuilder.noAuthentication,
      });
    })();
    surfaces.set(appName, { runner, surface });
    surface.catch(() => surfaces.delete(appName));
    return surface;
  };
  app.all("/a2a/:app/*", async (context) => {
    const env = context.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
    if (!env?.incoming || !env.outgoing) throw new HttpError(404, "NOT_FOUND", "The A2A surface answers only on a served port (toolsmith web --a2a or api-server --a2a).");
    // As the HTTP API's runs: a draining server takes no new request, and waits for those under way.
    if (runs.draining) throw new HttpError(503, "SERVER_DRAINING", "This server is shutting down and takes no new A2A requests. Send the request again: another replica (or this server once restarted) takes it.");
    const surface = await surfaceOf(context.req.param("app"));
    const { incoming, outgoing } = env;
    // Past the grace period the connection is closed; the SDK has no way to stop a run it started.
    const untrack = runs.track(() => outgoing.destroy());
    try {
      await new Promise<void>((resolve) => {
        outgoing.once("finish", resolve);
        outgoing.once("close", resolve);
        surface(incoming as Parameters<Application>[0], outgoing as Parameters<Application>[1], () => {
          if (!outgoing.headersSent) outgoing.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: `No A2A endpoint ${incoming.method} ${incoming.url}.`, code: "NOT_FOUND" }));
          resolve();
        });
      });
    } finally {
      untrack();
    }
    return RESPONSE_ALREADY_SENT;
  });
}
