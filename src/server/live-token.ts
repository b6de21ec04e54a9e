/**
 * A bearer token for `/run_live` from a browser. A page cannot set headers on a WebSocket, so it offers the token as
 * a subprotocol, `bearer.<the token in base64url>`, beside the protocol it speaks, `toolsmith`, which the server
 * names in its answer (a browser fails a handshake whose answer names none of the protocols it offered). The token
 * is never named back.
 *
 * ```ts
 * const socket = new WebSocket(url, ["toolsmith", `bearer.${base64url(token)}`]);
 * ```
 */

/** The subprotocol the server names in its answer to a client that offered subprotocols. */
export const LIVE_PROTOCOL = "toolsmith";
/** The start of the subprotocol that carries a bearer token. */
export const BEARER_PROTOCOL_PREFIX = "bearer.";

/** The bearer token among the offered subprotocols (the `Sec-WebSocket-Protocol` header), if one is. */
export function bearerTokenFromProtocols(header: string | undefined): string | undefined {
  for (const protocol of offeredProtocols(header)) {
    if (!protocol.startsWith(BEARER_PROTOCOL_PREFIX)) continue;
    const encoded = protocol.slice(BEARER_PROTOCOL_PREFIX.length);
    if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return undefined;
    return Buffer.from(encoded, "base64url").toString("utf8");
  }
  return undefined;
}

/** The subprotocols a client offered, in its order. */
export function offeredProtocols(header: string | undefined): string[] {
  return (header ?? "")
    .split(",")
    .map((protocol) => protocol.trim())
    .filter((protocol) => protocol.length > 0);
}

/**
 * The subprotocol the server answers with: {@link LIVE_PROTOCOL} when offered, else none (`false`, and no header).
 * A token is never chosen, so it is not sent back where proxies may log it.
 */
export function chooseLiveProtocol(offered: ReadonlySet<string>): string | false {
  return offered.has(LIVE_PROTOCOL) ? LIVE_PROTOCOL : false;
}
