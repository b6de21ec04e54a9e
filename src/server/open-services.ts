import type { ArtifactService } from "../artifacts/artifact-service.js";
import { InMemoryArtifactService } from "../artifacts/in-memory-artifact-service.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { InMemoryMemoryService } from "../memory/in-memory-memory-service.js";
import type { MemoryService } from "../memory/memory-service.js";
import { InMemorySessionService } from "../sessions/in-memory-session-service.js";
import type { SessionService } from "../sessions/session-service.js";

/**
 * Where the CLI keeps sessions and artifacts when no URI is given. In memory
 * for now: once the SQLite and folder services are merged these become
 * `sqlite://.toolsmith/toolsmith.db` and `file://.toolsmith/artifacts`, and
 * {@link openServices} hands other schemes to their factory.
 */
export const DEFAULT_SERVICE_URIS = {
  sessionServiceUri: "memory://",
  artifactServiceUri: "memory://",
  memoryServiceUri: "memory://",
} as const;

/** Options of {@link openServices}: one URI per service, `memory://` by default. */
export interface ServiceUris {
  sessionServiceUri?: string;
  artifactServiceUri?: string;
  memoryServiceUri?: string;
}

/** The services a server or a CLI command runs on. */
export interface Services {
  sessionService: SessionService;
  artifactService: ArtifactService;
  memoryService: MemoryService;
}

/** Opens the session, artifact and memory services the URIs name. */
export async function openServices(uris: ServiceUris = {}): Promise<Services> {
  return {
    sessionService: open(uris.sessionServiceUri, "session", () => new InMemorySessionService()),
    artifactService: open(uris.artifactServiceUri, "artifact", () => new InMemoryArtifactService()),
    memoryService: open(uris.memoryServiceUri, "memory", () => new InMemoryMemoryService()),
  };
}

function open<T>(uri: string | undefined, kind: string, inMemory: () => T): T {
  const scheme = (uri ?? "memory://").split(":", 1)[0]!.toLowerCase();
  if (scheme === "memory") return inMemory();
  throw new ConfigurationError(
    "UNSUPPORTED_SERVICE_URI",
    `The ${kind} service URI "${uri}" uses the scheme "${scheme}:", which this build of toolsmith cannot open. Use memory://.`,
  );
}
