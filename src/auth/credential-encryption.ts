import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { ConfigurationError, ToolsmithError } from "../errors/toolsmith-error.js";
import type { AuthCredential } from "./credential-service.js";

/** The environment variable that holds the key credentials are encrypted under at rest. */
export const CREDENTIAL_KEY_VARIABLE = "TOOLSMITH_CREDENTIAL_KEY";

/**
 * The environment variable that holds the keys credentials were encrypted under before the current one, while a
 * store moves to a new key: any number, separated by commas or spaces, each written as the current one is.
 */
export const PREVIOUS_CREDENTIAL_KEYS_VARIABLE = "TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS";

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

/** Options of a {@link CredentialCipher}. */
export interface CredentialCipherOptions {
  /**
   * Keys credentials were encrypted under before this one (32 bytes each): what was sealed under them still
   * opens, and the stored services encrypt it again under the current key when they open (see the README's
   * "Changing the key").
   */
  previousKeys?: readonly Buffer[];
}

/**
 * Encrypts credentials with AES-256-GCM under one 32-byte key, each with a
 * fresh 12-byte nonce and its owner (app, user, credential key) as
 * authenticated data. The sealed text names the key's id (a fingerprint that
 * reveals nothing of the key), so a store read with another key says so
 * instead of failing obscurely. Given the keys used before it, it also opens
 * what was sealed under them, and seals anew under the current one.
 */
export class CredentialCipher {
  readonly #key: Buffer;
  /** The previous keys by their ids. */
  readonly #previous = new Map<string, Buffer>();
  /** A fingerprint of the key (HMAC-SHA256 of a fixed label, 12 hex digits): the same key always gives the same id. */
  readonly keyId: string;

  constructor(key: Buffer, options: CredentialCipherOptions = {}) {
    if (key.length !== 32) throw malformed(`it is ${key.length} bytes long, not 32`);
    this.#key = Buffer.from(key);
    this.keyId = keyIdOf(key);
    (options.previousKeys ?? []).forEach((previous, index) => {
      if (previous.length !== 32) throw malformed(`previous key ${index + 1} is ${previous.length} bytes long, not 32`, PREVIOUS_CREDENTIAL_KEYS_VARIABLE);
      const id = keyIdOf(previous);
      if (id !== this.keyId) this.#previous.set(id, Buffer.from(previous));
    });
  }

  /** The ids of the previous keys, in the order given (the current key's id is never among them). */
  get previousKeyIds(): readonly string[] {
    return [...this.#previous.keys()];
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
    const previous = (environment[PREVIOUS_CREDENTIAL_KEYS_VARIABLE] ?? "").split(/[\s,]+/).filter((entry) => entry.length > 0);
    return new CredentialCipher(keyFromText(text, CREDENTIAL_KEY_VARIABLE), {
      previousKeys: previous.map((entry, index) => keyFromText(entry, PREVIOUS_CREDENTIAL_KEYS_VARIABLE, `previous key ${index + 1}`)),
    });
  }

  /** Whether this cipher opens what was sealed under the key with this id: the current key or a previous one. */
  knowsKey(keyId: string): boolean {
    return keyId === this.keyId || this.#previous.has(keyId);
  }

  /** The id of the key a sealed credential names, or `undefined` when it is not in toolsmith's format. */
  static keyIdOf(sealed: string): string | undefined {
    const [format, keyId] = sealed.split(".");
    return format === FORMAT && keyId ? keyId : undefined;
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
    const key = keyId === this.keyId ? this.#key : this.#previous.get(keyId);
    if (!key) throw keyMismatch(keyId, this);
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64url"));
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

/** The error for a store whose credentials were sealed under key `storedId`, which `cipher` does not have. */
export function keyMismatch(storedId: string, cipher: CredentialCipher): CredentialKeyError {
  const previous = cipher.previousKeyIds;
  const held = previous.length === 0 ? `${CREDENTIAL_KEY_VARIABLE} holds key id ${cipher.keyId}` : `${CREDENTIAL_KEY_VARIABLE} holds key id ${cipher.keyId} and ${PREVIOUS_CREDENTIAL_KEYS_VARIABLE} key ids ${previous.join(", ")}`;
  return new CredentialKeyError(
    "CREDENTIAL_KEY_MISMATCH",
    `The stored credentials were encrypted under another key (key id ${storedId}); ${held}. Set ${CREDENTIAL_KEY_VARIABLE} to the key they were stored with${previous.length === 0 ? "" : `, or add it to ${PREVIOUS_CREDENTIAL_KEYS_VARIABLE}`}. Nothing was changed: the stored credentials are kept as they were.`,
  );
}

/** A stored credential, as the stores keep it: its owner and its sealed text. */
export interface SealedCredential extends CredentialOwner {
  sealed: string;
}

/**
 * Seals again under the current key each stored credential sealed under a previous one, for a store to write
 * back (in place of the text it read, and only if that is still there). A credential that does not open (changed
 * since) is left out, and so left as it is.
 */
export function resealUnderCurrentKey(cipher: CredentialCipher, stored: readonly SealedCredential[]): Array<SealedCredential & { resealed: string }> {
  const resealed: Array<SealedCredential & { resealed: string }> = [];
  for (const credential of stored) {
    const keyId = CredentialCipher.keyIdOf(credential.sealed);
    if (keyId === undefined || keyId === cipher.keyId || !cipher.knowsKey(keyId)) continue;
    try {
      resealed.push({ ...credential, resealed: cipher.seal(credential, cipher.open(credential, credential.sealed)) });
    } catch {
      // Unreadable: loading it says so, as it did before the key changed.
    }
  }
  return resealed;
}

function keyIdOf(key: Buffer): string {
  return createHmac("sha256", key).update("toolsmith credential key id").digest("hex").slice(0, 12);
}

/** A key written as base64 or hex, read from `variable` (`what` names it in errors: a previous key by its place). */
function keyFromText(text: string, variable: string, what?: string): Buffer {
  const subject = what ? `${what} ` : "it ";
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, "hex");
  if (/^[0-9a-f]{40,}$/i.test(text)) throw malformed(`${subject}looks like hex but has ${text.length} digits, not 64`, variable);
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) throw malformed(`${subject}is neither base64 nor hex`, variable);
  const key = Buffer.from(text, "base64");
  if (key.length !== 32) throw malformed(`${subject}is ${key.length} bytes long, not 32`, variable);
  return key;
}

function malformed(reason: string, variable = CREDENTIAL_KEY_VARIABLE): ConfigurationError {
  const subject = variable === CREDENTIAL_KEY_VARIABLE ? `${variable} is not a usable key` : `${variable} holds a key that is not usable`;
  return new ConfigurationError("CREDENTIAL_KEY_MALFORMED", `${subject}: ${reason}. It must be 32 random bytes written as base64 (44 characters) or hex (64). ${HOW_TO_MAKE_A_KEY}`);
}

function ownerBytes(owner: CredentialOwner): Buffer {
  return Buffer.from(JSON.stringify([owner.appName, owner.userId, owner.credentialKey]), "utf8");
}
