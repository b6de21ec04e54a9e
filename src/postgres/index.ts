/**
 * PostgreSQL services: sessions, long-term memory, artifacts and credentials
 * (encrypted) for many server processes over one database, through the optional peer `pg`
 * (`npm install pg`).
 *
 * @module toolsmith/postgres
 */
export { PostgresSessionService } from "./postgres-session-service.js";
export { PostgresMemoryService } from "./postgres-memory-service.js";
export { PostgresArtifactService, type PostgresArtifactOptions } from "./postgres-artifact-service.js";
export { PostgresCredentialService, type PostgresCredentialOptions } from "./postgres-credential-service.js";
export type { PostgresOptions } from "./postgres-database.js";
