/**
 * Artifacts on the local filesystem, versioned from 0, with their MIME types.
 * Node only; no extra package needed.
 *
 * @module toolsmith/artifacts/file
 */
export { FileArtifactService, type FileArtifactServiceOptions } from "./file-artifact-service.js";
