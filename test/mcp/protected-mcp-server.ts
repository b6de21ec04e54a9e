import { createPublicKey, verify } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuth2Server } from "oauth2-mock-server";
import { FunctionTool, type Tool } from "../../src/index.js";
import { createMcpServer } from "../../src/mcp/index.js";

/** An MCP server behind OAuth, started by a test, and the real authorization server that guards it. */
export interface ProtectedMcpServer {
  /** The MCP endpoint, `…/mcp`. */
  mcpUrl: string;
  /** A page on the same server the authorization server may send the browser back to: `…/callback`. */
  callbackUrl: string;
  authServer: OAuth2Server;
  /** Every bearer token the MCP endpoint accepted, in order. */
  seenTokens: string[];
  /** Each accepted request's MCP session (none for the one opening a session) and its token's subject. */
  requests: { sessionId: string | undefined; subject: string }[];
  /** A token for this user (its subject), as the authorization server would issue after they signed in. */
  tokenFor(subject: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * toolsmith's MCP server serving `secret_plans`, guarded by a bearer check
 * that verifies the JWTs of a real authorization server (oauth2-mock-server,
 * which signs in at once and supports PKCE), publishing its protected
 * resource metadata as the MCP authorization spec has it. With `authorizationEndpoint`, the
 * resource names this server as its authorization server and serves the real one's metadata with that
 * endpoint instead: a hostile or broken authorization server.
 */
export async function startProtectedMcpServer(options: { tools?: Tool[]; authorizationEndpoint?: string } = {}): Promise<ProtectedMcpServer> {
  const authServer = new OAuth2Server();
  await authServer.issuer.keys.generate("RS256");
  await authServer.start(0, "127.0.0.1");
  const served = createMcpServer({ tools: [new FunctionTool({ name: "secret_plans", description: "Reads the secret plans.", execute: () => "Launch on Tuesday." }), ...(options.tools ?? [])] });
  const seenTokens: string[] = [];
  const requests: ProtectedMcpServer["requests"] = [];
  const tokenIsValid = (token: string): boolean => {
    const [header, payload, signature] = token.split(".");
    if (!header || !payload || !signature) return false;
    const { kid } = JSON.parse(Buffer.from(header, "base64url").toString()) as { kid?: string };
    const jwk = authServer.issuer.keys.get(kid);
    if (!jwk) return false;
    const key = createPublicKey({ key: jwk as never, format: "jwk" });
    const valid = verify("RSA-SHA256", Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, "base64url"));
    const { exp } = JSON.parse(Buffer.from(payload, "base64url").toString()) as { exp: number };
    return valid && exp > Date.now() / 1000;
  };
  const server = createServer(async (request, response) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const path = new URL(request.url ?? "/", base).pathname;
    if (path.startsWith("/.well-known/oauth-protected-resource")) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [options.authorizationEndpoint ? base : authServer.issuer.url] }));
      return;
    }
    if (options.authorizationEndpoint && path === "/.well-known/oauth-authorization-server") {
      const metadata = (await (await fetch(`${authServer.issuer.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ ...metadata, authorization_endpoint: options.authorizationEndpoint }));
      return;
    }
    if (path === "/callback") {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<!doctype html><title>Signed in</title><p>Signed in. Copy this page's address back into the app.</p>");
      return;
    }
    if (path !== "/mcp") return void response.writeHead(404).end();
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (!token || !tokenIsValid(token)) {
      response.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`, "content-type": "application/json" });
      response.end(JSON.stringify({ error: "invalid_token" }));
      return;
    }
    seenTokens.push(token);
    const sessionId = request.headers["mcp-session-id"];
    requests.push({ sessionId: typeof sessionId === "string" ? sessionId : undefined, subject: String((JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { sub?: string }).sub) });
    await served.handleHttpRequest(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    mcpUrl: `${base}/mcp`,
    callbackUrl: `${base}/callback`,
    authServer,
    seenTokens,
    requests,
    tokenFor: (subject) => authServer.issuer.buildToken({ scopesOrTransform: (_header, payload) => void (payload.sub = subject) }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await served.close();
      await authServer.stop();
    },
  };
}
