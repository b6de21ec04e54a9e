import type { Hono } from "hono";
import type { ApiEnv, ApiServerParts } from "./api-env.js";

/** How long a store may take to answer a readiness check before it counts as down. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * `GET /healthz` (the process answers: for a liveness probe) and
 * `GET /readyz` (for a load balancer: 200 only when the session and artifact
 * stores answer and the server is not shutting down; 503 otherwise, naming
 * what failed).
 */
export function registerHealthRoutes(app: Hono<ApiEnv>, { registry, runs }: ApiServerParts): void {
  app.get("/healthz", (context) => context.json({ status: "ok" }));
  app.get("/readyz", async (context) => {
    if (runs.draining) return context.json({ status: "draining", code: "SERVER_DRAINING", error: "This server is shutting down and takes no new runs." }, 503);
    const { sessionService, artifactService } = registry.services;
    const probe = { appName: "toolsmith-readyz", userId: "toolsmith-readyz" };
    const checks = {
      sessions: await check(() => sessionService.listSessions(probe)),
      artifacts: await check(() => artifactService.listArtifactKeys({ ...probe, sessionId: "toolsmith-readyz" })),
    };
    const failed = Object.entries(checks).filter(([, result]) => result !== "ok");
    if (failed.length === 0) return context.json({ status: "ready", checks });
    return context.json({ status: "not ready", code: "NOT_READY", error: `Not ready: ${failed.map(([name, result]) => `${name} ${result}`).join("; ")}.`, checks }, 503);
  });
}

async function check(probe: () => Promise<unknown>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([probe(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)))]);
    return "ok";
  } catch (error) {
    return `failed: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    clearTimeout(timer);
  }
}
