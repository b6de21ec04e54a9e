import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { AppRegistry } from "../server/app-registry.js";
import { createApiApp, DEFAULT_MAX_BODY_BYTES, LOOPBACK_HOSTS } from "../server/create-api-app.js";
import { modelWarnings } from "../server/model-requirements.js";
import { DEFAULT_SERVICE_URIS, openServices } from "../server/open-services.js";
import { startServer } from "../server/start-server.js";
import { startOtlpExport } from "../server/otlp-export.js";
import { createLogger, isLogLevel, LOG_LEVELS, type LogLevel } from "../server/request-log.js";
import { RunTracker } from "../server/run-tracker.js";
import type { CliIo } from "./cli-io.js";
import { EXIT, UsageError } from "./exit-codes.js";
import { listenOn, parsePort, untilInterrupted } from "./listening.js";
import { agentSource, loaderFor } from "./load-agent.js";

/** The environment variable ADK's API server reads the A2A bearer token from, read the same way. */
const A2A_AUTH_TOKEN_VARIABLE = "ADK_A2A_AUTH_TOKEN";

/** The options `web` and `api-server` share. */
export const SERVE_OPTIONS = {
  host: { type: "string", default: "127.0.0.1" },
  port: { type: "string", default: "8000" },
  // No default: without one, openServices picks SQLite or memory by the drivers this Node has.
  "session-service-uri": { type: "string" },
  "artifact-service-uri": { type: "string", default: DEFAULT_SERVICE_URIS.artifactServiceUri },
  // No defaults: memory goes beside the sessions, and credentials too when TOOLSMITH_CREDENTIAL_KEY is set.
  "memory-service-uri": { type: "string" },
  "credential-service-uri": { type: "string" },
  reload: { type: "boolean", default: false },
  "allow-origin": { type: "string", multiple: true },
  "tokens-file": { type: "string" },
  "max-body-bytes": { type: "string" },
  "adk-dev-ui": { type: "boolean", default: false },
  "log-level": { type: "string" },
  "shutdown-grace": { type: "string", default: "20" },
  a2a: { type: "boolean", default: false },
  "a2a-auth-token": { type: "string" },
} as const;

type ServeValues = { [K in keyof typeof SERVE_OPTIONS]?: (typeof SERVE_OPTIONS)[K] extends { type: "boolean" } ? boolean : (typeof SERVE_OPTIONS)[K] extends { multiple: true } ? string[] : string };

/**
 * `toolsmith web|api-server [agents]`: serves the API (and with `web`, the UI)
 * until interrupted. `agents` is an agents directory, one app's folder or one
 * module; default the working directory. Every app is loaded before the server
 * listens, so a module that cannot load stops the command with its reason.
 */
