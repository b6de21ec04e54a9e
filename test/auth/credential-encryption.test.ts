/**
 * CredentialCipher: the key from TOOLSMITH_CREDENTIAL_KEY (what a user sees
 * when it is missing or malformed), AES-256-GCM sealing bound to its owner,
 * and, as an attacker would try it, fuzzed tampering with sealed credentials.
 */
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CredentialCipher, type AuthCredential } from "../../src/index.js";
import { resealUnderCurrentKey } from "../../src/auth/credential-encryption.js";

const owner = { appName: "app", userId: "alice", credentialKey: "github" };
const credential: AuthCredential = { authType: "oauth2", oauth2: { accessToken: "gho_SECRET_ACCESS", refreshToken: "ghr_SECRET_REFRESH", clientSecret: "client-SECRET" } };
const key = randomBytes(32);

describe("CredentialCipher.fromEnvironment", () => {
  it("reads a 32-byte key written as base64 or as hex, to the same key id", () => {
    const fromBase64 = CredentialCipher.fromEnvironment({ TOOLSMITH_CREDENTIAL_KEY: key.toString("base64") });
    const fromHex = CredentialCipher.fromEnvironment({ TOOLSMITH_CREDENTIAL_KEY: ` ${key.toString("hex")}\n` });
    expect(fromBase64.keyId).toBe(fromHex.keyId);
    expect(fromBase64.keyId).toMatch(/^[0-9a-f]{12}$/);
    expect(fromHex.open(owner, fromBase64.seal(owner, credential))).toEqual(credential);
  });

  it("says how to make a key when none is set", () => {
    expect(() => CredentialCipher.fromEnvironment({})).toThrow(
      `Storing credentials in a database needs an encryption key in TOOLSMITH_CREDENTIAL_KEY, which is not set. Make one with: node -e "console.log(require('node:crypto').randomBytes(32).toString('base64'))" (or openssl rand -base64 32), then set TOOLSMITH_CREDENTIAL_KEY to it in every server that shares the store, and keep it: credentials stored under it cannot be read without it.`,
    );
    expect(() => CredentialCipher.fromEnvironment({ TOOLSMITH_CREDENTIAL_KEY: "  " })).toThrow(expect.objectContaining({ code: "CREDENTIAL_KEY_MISSING" }));
  });

  it.each([
    ["a password", "hunter2", "it is 5 bytes long, not 32"],
    ["16 bytes of base64", randomBytes(16).toString("base64"), "it is 16 bytes long, not 32"],
    ["a phrase with spaces", "correct horse battery staple", "it is neither base64 nor hex"],
    ["63 hex digits", key.toString("hex").slice(1), "it looks like hex but has 63 digits, not 64"],
  ])("refuses %s, saying why and how to make one", (_name, value, reason) => {
    const error = (() => {
      try {
        CredentialCipher.fromEnvironment({ TOOLSMITH_CREDENTIAL_KEY: value });
      } catch (caught) {
        return caught as Error & { code: string };
      }
    })();
    expect(error?.code).toBe("CREDENTIAL_KEY_MALFORMED");
    expect(error?.message).toMatch(new RegExp(`^TOOLSMITH_CREDENTIAL_KEY is not a usable key: ${reason}\\. It must be 32 random bytes written as base64 \\(44 characters\\) or hex \\(64\\)\\. Make one with: `));
  });
});

describe("CredentialCipher", () => {
  const cipher = new CredentialCipher(key);

  it("seals without the secret in the clear, with a fresh nonce each time", () => {
    const first = cipher.seal(owner, credential);
    const second = cipher.seal(owner, credential);
    expect(first).not.toBe(second);
    for (const secret of ["gho_SECRET_ACCESS", "ghr_SECRET_REFRESH", "client-SECRET"]) {
      expect(first).not.toContain(secret);
      expect(first).not.toContain(Buffer.from(secret).toString("base64url").slice(0, 12));
    }
    expect(first.startsWith(`v1.${cipher.keyId}.`)).toBe(true);
    expect(cipher.open(owner, first)).toEqual(credential);
  });

  it("refuses a credential sealed under another key, naming both key ids", () => {
    const other = new CredentialCipher(randomBytes(32));
    const error = (() => {
      try {
        cipher.open(owner, other.seal(owner, credential));
      } catch (caught) {
        return caught as Error & { code: string };
      }
    })();
    expect(error?.code).toBe("CREDENTIAL_KEY_MISMATCH");
    expect(error?.message).toBe(
      `The stored credentials were encrypted under another key (key id ${other.keyId}); TOOLSMITH_CREDENTIAL_KEY holds key id ${cipher.keyId}. Set TOOLSMITH_CREDENTIAL_KEY to the key they were stored with. Nothing was changed: the stored credentials are kept as they were.`,
    );
  });

  it("refuses a credential copied onto another user's, app's or key's row", () => {
    const sealed = cipher.seal(owner, credential);
    for (const elsewhere of [{ ...owner, userId: "mallory" }, { ...owner, appName: "other" }, { ...owner, credentialKey: "gitlab" }]) {
      expect(() => cipher.open(elsewhere, sealed)).toThrow(
        `The stored credential ${JSON.stringify(elsewhere.credentialKey)} of user ${JSON.stringify(elsewhere.userId)} in app ${JSON.stringify(elsewhere.appName)} does not decrypt under the current key: it was changed, or copied from another user's. It was left as it is; the user can sign in again to replace it.`,
      );
    }
  });

  it("refuses text that is not a sealed credential", () => {
    for (const text of ["", "plain", '{"authType":"apiKey","apiKey":"k"}', "v2.a.b.c.d"]) {
      expect(() => cipher.open(owner, text)).toThrow(expect.objectContaining({ code: "CREDENTIAL_UNREADABLE" }));
    }
  });

  it("fuzzed: every credential round-trips, and every changed character of a sealed one is refused, never misread", () => {
    let tampered = 0;
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.nat(), fc.integer({ min: 1, max: 63 }), (apiKey, userId, position, flip) => {
        const who = { ...owner, userId };
        const sealed = cipher.seal(who, { authType: "apiKey", apiKey });
        expect(cipher.open(who, sealed)).toEqual({ authType: "apiKey", apiKey });
        // Change one character after the key id (the nonce, the tag or the ciphertext) to another base64url character.
        const start = `v1.${cipher.keyId}.`.length;
        const index = start + (position % (sealed.length - start));
        if (sealed[index] === ".") return;
        const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        const changed = alphabet[(alphabet.indexOf(sealed[index]!) + flip) % 64]!;
        const forged = sealed.slice(0, index) + changed + sealed.slice(index + 1);
        let opened: AuthCredential | undefined;
        try {
          opened = cipher.open(who, forged);
        } catch (error) {
          expect((error as { code: string }).code).toBe("CREDENTIAL_UNREADABLE");
          tampered++;
          return;
        }
        // Base64url's last character can carry unused bits; a change there may decode to the same bytes.
        expect(opened).toEqual({ authType: "apiKey", apiKey });
      }),
      { numRuns: 500 },
    );
    console.log(`credential cipher fuzz: 500 credentials round-tripped; ${tampered} tampered sealed texts refused, none misread`);
    expect(tampered).toBeGreaterThan(400);
  });
});

