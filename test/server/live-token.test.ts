import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bearerTokenFromProtocols, chooseLiveProtocol, offeredProtocols } from "../../src/server/live-token.js";

/** A browser's bearer token for /run_live, carried as a WebSocket subprotocol. */
describe("the /run_live token subprotocol", () => {
  it("reads back any token a client encodes, wherever the protocol stands among the offered ones", () => {
    let tokens = 0;
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: "binary" }), fc.array(fc.constantFrom("toolsmith", "graphql-ws", "v2.chat")), (token, others) => {
        const protocol = `bearer.${Buffer.from(token).toString("base64url")}`;
        const header = [...others, protocol, ...others].join(", ");
        // What Node's UTF-8 round trip makes of the token (a lone surrogate becomes U+FFFD on both sides).
        expect(bearerTokenFromProtocols(header)).toBe(Buffer.from(token).toString("utf8"));
        tokens++;
      }),
      { numRuns: 1000 },
    );
    console.log(`subprotocol tokens read back: ${tokens}`);
  });

  it("finds no token in hostile or malformed headers, and never throws", () => {
    for (const header of [undefined, "", "toolsmith", "bearer.", "bearer.a+b", "bearer.a/b", "bearer.a=b", "bearer.a b", "Bearer.abc", " , ,"]) {
      expect(bearerTokenFromProtocols(header)).toBeUndefined();
    }
    fc.assert(fc.property(fc.string({ unit: "binary" }), (header) => void bearerTokenFromProtocols(header)), { numRuns: 2000 });
  });

  it("splits the offered protocols in order, trimmed, leaving out empty ones", () => {
    expect(offeredProtocols(" toolsmith ,bearer.YQ, ,v2 ")).toEqual(["toolsmith", "bearer.YQ", "v2"]);
    expect(offeredProtocols(undefined)).toEqual([]);
  });

  it("answers with toolsmith's protocol only, never with a token", () => {
    expect(chooseLiveProtocol(new Set(["bearer.YQ", "toolsmith"]))).toBe("toolsmith");
    expect(chooseLiveProtocol(new Set(["bearer.YQ"]))).toBe(false);
    expect(chooseLiveProtocol(new Set(["graphql-ws"]))).toBe(false);
    fc.assert(fc.property(fc.array(fc.string()), (offered) => {
      const chosen = chooseLiveProtocol(new Set(offered));
      expect(chosen === false || chosen === "toolsmith").toBe(true);
    }));
  });
});
