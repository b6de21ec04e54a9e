import type { ArtifactService } from "../artifacts/artifact-service.js";
import type { Content, Part } from "../content/content.js";
import type { SessionKey } from "../sessions/session-service.js";
import { logger } from "../logging/logger.js";

/**
 * `runConfig.saveInputBlobsAsArtifacts`, as ADK's runner does it: each `inlineData` part of the user's message is
 * saved as an artifact of the session, named by its `displayName` or `artifact_<invocationId>_<part index>`, and
 * replaced by the text `[Uploaded Artifact: "<name>"]` (followed by a `fileData` part when the store gives the
 * artifact a `gs:` or `http(s):` address). Returns `message` itself when it carries no file.
 *
 * A part whose save fails stays in the message as it came: the model still sees the file and nothing is lost,
 * where dropping it would lose what the person sent. The failure goes to the logger, as ADK logs it.
 */
export async function saveInputBlobs(artifactService: ArtifactService, place: SessionKey, invocationId: string, message: Content): Promise<Content> {
  const parts = message.parts;
  if (!parts?.some((part) => part.inlineData)) return message;
  const saved: Part[] = [];
  for (const [index, part] of parts.entries()) {
    if (!part.inlineData) {
      saved.push(part);
      continue;
    }
    const filename = part.inlineData.displayName || `artifact_${invocationId}_${index}`;
    let version: number;
    try {
      version = await artifactService.saveArtifact({ ...place, filename, artifact: part });
    } catch (error) {
      logger.warn(`saveInputBlobsAsArtifacts: "${filename}" could not be saved as an artifact, so it stays in the message as it came: ${(error as Error)?.message ?? String(error)}`);
      saved.push(part);
      continue;
    }
    saved.push({ text: `[Uploaded Artifact: "${filename}"]` });
    const stored = await artifactService.getArtifactVersion({ ...place, filename, version }).catch(() => undefined);
    if (stored?.canonicalUri && /^(gs|https?):/i.test(stored.canonicalUri)) {
      saved.push({ fileData: { fileUri: stored.canonicalUri, mimeType: stored.mimeType || part.inlineData.mimeType || "", displayName: filename } });
    }
  }
  return { ...message, parts: saved };
}