describe("a cipher with previous keys (changing the key)", () => {
  const oldKey = randomBytes(32);
  const older = randomBytes(32);
  const newKey = randomBytes(32);
  const underOld = new CredentialCipher(oldKey).seal(owner, credential);

  it("reads the previous keys from TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS, base64 or hex, separated by commas or spaces, and opens what they sealed", () => {
    const cipher = CredentialCipher.fromEnvironment({
      TOOLSMITH_CREDENTIAL_KEY: newKey.toString("base64"),
      TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS: ` ${oldKey.toString("hex")},\n${older.toString("base64")} , ${newKey.toString("base64")}`,
    });
    expect(cipher.keyId).toBe(new CredentialCipher(newKey).keyId);
    // The current key among the previous ones is left out.
    expect(cipher.previousKeyIds).toEqual([new CredentialCipher(oldKey).keyId, new CredentialCipher(older).keyId]);
    expect(cipher.open(owner, underOld)).toEqual(credential);
    // What it seals is under the current key.
    expect(CredentialCipher.keyIdOf(cipher.seal(owner, credential))).toBe(cipher.keyId);
  });

  it("refuses a malformed previous key, saying which one and why", () => {
    const refused = (() => {
      try {
        CredentialCipher.fromEnvironment({ TOOLSMITH_CREDENTIAL_KEY: newKey.toString("base64"), TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS: `${oldKey.toString("base64")},hunter2` });
      } catch (caught) {
        return caught as Error & { code: string };
      }
    })();
    expect(refused?.code).toBe("CREDENTIAL_KEY_MALFORMED");
    expect(refused?.message).toMatch(/^TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS holds a key that is not usable: previous key 2 is 5 bytes long, not 32\. It must be 32 random bytes/);
  });

  it("still refuses a key it has neither as current nor as previous, naming every key id it holds", () => {
    const cipher = new CredentialCipher(newKey, { previousKeys: [older] });
    expect(() => cipher.open(owner, underOld)).toThrow(
      `The stored credentials were encrypted under another key (key id ${new CredentialCipher(oldKey).keyId}); TOOLSMITH_CREDENTIAL_KEY holds key id ${cipher.keyId} and TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS key ids ${new CredentialCipher(older).keyId}. Set TOOLSMITH_CREDENTIAL_KEY to the key they were stored with, or add it to TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS. Nothing was changed: the stored credentials are kept as they were.`,
    );
  });

  it("seals again under the current key only what a previous key sealed and still opens", () => {
    const cipher = new CredentialCipher(newKey, { previousKeys: [oldKey] });
    const bob = { ...owner, userId: "bob" };
    const current = cipher.seal(bob, credential);
    const unknown = new CredentialCipher(older).seal(owner, credential);
    // Alice's text on carol's row: sealed under the old key, but for another owner.
    const carol = { ...owner, userId: "carol", sealed: underOld };
    const resealed = resealUnderCurrentKey(cipher, [{ ...owner, sealed: underOld }, { ...bob, sealed: current }, { ...owner, credentialKey: "x", sealed: unknown }, carol, { ...owner, credentialKey: "y", sealed: "not sealed" }]);
    expect(resealed.map((entry) => entry.userId)).toEqual(["alice"]);
    expect(resealed[0]!.sealed).toBe(underOld);
    expect(CredentialCipher.keyIdOf(resealed[0]!.resealed)).toBe(cipher.keyId);
    expect(new CredentialCipher(newKey).open(owner, resealed[0]!.resealed)).toEqual(credential);
  });
});
