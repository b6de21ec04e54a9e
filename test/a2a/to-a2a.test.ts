import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { bearerTokenUserBuilder, getA2AAgentCard, RemoteA2AAgent, toA2a } from "../../src/a2a/index.js";
import { LlmAgent } from "../../src/index.js";
import { isToolsmithError } from "../../src/errors/toolsmith-error.js";
import { ScriptedModel, textResponse } from "../../src/testing/index.js";
import { brief, clientOf, serveA2A } from "./serve-a2a.js";

/**
 * `toA2a`: it fails closed (no surface without authentication unless asked for), refuses options it does not
 * have, mounts under `basePath`, and its bearer-token check lets in exactly the requests that carry the token.
 */

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const greeter = () => new LlmAgent({ name: "greeter", description: "Greets.", model: new ScriptedModel([textResponse("Hello!"), textResponse("Hello!")]), instruction: "Greet." });

async function codeOf(promise: Promise<unknown> | (() => unknown)): Promise<[string | undefined, string]> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    return [isToolsmithError(error) ? error.code : undefined, (error as Error).message];
  }
  return [undefined, "no error"];
}

describe("toA2a", () => {
  it("will not serve an agent without authentication unless told the surface is for local development", async () => {
    expect(await codeOf(toA2a(greeter()))).toEqual([
      "A2A_UNAUTHENTICATED",
      "toA2a will not serve the agent without authentication: anyone who reaches the A2A surface could run the agent and its tools. Give `authentication` (bearerTokenUserBuilder(token), or a UserBuilder that checks an OIDC token) or, for local development only, `allowUnauthenticated: true`.",
    ]);
    expect(await codeOf(toA2a(greeter(), { allowUnauthenticated: false }))).toEqual([
      "A2A_UNAUTHENTICATED",
      expect.stringContaining("toA2a will not serve the agent without authentication"),
    ]);
  });

  it("refuses a card that lacks what an A2A card has, naming each missing field, rather than fail inside the SDK", async () => {
    expect(await codeOf(toA2a(greeter(), { allowUnauthenticated: true, agentCard: { name: "custom", url: "http://x/jsonrpc" } as never }))).toEqual([
      "INVALID_A2A_AGENT",
      "The agent card from the agentCard option lacks description (a string), version (a string), protocolVersion (a string), capabilities (an object), defaultInputModes (a list), defaultOutputModes (a list), skills (a list), which an A2A 0.3 card has. Make it with getA2AAgentCard, or add them.",
    ]);
  });

  it("refuses an option it does not have rather than ignore it", async () => {
    expect(await codeOf(toA2a(greeter(), { allowUnauthenticated: true, cors: true } as never))).toEqual([
      "UNSUPPORTED_OPTION",
      'toA2a has no option "cors": it takes host, port, protocol, basePath, agentCard, runner, sessionService, memoryService, artifactService, app, authentication, allowUnauthenticated. Check its spelling.',
    ]);
  });

  it("mounts the card, JSON-RPC and REST under basePath, and serves a given card instead of one made from the agent", async () => {
    const server = await serveA2A(greeter(), { basePath: "/agents/greeter", agentCard: { ...(await getA2AAgentCard(greeter(), [{ url: "http://x/jsonrpc", transport: "JSONRPC" }])), name: "custom", description: "A card of my own" } });
    closers.push(server.close);
    expect((await (await fetch(`${server.url}/agents/greeter/.well-known/agent-card.json`)).json()) as object).toMatchObject({ name: "custom", description: "A card of my own" });
    expect((await fetch(`${server.url}/.well-known/agent-card.json`)).status).toBe(404);
    const rpc = await fetch(`${server.url}/agents/greeter/jsonrpc`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", messageId: "m", role: "user", parts: [{ kind: "text", text: "hi" }] } } }),
    });
    expect(((await rpc.json()) as any).result.status.state).toBe("completed");
    // REST, through a client that prefers it.
    const restCard = { ...(await getA2AAgentCard(greeter(), [{ url: `${server.url}/agents/greeter/rest`, transport: "HTTP+JSON" }])), capabilities: { streaming: false } };
    const client = await clientOf(new RemoteA2AAgent({ name: "greeter", agentCard: restCard }));
    expect((await client.turn("hi")).map(brief)).toEqual(["Hello!"]);
  });
});

describe("bearerTokenUserBuilder", () => {
  const check = (builder: ReturnType<typeof bearerTokenUserBuilder>, authorization?: string) =>
    builder({ headers: authorization === undefined ? {} : { authorization } } as never).then(
      (user) => user.isAuthenticated,
      () => false,
    );

  it("is refused for an empty token, which would let anyone in", async () => {
    for (const token of ["", "   "]) {
      expect(await codeOf(() => bearerTokenUserBuilder(token))).toEqual(["A2A_UNAUTHENTICATED", "bearerTokenUserBuilder needs a token that is not empty: an empty token would let anyone in. Give a real shared secret."]);
    }
  });

  it("lets in exactly `Bearer <token>` (the scheme in any case), whatever else a caller sends (3,000 headers)", async () => {
    const token = "s3cret-Token_42";
    const builder = bearerTokenUserBuilder(` ${token} `);
    for (const accepted of [`Bearer ${token}`, `bearer ${token}`, `BEARER ${token}`]) expect(await check(builder, accepted)).toBe(true);
    const tally = { tried: 0, accepted: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.constantFrom("", "Bearer", "Bearer ", `Basic ${token}`, `Bearer ${token} `, `Bearer  ${token}`, `Bearer ${token.toLowerCase()}`, `Bearer ${token.slice(0, -1)}`, `Bearer ${token}x`, `${token}`),
          fc.string().map((noise) => `Bearer ${token}${noise}`).filter((header) => header !== `Bearer ${token}`),
          fc.string().map((noise) => `Bearer ${noise}`),
        ),
        async (header) => {
          tally.tried++;
          const accepted = await check(builder, header);
          if (accepted) tally.accepted++;
          expect(accepted).toBe(header.toLowerCase().startsWith("bearer ") && header.slice(7) === token);
        },
      ),
      { numRuns: 3_000 },
    );
    console.log(`bearer token check: the 3 spellings of Bearer <token> let in; ${tally.tried} other headers tried, ${tally.accepted} of them let in`);
    expect(tally.accepted).toBe(0);
  });
});
