import { ConfigurationError, ToolsmithError } from "../errors/toolsmith-error.js";
import type { Part } from "../content/content.js";
import type { ArtifactKey, ListArtifactsRequest } from "./artifact-service.js";
import { describeGiven, refuseUnlessId } from "../errors/unhonoured-option.js";

/** An artifact name that could escape its storage root or is otherwise unusable. */
export class InvalidArtifactNameError extends ToolsmithError {
  constructor(filename: string, reason: string) {
    super(
      "INVALID_ARTIFACT_NAME",
      `Artifact name ${JSON.stringify(filename)} is not allowed: ${reason}. Use a relative name such as "report.pdf" or "user:profile.png", without "..", leading "/" or "\\".`,
    );
  }
}

/** Whether an artifact is shared by all of a user's sessions. */
export function isUserScopedArtifact(filename: string): boolean {
  return filename.startsWith("user:");
}

/** Throws {@link InvalidArtifactNameError} for names that could leave the artifact root. */
export function assertArtifactName(filename: string): void {
  if (filename.length === 0) throw new InvalidArtifactNameError(filename, "it is empty");
  if (filename.includes("\0")) throw new InvalidArtifactNameError(filename, "it contains a NUL byte");
  // An event's artifactDelta is keyed by the name; merged or set, a "__proto__" key would change the record's prototype and the save would vanish from the event.
  if (filename === "__proto__") throw new InvalidArtifactNameError(filename, "it is the one name an event's artifactDelta cannot record");
  const name = isUserScopedArtifact(filename) ? filename.slice(5) : filename;
  if (name.startsWith("/") || name.startsWith("\\") || /^[a-zA-Z]:/.test(name)) throw new InvalidArtifactNameError(filename, "it is an absolute path");
  if (name.split(/[\\/]/).some((segment) => segment === ".." || segment === "." || segment === "")) {
    throw new InvalidArtifactNameError(filename, 'it has an empty, "." or ".." path segment');
  }
}

function refuseRequest(message: string): never {
  throw new ConfigurationError("UNSUPPORTED_OPTION", message);
}

/**
 * Refuses an artifact request whose app, user or session id is not a non-empty string (a file store would keep it
 * in a folder named "undefined", SQL would match nothing) or whose name is unusable ({@link assertArtifactName}). A
 * `user:` name is the user's across sessions and needs no session id; a listing (`listing`) has no name and needs one.
 */
export function assertArtifactKey(request: unknown, { listing = false }: { listing?: boolean } = {}): asserts request is ArtifactKey & ListArtifactsRequest {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    refuseRequest(`An artifact request is an object: { appName, userId, sessionId${listing ? "" : ', filename: "report.pdf"'} }; it got ${describeGiven(request)}.`);
  }
  const fields = request as Record<string, unknown>;
  for (const id of ["appName", "userId"]) refuseUnlessId("An artifact request", id, fields[id]);
  const filename = fields.filename;
  if (!listing) {
    if (typeof filename !== "string") refuseRequest(`An artifact request needs filename, the artifact's name ("report.pdf", or "user:profile.png" for one the user's sessions share); it got ${describeGiven(filename)}.`);
    assertArtifactName(filename);
  }
  const sessionNeeded = listing || !isUserScopedArtifact(filename as string);
  if (sessionNeeded && (typeof fields.sessionId !== "string" || fields.sessionId === "")) {
    refuseRequest(`An artifact request needs sessionId as a non-empty string${listing ? "" : ' (or a "user:" name, shared by the user\'s sessions)'}; it got ${describeGiven(fields.sessionId)}.`);
  }
}

/** Refuses an artifact to save that is not a part (`{ text }`, `{ inlineData: { mimeType, data } }`): a bare string would come back as something else. */
export function assertArtifactPart(artifact: unknown): asserts artifact is Part {
  if (typeof artifact !== "object" || artifact === null || Array.isArray(artifact)) {
    refuseRequest(
      `An artifact is a part: { text: "…" }, or { inlineData: { mimeType: "image/png", data: "<base64>" } }; it got ${describeGiven(artifact)}${typeof artifact === "string" ? ' (save a text as { text: "…" })' : ""}.`,
    );
  }
}
