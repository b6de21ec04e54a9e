import { upgradeWebSocket } from "@hono/node-server";
import type { Hono } from "hono";
import type { WebSocket } from "ws";
import type { ApiEnv, ApiServerParts } from "./api-env.js";
import { HttpError } from "./http-error.js";
import { LiveSocket } from "./live-socket.js";
import { foreignOrigin } from "./same-origin.js";
import { BEARER_PROTOCOL_PREFIX, chooseLiveProtocol, LIVE_PROTOCOL, offeredProtocols } from "./live-token.js";

/**
 * `GET /run_live`, ADK Python's live endpoint: a WebSocket over which the client sends LiveRequests (text, audio,
 * video, activity marks, close) and receives the run's events as JSON, one per text frame, as `/run_sse` sends
 * them. Needs the Node server {@link startServer} makes (it hands upgrades to the app); a plain GET is told to
 * upgrade (426). A page of another origin than the server's, and not among `corsOrigins`, is refused before the
 * handshake (403), as ADK's server refuses it: a WebSocket is not bound by CORS, so without this any web page the
 * user opens could talk to their agents through a server on their machine.
 */
export function registerLiveRoutes(app: Hono<ApiEnv>, parts: ApiServerParts, options: { corsOrigins: readonly string[] }): void {
  const upgrade = upgradeWebSocket((context) => {
    const live = new LiveSocket({ parts, url: new URL(context.req.url), tokenUserId: context.get("tokenUserId") });
    return {
      onOpen: (_event, socket) => live.open(socket.raw as WebSocket),
      onMessage: (event) => live.receive(event.data),
      onClose: () => live.closed(),
    };
  });
  app.get("/run_live", async (context, next) => {
    const origin = foreignOrigin(context, options.corsOrigins);
    if (origin !== undefined) {
      throw new HttpError(403, "ORIGIN_NOT_ALLOWED", `WebSocket connections from ${origin} are refused: give the origin with --allow-origin to allow it.`);
    }
    if (context.req.header("upgrade")?.toLowerCase() !== "websocket") {
      throw new HttpError(426, "UPGRADE_REQUIRED", "/run_live is a WebSocket endpoint: connect to ws://<host>/run_live?app_name=<app>&user_id=<user>&session_id=<session>.");
    }
    // A client that offers subprotocols must be answered with one of them, or it fails the handshake without a word.
    const offered = offeredProtocols(context.req.header("sec-websocket-protocol"));
    if (offered.length > 0 && chooseLiveProtocol(new Set(offered)) === false) {
      const named = offered.map((protocol) => (protocol.startsWith(BEARER_PROTOCOL_PREFIX) ? `${BEARER_PROTOCOL_PREFIX}…` : protocol)).join(", ");
      throw new HttpError(400, "UNSUPPORTED_SUBPROTOCOL", `/run_live speaks the subprotocol "${LIVE_PROTOCOL}", which the client did not offer (it offered ${named}). Offer "${LIVE_PROTOCOL}", with "${BEARER_PROTOCOL_PREFIX}<token in base64url>" for a bearer token, or no subprotocol.`);
    }
    return upgrade(context, next);
  });
}
