/**
 * toolsmith's HTTP API server (ADK's API server endpoints plus toolsmith's own)
 * and what it is built from. Loads Hono; the root `toolsmith` entry does not.
 *
 * @module toolsmith/server
 */
export { createApiApp, DEFAULT_MAX_BODY_BYTES, LOOPBACK_HOSTS, WEB_UI_DIR, type ApiAppOptions } from "./create-api-app.js";
export { startServer, type RunningServer } from "./start-server.js";
export { AgentLoader, AppNotFoundError, type AgentLoaderOptions } from "./agent-loader.js";
export { AppRegistry, type AppRegistryOptions } from "./app-registry.js";
export { openServices, DEFAULT_SERVICE_URIS, type ServiceUris, type Services } from "./open-services.js";
export { describeTools, type ToolDescription } from "./describe-tools.js";
export { providerSchemaFor, lintTools, PROVIDERS, type Provider, type SchemaLintWarning } from "./provider-schemas.js";
export { modelCredentialStatus, MODEL_CREDENTIAL_VARIABLES, type ModelCredentialStatus } from "./model-credentials.js";
export { modelRequirements, modelWarnings, type AppModelRequirements, type ModelRequirement } from "./model-requirements.js";
export { HttpError } from "./http-error.js";
export type { TraceSpan } from "./trace-store.js";
