import type { ArtifactService } from "../artifacts/artifact-service.js";
import { CREDENTIAL_KEY_VARIABLE } from "../auth/credential-encryption.js";
import type { CredentialService } from "../auth/credential-service.js";
import type { MemoryService } from "../memory/memory-service.js";
import { createArtifactService, DEFAULT_ARTIFACT_URI } from "../services/create-artifact-service.js";
import { createCredentialService } from "../services/create-credential-service.js";
import type { ClosableService } from "../services/create-session-service.js";
import { createMemoryService } from "../services/create-memory-service.js";
import { createSessionService } from "../services/create-session-service.js";
import { defaultStorage } from "../services/default-storage.js";
import { DEFAULT_DATABASE_URI } from "../services/service-uri.js";
import type { SessionService } from "../sessions/session-service.js";

/**
 * Where the CLI and the server keep sessions, memory and artifacts when no URI
 * is given: a SQLite file and a folder under `.toolsmith/` in the working
 * directory, so nothing needs setting up and nothing is lost on a restart.
 * Sessions and memory go to the SQLite file only when this process has a
 * SQLite driver, and to memory otherwise (see {@link defaultStorage}).
 */
export const DEFAULT_SERVICE_URIS = {
  sessionServiceUri: DEFAULT_DATABASE_URI,
  artifactServiceUri: DEFAULT_ARTIFACT_URI,
  memoryServiceUri: DEFAULT_DATABASE_URI,
} as const;

/** Options of {@link openServices}: one URI per service (`memory://`, `sqlite://…`, `postgres://…`, `file://…`, `s3://…`). */
export interface ServiceUris {
  sessionServiceUri?: string;
  artifactServiceUri?: string;
  memoryServiceUri?: string;
  /** Default: the sessions' database when it is one and `TOOLSMITH_CREDENTIAL_KEY` is set, else `memory://`. */
  credentialServiceUri?: string;
}

/** The services a server or a CLI command runs on. */
export interface Services {
  sessionService: SessionService;
  artifactService: ArtifactService;
  memoryService: MemoryService;
  credentialService: CredentialService;
  /**
   * Set when no session URI was given and no SQLite driver works here, so
   * sessions are in memory: one line for the user saying they are lost on
   * exit, why, and how to keep them.
   */
  storageNotice?: string;
  /** Closes the database connections and files the services hold. */
  close(): Promise<void>;
}

/** The services a runner takes, from the bundle (without its notice and its `close`, which are the caller's). */
export function runnerServices(services: Services): Pick<Services, "sessionService" | "artifactService" | "memoryService" | "credentialService"> {
  return { sessionService: services.sessionService, artifactService: services.artifactService, memoryService: services.memoryService, credentialService: services.credentialService };
}

/** Memory lives in the sessions' database when they have one, and in memory when they are in memory. */
function memoryBesideSessions(sessionServiceUri: string): string {
  return /^(sqlite|postgres|postgresql):/i.test(sessionServiceUri) ? sessionServiceUri : "memory://";
}

/**
 * Credentials are encrypted at rest, so they go beside the sessions only when a
 * key is set; without one they stay in this process's memory, as before.
 */
function credentialsBesideSessions(sessionServiceUri: string): string {
  return process.env[CREDENTIAL_KEY_VARIABLE] ? memoryBesideSessions(sessionServiceUri) : "memory://";
}

/**
 * Opens the session, artifact, memory and credential services the URIs name,
 * the defaults for those not given; memory defaults to the sessions' database,
 * and so do credentials when `TOOLSMITH_CREDENTIAL_KEY` is set. Without a
 * session URI, sessions go to SQLite when a driver works here and to memory
 * otherwise, with {@link Services.storageNotice} saying so; a `sqlite://` URI
 * given explicitly never falls back to memory (it throws `DRIVER_MISSING`).
 * When one service cannot open, those that did are closed again and its error
 * is thrown.
 */
export async function openServices(uris: ServiceUris = {}): Promise<Services> {
  const { uri: sessionServiceUri, notice } = uris.sessionServiceUri === undefined ? defaultStorage() : { uri: uris.sessionServiceUri, notice: undefined };
  const opening = [
    createSessionService(sessionServiceUri),
    createArtifactService(uris.artifactServiceUri ?? DEFAULT_SERVICE_URIS.artifactServiceUri),
    createMemoryService(uris.memoryServiceUri ?? memoryBesideSessions(sessionServiceUri)),
    createCredentialService(uris.credentialServiceUri ?? credentialsBesideSessions(sessionServiceUri)),
  ] as const;
  const settled = await Promise.allSettled<Promise<ClosableService<object>>>(opening);
  const failed = settled.find((result) => result.status === "rejected");
  if (failed) {
    // A pool or file left open would keep the process alive after the error is printed.
    await Promise.all(settled.map((result) => (result.status === "fulfilled" ? result.value.close().catch(() => undefined) : undefined)));
    throw failed.reason;
  }
  const [sessionService, artifactService, memoryService, credentialService] = await Promise.all(opening);
  return {
    sessionService,
    artifactService,
    memoryService,
    credentialService,
    ...(notice ? { storageNotice: notice } : {}),
    close: async () => {
      await Promise.all([sessionService.close(), artifactService.close(), memoryService.close(), credentialService.close()]);
    },
  };
}
