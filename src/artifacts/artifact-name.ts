import { ToolsmithError } from "../errors/toolsmith-error.js";

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
  const name = isUserScopedArtifact(filename) ? filename.slice(5) : filename;
  if (name.startsWith("/") || name.startsWith("\\") || /^[a-zA-Z]:/.test(name)) throw new InvalidArtifactNameError(filename, "it is an absolute path");
  if (name.split(/[\\/]/).some((segment) => segment === ".." || segment === "." || segment === "")) {
    throw new InvalidArtifactNameError(filename, 'it has an empty, "." or ".." path segment');
  }
}