export async function serveCommand(options: { io: CliIo; agentsPath: string | undefined; values: ServeValues; webUi: boolean }): Promise<number> {
  const { io, values } = options;
  const port = parsePort(values.port);
  const maxBodyBytes = values["max-body-bytes"] === undefined ? DEFAULT_MAX_BODY_BYTES : Number(values["max-body-bytes"]);
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) throw new UsageError("--max-body-bytes must be a positive whole number.");
  const tokens = values["tokens-file"] ? readTokens(values["tokens-file"]) : undefined;
  const host = values.host ?? "127.0.0.1";
  const logger = createLogger({ level: logLevel(values["log-level"] ?? process.env.TOOLSMITH_LOG_LEVEL, options.webUi ? "warn" : "info") });
  const graceSeconds = Number(values["shutdown-grace"] ?? "20");
  if (!Number.isFinite(graceSeconds) || graceSeconds < 0) throw new UsageError("--shutdown-grace must be a number of seconds, 0 or more.");
  // Registered before any run, so runs trace through the SDK (with its context manager) from the first request.
  const telemetry = await startOtlpExport();

  const loader = loaderFor(agentSource(options.agentsPath), { reload: values.reload });
  for (const appName of loader.listApps()) await loader.load(appName);
  const services = await openServices({
    sessionServiceUri: values["session-service-uri"],
    artifactServiceUri: values["artifact-service-uri"],
    memoryServiceUri: values["memory-service-uri"],
    credentialServiceUri: values["credential-service-uri"],
  });
  const registry = new AppRegistry({ loader, services });
  const runs = new RunTracker();
  const a2aAuthToken = values["a2a-auth-token"] || process.env[A2A_AUTH_TOKEN_VARIABLE] || undefined;
  if (values.a2a && !a2aAuthToken && !isLoopback(host)) {
    throw new UsageError(`--a2a on ${host} needs --a2a-auth-token or ${A2A_AUTH_TOKEN_VARIABLE}: anyone who can reach the port could run your agents and their tools over A2A. Without a token the A2A surface is served on a loopback host only.`);
  }
  let serverUrl = "";
  const app = createApiApp({
    runs,
    logger,
    registry,
    tokens,
    corsOrigins: values["allow-origin"],
    maxBodyBytes,
    webUi: options.webUi,
    adkDevUiDir: values["adk-dev-ui"] ? adkDevUiDir() : undefined,
    // On loopback, only loopback names: a page that rebinds its domain to 127.0.0.1 gets 403.
    allowedHosts: isLoopback(host) ? [...LOOPBACK_HOSTS, host.includes(":") ? `[${host}]` : host] : undefined,
    a2a: values.a2a ? { authToken: a2aAuthToken, publicUrl: () => serverUrl } : undefined,
  });
  const server = await listenOn(port, () => startServer({ app, host, port, maxMessageBytes: maxBodyBytes }), () => registry.close());
  serverUrl = server.url;
  const apps = registry.listApps();
  io.stdout.write(`toolsmith ${options.webUi ? "web UI" : "API server"} at ${server.url}/ serving ${apps.length} app(s): ${apps.join(", ") || "none"}\n`);
  if (values["adk-dev-ui"]) io.stdout.write(`ADK dev UI at ${server.url}/dev-ui/\n`);
  if (values.a2a) {
    io.stdout.write(`A2A: each app's agent card at ${server.url}/a2a/<app>/.well-known/agent-card.json${a2aAuthToken ? " (callers send Authorization: Bearer <token>)" : ""}\n`);
    if (!a2aAuthToken) io.stderr.write(`warning: the A2A surface is served without authentication (no --a2a-auth-token or ${A2A_AUTH_TOKEN_VARIABLE}); it is on a loopback host only.\n`);
  }
  if (!isLoopback(host) && !tokens) io.stderr.write(`warning: listening on ${host} without --tokens-file: anyone who can reach this port can run your agents and read every session.\n`);
  if (services.storageNotice) io.stderr.write(`note: ${services.storageNotice}\n`);
  // Only apps whose models need a variable that is unset get a note; apps that run without keys get none.
  for (const warning of await modelWarnings({ registry })) io.stderr.write(`note: ${warning}\n`);
  if (telemetry) io.stderr.write(`note: exporting traces and metrics over OTLP to ${process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT}\n`);
  await untilInterrupted(io);
  // A stop (SIGTERM from a service manager, Ctrl-C): no new runs, running ones get the grace period, the rest
  // are cancelled with their sessions stored as far as they got; then the process exits 0.
  logger.log("info", "shutting down", { runs: runs.active, grace_seconds: graceSeconds });
  const drained = await runs.drain({ graceMs: graceSeconds * 1000 });
  logger.log(drained.interrupted ? "warn" : "info", "runs drained", { ...drained });
  await server.close({ graceMs: 2_000 });
  await telemetry?.shutdown();
  await registry.close();
  return EXIT.OK;
}

function readTokens(path: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new UsageError(`--tokens-file ${path} could not be read as JSON: ${(error as Error).message}`);
  }
  const valid = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && Object.values(parsed).every((user) => typeof user === "string" && user);
  if (!valid || Object.keys(parsed as object).length === 0) throw new UsageError(`--tokens-file ${path} must hold a JSON object mapping each token to a user id, like {"secret-token": "alice"}.`);
  return parsed as Record<string, string>;
}

/** The level named, in toolsmith's words or ADK's (`--log_level WARNING`, any case). */
function logLevel(given: string | undefined, fallback: LogLevel): LogLevel {
  if (given === undefined || given === "") return fallback;
  const value = ({ warning: "warn", critical: "error" } as Record<string, string>)[given.toLowerCase()] ?? given.toLowerCase();
  if (!isLogLevel(value)) throw new UsageError(`--log-level (or TOOLSMITH_LOG_LEVEL) must be one of ${LOG_LEVELS.join(", ")}, not "${given}".`);
  return value;
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host.startsWith("127.");
}

/** The Angular build inside `@google/adk-devtools`, when that package is installed. */
function adkDevUiDir(): string {
  try {
    // The package exports only its code; its browser build sits next to it under dist/.
    const entry = createRequire(import.meta.url).resolve("@google/adk-devtools");
    return join(dirname(entry), "..", "browser");
  } catch {
    throw new UsageError("--adk-dev-ui needs the @google/adk-devtools package: npm install -D @google/adk-devtools");
  }
}
