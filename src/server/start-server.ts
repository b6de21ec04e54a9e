import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import type { ApiEnv } from "./api-env.js";

/** A running server. */
export interface RunningServer {
  /** Like `http://127.0.0.1:8000`. */
  url: string;
  port: number;
  /**
   * Stops accepting connections and closes open ones: at once, or with
   * `graceMs`, after letting responses still being written finish for up to
   * that long.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Serves the app on `host` (127.0.0.1 unless told otherwise) and `port` (0 picks a free one). */
export async function startServer(options: { app: Hono<ApiEnv>; host?: string; port?: number }): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: options.app.fetch, hostname: host, port: options.port ?? 0 }, (info: AddressInfo) => {
      const shownHost = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost}:${info.port}`,
        port: info.port,
        close: (closing = {}) =>
          new Promise<void>((done) => {
            const connections = server as unknown as { closeAllConnections?: () => void; closeIdleConnections?: () => void };
            const timer = closing.graceMs ? setTimeout(() => connections.closeAllConnections?.(), closing.graceMs) : undefined;
            if (closing.graceMs) connections.closeIdleConnections?.();
            else connections.closeAllConnections?.();
            server.close(() => {
              clearTimeout(timer);
              done();
            });
          }),
      });
    });
    server.once("error", reject);
  });
}
