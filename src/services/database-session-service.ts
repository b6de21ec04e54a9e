import { redactUriPassword } from "../errors/redact-uri.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { Event } from "../events/event.js";
import { BaseSessionService } from "../sessions/base-session-service.js";
import { InMemorySessionService } from "../sessions/in-memory-session-service.js";
import type { Session } from "../sessions/session.js";
import type { AppendEventRequest, CreateSessionRequest, GetSessionRequest, ListSessionsRequest, ListSessionsResponse, SessionKey, SessionService } from "../sessions/session-service.js";
import { createSessionService, type ClosableService } from "./create-session-service.js";
import { OpenedOnFirstUse } from "./opened-on-first-use.js";
import { parseServiceUri } from "./service-uri.js";

/** The schemes a database connection string may have: the stores toolsmith has. */
const DATABASE_SCHEMES = ["sqlite", "postgres", "postgresql"] as const;
/** Databases ADK's `DatabaseSessionService` reaches through MikroORM and toolsmith does not. */
const OTHER_DATABASES = /^(mysql|mariadb|mssql):\/\//i;

/**
 * ADK's `DatabaseSessionService`: sessions kept in the database a connection string names, `sqlite://<path>` or
 * `postgresql://user:password@host:port/database`, opened on first use (or by `init()`), as ADK's is. The store
 * behind it is toolsmith's `SqliteSessionService` or `PostgresSessionService`, whose driver is imported only then;
 * the tables are toolsmith's, so a database ADK wrote is not read. `close()` releases the file or connections.
 *
 * The connection string is checked when the service is made; a database the string names that cannot be opened
 * (a folder that does not exist, a server that does not answer) fails the call that opened it, and the next call
 * tries again.
 *
 * @example
 * ```ts
 * const sessionService = new DatabaseSessionService("sqlite://sessions.db");
 * const runner = new Runner({ appName: "app", agent, sessionService });
 * ```
 */
export class DatabaseSessionService extends BaseSessionService implements ClosableService<SessionService> {
  readonly #store: OpenedOnFirstUse<ClosableService<SessionService>>;

  constructor(connectionString: string) {
    super();
    if (typeof connectionString !== "string") {
      throw new ConfigurationError(
        "UNSUPPORTED_OPTION",
        "DatabaseSessionService takes a connection string (sqlite://<path> or postgresql://user:password@host/database); ADK's MikroORM options object is not supported, as toolsmith uses the database drivers directly.",
      );
    }
    checkDatabaseConnectionString(connectionString, "DatabaseSessionService");
    this.#store = new OpenedOnFirstUse(() => createSessionService(connectionString));
  }

  /** Opens the database (its driver, its file or connections, its tables), as ADK's `init()`; the first call does it. */
  async init(): Promise<void> {
    await this.#store.get();
  }

  async createSession(request: CreateSessionRequest): Promise<Session> {
    return (await this.#store.get()).createSession(request);
  }

  override async getOrCreateSession(request: CreateSessionRequest): Promise<Session> {
    return (await this.#store.get()).getOrCreateSession(request);
  }

  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    return (await this.#store.get()).getSession(request);
  }

  async listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    return (await this.#store.get()).listSessions(request);
  }

  async deleteSession(request: SessionKey): Promise<void> {
    return (await this.#store.get()).deleteSession(request);
  }

  override async appendEvent(request: AppendEventRequest): Promise<Event> {
    return (await this.#store.get()).appendEvent(request);
  }

  /** Closes the store, when it was opened (waiting for an opening under way); a service never used has nothing to close. */
  close(): Promise<void> {
    return this.#store.close();
  }
}

/**
 * ADK's `getSessionServiceFromUri`: `memory://` gives an {@link InMemorySessionService}, `sqlite://<path>` and
 * `postgresql://…` a {@link DatabaseSessionService} (opened on first use). Anything else is refused, saying which
 * URIs there are. The asynchronous `createSessionService(uri)` opens the database before it returns.
 */
export function getSessionServiceFromUri(uri: string): SessionService {
  if (uri === "memory://") return new InMemorySessionService();
  return new DatabaseSessionService(checkDatabaseConnectionString(uri, "getSessionServiceFromUri"));
}

/** `uri` when it names a database toolsmith keeps sessions in; else a `ConfigurationError` saying what to use. */
function checkDatabaseConnectionString(uri: string, receiver: string): string {
  if (OTHER_DATABASES.test(uri)) {
    throw new ConfigurationError("UNKNOWN_SERVICE_URI", `${receiver} got ${JSON.stringify(redactUriPassword(uri))}: toolsmith keeps sessions in SQLite or PostgreSQL (sqlite://<path>, postgresql://…), not MySQL, MariaDB or SQL Server.`);
  }
  if (/^vertexai:\/\//i.test(uri)) {
    throw new ConfigurationError("UNKNOWN_SERVICE_URI", `${receiver} got a vertexai:// URI: toolsmith has no Vertex AI session service. Keep sessions in SQLite or PostgreSQL (sqlite://<path>, postgresql://…).`);
  }
  if (uri === "memory://") {
    throw new ConfigurationError("UNKNOWN_SERVICE_URI", `${receiver} got memory://, which names no database: use new InMemorySessionService(), or getSessionServiceFromUri("memory://").`);
  }
  parseServiceUri(uri, { service: "database session", schemes: DATABASE_SCHEMES, example: "sqlite://sessions.db" });
  return uri;
}
