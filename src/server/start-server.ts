import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import { WebSocketServer } from "ws";
import { chooseLiveProtocol } from "./live-token.js";
import type { ApiEnv } from "./api-env.js";
import { DEFAULT_MAX_BODY_BYTES } from "./create-api-app.js";

/** How long {@link RunningServer.close} without a grace period leaves WebSockets to answer its close before cutting them. */
const WEB_SOCKET_CLOSE_MS = 1_000;

/** A running server. */
export interface RunningServer {
  /** Like `http://127.0.0.1:8000`. */
  url: string;
  port: number;
  /**
   * Stops accepting connections and closes open ones: at once, or with
   * `graceMs`, after letting responses still being written finish for up to
   * that long. Open WebSockets (`/run_live`) are sent a close (1001) and cut
   * if still open after `graceMs` (a second without it); drain the server's
   * runs first ({@link RunTracker.drain}) to end live runs with their reason.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/**
 * Serves the app on `host` (127.0.0.1 unless told otherwise) and `port` (0 picks a free one), with WebSocket
 * upgrades handed to the app (`/run_live`), each message up to `maxMessageBytes` (the request body limit by default).
 */
export async function startServer(options: { app: Hono<ApiEnv>; host?: string; port?: number; maxMessageBytes?: number }): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  // Answers with toolsmith's subprotocol when offered, never with a token offered as one (live-token.ts).
  const webSockets = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes ?? DEFAULT_MAX_BODY_BYTES, handleProtocols: chooseLiveProtocol });
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: options.app.fetch, hostname: host, port: options.port ?? 0, websocket: { server: webSockets } }, (info: AddressInfo) => {
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
            // An upgraded socket is no longer the HTTP server's to close, and server.close waits for it.
            for (const socket of webSockets.clients) socket.close(1001, "The server is shutting down.");
            const cut = setTimeout(() => {
              for (const socket of webSockets.clients) socket.terminate();
            }, closing.graceMs ?? WEB_SOCKET_CLOSE_MS);
            server.close(() => {
              clearTimeout(timer);
              clearTimeout(cut);
              done();
            });
          }),
      });
    });
    server.once("error", reject);
  });
}
