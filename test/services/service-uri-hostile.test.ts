/**
 * The functions that take a service URI as ADK's do, made without waiting (`getSessionServiceFromUri`,
 * `new DatabaseSessionService`, `getArtifactServiceFromUri`), given any string: each returns a service or refuses it
 * with a ToolsmithError saying what to use, never another error; and a refusal never repeats the URI's password,
 * however the password is written. Nothing is opened: these make their store on first use.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DatabaseSessionService, getArtifactServiceFromUri, getSessionServiceFromUri, isToolsmithError } from "../../src/index.js";
import { redactUriPassword } from "../../src/errors/redact-uri.js";

const makers: Array<[string, (uri: string) => unknown]> = [
  ["getSessionServiceFromUri", getSessionServiceFromUri],
  ["new DatabaseSessionService", (uri) => new DatabaseSessionService(uri)],
  ["getArtifactServiceFromUri", getArtifactServiceFromUri],
];

/** What making a service from `uri` did: made it, or refused it with a message; anything else is thrown on. */
function outcome(make: (uri: string) => unknown, uri: string): { made: true } | { made: false; message: string } {
  try {
    make(uri);
    return { made: true };
  } catch (error) {
    if (!isToolsmithError(error)) throw error;
    return { made: false, message: error.message };
  }
}

const schemes = fc.constantFrom("sqlite", "postgres", "postgresql", "PostgreSQL", "mysql", "mariadb", "mssql", "memory", "file", "s3", "gs", "vertexai", "redis", "ftp", "http", "x+y.z-1");
// Passwords that try to end the user part early: the characters a URI gives meaning to, unescaped.
const password = fc.string({ unit: fc.constantFrom(..."abcXYZ019/?#@:%&=+ ;\\\"'"), minLength: 1, maxLength: 24 }).map((text) => `Pw${text}Pw`);

describe("service URIs, as an attacker writes them", () => {
  it("are made into a service or refused with a ToolsmithError, for any string", () => {
    let made = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 60 }), fc.webUrl(), fc.tuple(schemes, fc.string({ maxLength: 40 })).map(([scheme, rest]) => `${scheme}://${rest}`)), (uri) => {
        for (const [, make] of makers) {
          const result = outcome(make, uri);
          if (result.made) made++;
          else refused++;
        }
      }),
      { numRuns: 3_000 },
    );
    console.log(`${made + refused} services asked for from random strings: ${made} made, ${refused} refused with a ToolsmithError, no other error`);
    expect(made).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it("never repeat a password in a refusal, however it is written", () => {
    let refusals = 0;
    fc.assert(
      fc.property(schemes, fc.stringMatching(/^[a-z]{0,8}$/), password, fc.constantFrom("@db:5432/app", "@db/app?sslmode=require", "@host", "@[::1]/x"), (scheme, user, secret, rest) => {
        const uri = `${scheme}://${user}:${secret}${rest}`;
        for (const [, make] of makers) {
          const result = outcome(make, uri);
          if (result.made) continue;
          refusals++;
          expect(result.message).not.toContain(secret);
        }
      }),
      { numRuns: 3_000 },
    );
    console.log(`${refusals} refusals of URIs with a password in them, none repeating it`);
    expect(refusals).toBeGreaterThan(1_000);
  });

  it("hides the password and keeps the rest where a message shows a URI", () => {
    expect(redactUriPassword("postgresql://bo:hunter2@db:5432/app")).toBe("postgresql://bo:***@db:5432/app");
    expect(redactUriPassword("mysql://root:p@ss/w?rd@db/app")).toBe("mysql://root:***@db/app");
    expect(redactUriPassword("sqlite://.toolsmith/toolsmith.db")).toBe("sqlite://.toolsmith/toolsmith.db");
    expect(redactUriPassword("s3://bucket/prefix?endpoint=http://minio:9000")).toBe("s3://bucket/prefix?endpoint=http://minio:9000");
    expect(redactUriPassword("ftp://anonymous@files")).toBe("ftp://anonymous@files");
  });
});
