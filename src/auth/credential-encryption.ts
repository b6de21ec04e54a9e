import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { ConfigurationError, ToolsmithError } from "../errors/toolsmith-error.js";
import type { AuthCredential } from "./credential-service.js";

/** The environment variable that holds the key credentials are encrypted under at rest. */
export const CREDENTIAL_KEY_VARIABLE = "TOOLSMITH_CREDENTIAL_KEY";

/** How to make a key, for error messages and the README. */
const HOW_TO_MAKE_A_KEY = `Make one with: node -e "console.log(require('node:crypto').randomBytes(32).toString('base64'))" (or openssl rand -base64 32), then set ${CREDENTIAL_KEY_VARIABLE} to it in every server that shares the store, and keep it: credentials stored under it cannot be read without it.`;

/** Marks the sealed format, so a later format can be told apart. */
const FORMAT = "v1";

/** Where a stored credential came from, bound into its ciphertext so that a row copied onto another user's does not decrypt. */
export interface CredentialOwner {
  appName: string;
  userId: string;
  credentialKey: string;
}

/** A stored credential could not be decrypted: it was stored under another key, or it was changed. */
export class CredentialKeyError extends ToolsmithError {}

/**
 * Encrypts credentials with AES-256-GCM under one 32-byte key, each with a
 * fresh 12-byte nonce and its owner (app, user, credential key) as
 * authenticated data. The sealed text names the key's id (a fingerprint that
 * reveals nothing of the key), so a store read with another key says so
 * instead of failing obscurely.
 */
export class CredentialCipher {
  readonly #key: Buffer;
  /** A fingerprint of the key (HMAC-SHA256 of a fixed label, 12 hex digits): the same key always gives the same id. */
  readonly keyId: string;

  constructor(key: Buffer) {
    if (key.length !== 32) throw malformed(`it is ${key.length} bytes long, not 32`);
    this.#key = Buffer.from(key);
    this.keyId = createHmac("sha256", key).update("toolsmith credential key id").digest("hex").slice(0, 12);
  }

  /**
   * The cipher of {@link CREDENTIAL_KEY_VARIABLE}: 32 random bytes, written as
   * base64 (44 characters) or hex (64). Throws a ConfigurationError saying how
   * to make one when it is missing or malformed.
   */
  static fromEnvironment(environment: Record<string, string | undefined> = process.env): CredentialCipher {
    const text = environment[CREDENTIAL_KEY_VARIABLE]?.trim();
    if (!text) {
      throw new ConfigurationError(
        "CREDENTIAL_KEY_MISSING",
        `Storing credentials in a database needs an encryption key in ${CREDENTIAL_KEY_VARIABLE}, which is not set. ${HOW_TO_MAKE_A_KEY}`,
      );
    }
    if (/^[0-9a-f]{64}$/i.test(text)) return new CredentialCipher(Buffer.from(text, "hex"));
    if (/^[0-9a-f]{40,}$/i.test(text)) throw malformed(`it looks like hex but has ${text.length} digits, not 64`);
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) throw malformed("it is neither base64 nor hex");
    return new CredentialCipher(Buffer.from(text, "base64"));
  }

  /** The credential as `v1.<key id>.<nonce>.<tag>.<ciphertext>` (base64url parts). */
  seal(owner: CredentialOwner, credential: AuthCredential): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, nonce);
    cipher.setAAD(ownerBytes(owner));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(credential), "utf8"), cipher.final()]);
    return [FORMAT, this.keyId, nonce.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
  }

  /** The credential {@link seal} was given; throws {@link CredentialKeyError} when it was sealed under another key, for another owner, or changed since. */
  open(owner: CredentialOwner, sealed: string): AuthCredential {
    const [format, keyId, nonce, tag, ciphertext] = sealed.split(".");
    const where = `credential ${JSON.stringify(owner.credentialKey)} of user ${JSON.stringify(owner.userId)} in app ${JSON.stringify(owner.appName)}`;
    if (format !== FORMAT || !keyId || nonce === undefined || tag === undefined || ciphertext === undefined) {
      throw new CredentialKeyError("CREDENTIAL_UNREADABLE", `The stored ${where} is not in a format this toolsmith reads. It was left as it is; the user can sign in again to replace it.`);
    }
    if (keyId !== this.keyId) throw keyMismatch(keyId, this.keyId);
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.#key, Buffer.from(nonce, "base64url"));
      decipher.setAAD(ownerBytes(owner));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      const plaintext = Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]);
      return JSON.parse(plaintext.toString("utf8")) as AuthCredential;
    } catch (error) {
      throw new CredentialKeyError(
        "CREDENTIAL_UNREADABLE",
        `The stored ${where} does not decrypt under the current key: it was changed, or copied from another user's. It was left as it is; the user can sign in again to replace it.`,
        { cause: error },
      );
    }
  }
}

/** The error for a store whose credentials were sealed under key `storedId` while the current key is `currentId`. */
export function keyMismatch(storedId: string, currentId: string): CredentialKeyError {
  return new CredentialKeyError(
    "CREDENTIAL_KEY_MISMATCH",
    `The stored credentials were encrypted under another key (key id ${storedId}); ${CREDENTIAL_KEY_VARIABLE} holds key id ${currentId}. Set ${CREDENTIAL_KEY_VARIABLE} to the key they were stored with. Nothing was changed: the stored credentials are kept as they were.`,
  );
}

function malformed(reason: string): ConfigurationError {
  return new ConfigurationError("CREDENTIAL_KEY_MALFORMED", `${CREDENTIAL_KEY_VARIABLE} is not a usable key: ${reason}. It must be 32 random bytes written as base64 (44 characters) or hex (64). ${HOW_TO_MAKE_A_KEY}`);
}

function ownerBytes(owner: CredentialOwner): Buffer {
  return Buffer.from(JSON.stringify([owner.appName, owner.userId, owner.credentialKey]), "utf8");
}
