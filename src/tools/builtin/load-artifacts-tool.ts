import { LoadArtifactsTool } from "../load-artifacts-tool.js";
import type { Tool } from "../tool.js";

/**
 * `load_artifacts(artifact_names)`: before each model call the session's
 * artifact names are listed in the instructions; when the model calls the
 * tool, the named artifacts are added to the next request right after the
 * call's response, not copied into the stored events. ADK's `LoadArtifactsTool`.
 */
export function createLoadArtifactsTool(): Tool {
  return new LoadArtifactsTool();
}
