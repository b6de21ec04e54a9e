import { requestClientCredentialsToken, type ClientCredentials } from "./oauth2.js";

export type { ClientCredentials };

/** Whether a credential is a {@link ClientCredentials}. */
export function isClientCredentials(credential: object): credential is ClientCredentials {
  return typeof (credential as Partial<ClientCredentials>).clientId === "string" && typeof (credential as Partial<ClientCredentials>).clientSecret === "string";
}

/** Seconds before its expiry that a token is taken as expired, so that no request leaves with a token that lapses on the way. */
const EXPIRY_MARGIN_SECONDS = 60;

interface HeldToken {
  accessToken: string;
  /** Seconds since the epoch; `undefined` when the endpoint gave no lifetime. */
  expiresAt: number | undefined;
}

/**
 * Access tokens obtained with one client's credentials, kept for their lifetime and shared by every call: one per
 * token endpoint and set of scopes. Calls that need a token while one is being requested wait for that request
 * (one request, however many calls); a request that fails is not kept, so the next call asks again. Tokens live in
 * this process only: they are the client's, not a user's, and are never stored in a session or a credential
 * service.
 */
export class ClientCredentialsTokens {
  readonly #credentials: ClientCredentials;
  readonly #fetch: typeof fetch;
  readonly #held = new Map<string, HeldToken>();
  readonly #pending = new Map<string, Promise<HeldToken>>();
  readonly #timeoutMs: number;

  /** `timeoutMs` bounds each token request (30 s by default), so that a token endpoint that never answers cannot hold every later call. */
  constructor(credentials: ClientCredentials, fetchImplementation: typeof fetch = fetch, options: { timeoutMs?: number } = {}) {
    this.#credentials = credentials;
    this.#fetch = fetchImplementation;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** A token for these scopes from this endpoint: the one held while it has more than a minute left, else a new one. */
  async accessToken(tokenUrl: string, scopes: readonly string[], signal?: AbortSignal): Promise<string> {
    const key = tokenKey(tokenUrl, scopes);
    const held = this.#held.get(key);
    if (held && (held.expiresAt === undefined || held.expiresAt - EXPIRY_MARGIN_SECONDS > Date.now() / 1000)) return held.accessToken;
    let pending = this.#pending.get(key);
    if (!pending) {
      // Not tied to one call's signal (other calls may be waiting for the same token), but bounded in time.
      pending = requestClientCredentialsToken(tokenUrl, this.#credentials, scopes, this.#fetch, AbortSignal.timeout(this.#timeoutMs)).then((tokens) => ({ accessToken: tokens.accessToken!, expiresAt: tokens.expiresAt }));
      this.#pending.set(key, pending);
      pending.then(
        (token) => {
          this.#held.set(key, token);
          this.#pending.delete(key);
        },
        () => this.#pending.delete(key),
      );
    }
    return (await abortable(pending, signal)).accessToken;
  }

  /** Forgets a token the API refused (revoked before its time): the next call asks for a new one. */
  forget(tokenUrl: string, scopes: readonly string[], accessToken: string): void {
    const key = tokenKey(tokenUrl, scopes);
    if (this.#held.get(key)?.accessToken === accessToken) this.#held.delete(key);
  }
}

/** Where a token is kept: by endpoint and set of scopes, whatever their order or repeats. */
function tokenKey(tokenUrl: string, scopes: readonly string[]): string {
  return `${tokenUrl} ${[...new Set(scopes)].sort().join(" ")}`;
}

/** `promise`, or a rejection as soon as `signal` aborts (the promise itself goes on for whoever else waits). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", stop);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", stop);
        reject(error);
      },
    );
  });
}
