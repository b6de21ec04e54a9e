import { leavesContentsAlone } from "../models/llm-request.js";
import type { Context } from "../agents/context.js";
import type { Content, Part } from "../content/content.js";
import { appendInstructions, type LlmRequest } from "../models/llm-request.js";
import { BaseTool, type RunAsyncToolRequest, type ToolProcessLlmRequest } from "./base-tool.js";
import { toolErrorResult } from "./tool-result.js";

const NAME = "load_artifacts";

/** What `load_artifacts` answers once the named artifacts exist; ADK's words. */
const LOADED_STATUS = "artifact contents temporarily inserted and removed. to access these artifacts, call load_artifacts tool again.";

/**
 * ADK's `load_artifacts`: before each model call it lists the session's
 * artifacts in the instruction (ADK's words); when the model calls it with
 * names, the next request carries each named artifact right after the call's
 * response, as a user message `Artifact <name> is:` followed by the artifact
 * (files a model cannot read inline become text). The artifacts are not copied
 * into the stored events. A name that is not an artifact gets an error result
 * listing the ones there are (ADK skips it in silence).
 */
export class LoadArtifactsTool extends BaseTool {
  // Its processLlmRequest changes no content of the request in place: a request only it sees is not copied.
  static {
    leavesContentsAlone(LoadArtifactsTool.prototype.processLlmRequest);
  }

  constructor() {
    super({
      name: NAME,
      description: "Loads artifacts into the session for this request.\n\nNOTE: Call when you need access to artifacts (for example, uploads saved by the web UI).",
    });
  }

  override _getDeclaration() {
    return {
      name: this.name,
      description: this.description,
      parameters: { type: "OBJECT", properties: { artifact_names: { type: "ARRAY", items: { type: "STRING" }, description: "The names of the artifacts to load." } } },
    };
  }

  async runAsync({ args, toolContext }: RunAsyncToolRequest): Promise<unknown> {
    const names = (args.artifact_names as string[] | undefined) ?? [];
    if (names.length > 0 && toolContext.invocationContext.artifactService) {
      const available = await toolContext.listArtifacts();
      const missing = names.filter((name) => !available.includes(name) && !available.includes(`user:${name}`));
      if (missing.length > 0) {
        return toolErrorResult(`No artifact named ${missing.map((name) => JSON.stringify(name)).join(", ")}. Available: ${available.length ? available.join(", ") : "none"}. Call ${NAME} again with names from that list.`);
      }
    }
    return { artifact_names: names, status: LOADED_STATUS };
  }

  override async processLlmRequest({ toolContext, llmRequest }: ToolProcessLlmRequest): Promise<void> {
    if (!toolContext.invocationContext.artifactService) return;
    const names = await toolContext.listArtifacts();
    if (names.length === 0) return;
    appendInstructions(llmRequest, [
      `You have a list of artifacts:\n  ${JSON.stringify(names)}\n\n  When the user asks questions about any of the artifacts, you should call the\n  \`load_artifacts\` function to load the artifact. Always call load_artifacts\n  before answering questions related to the artifacts, regardless of whether the\n  artifacts have been loaded before. Do not depend on prior answers about the\n  artifacts.`,
    ]);
    const loaded = await loadRequestedArtifacts(toolContext, llmRequest.contents.at(-1));
    // A new list rather than a push: the request's contents may share their array with the session's history.
    if (loaded.length > 0) llmRequest.contents = [...llmRequest.contents, ...loaded];
  }
}

/** ADK's instance of {@link LoadArtifactsTool}. */
export const LOAD_ARTIFACTS = new LoadArtifactsTool();

/** One user message per artifact the last message's `load_artifacts` response named, as ADK adds them. */
async function loadRequestedArtifacts(context: Context, last: Content | undefined): Promise<Content[]> {
  const response = last?.role === "user" ? last.parts?.[0]?.functionResponse : undefined;
  if (response?.name !== NAME) return [];
  const loaded: Content[] = [];
  for (const name of (response.response?.artifact_names as string[] | undefined) ?? []) {
    const artifact = (await context.loadArtifact(name)) ?? (name.startsWith("user:") ? undefined : await context.loadArtifact(`user:${name}`));
    if (!artifact) continue;
    loaded.push({ role: "user", parts: [{ text: `Artifact ${name} is:` }, readablePart(artifact, name)] });
  }
  return loaded;
}

const INLINE_MIME_PREFIXES = ["image/", "audio/", "video/"];
const TEXT_LIKE_MIME_TYPES = new Set(["application/csv", "application/json", "application/xml"]);

/**
 * The artifact as a part the model can read, as ADK makes it: images, audio,
 * video and PDF inline; text-like files as their text; other files as a line
 * naming their type and size.
 */
function readablePart(artifact: Part, name: string): Part {
  const inline = artifact.inlineData;
  if (!inline) return artifact;
  const mimeType = inline.mimeType?.split(";")[0]!.trim() || undefined;
  if (mimeType && (INLINE_MIME_PREFIXES.some((prefix) => mimeType.startsWith(prefix)) || mimeType === "application/pdf")) return artifact;
  const type = mimeType ?? "application/octet-stream";
  if (!inline.data) return { text: `[Artifact: ${name}, type: ${type}. No inline data was provided.]` };
  const bytes = Uint8Array.from(atob(inline.data), (character) => character.charCodeAt(0));
  if (type.startsWith("text/") || TEXT_LIKE_MIME_TYPES.has(type)) return { text: new TextDecoder().decode(bytes) };
  return { text: `[Binary artifact: ${name}, type: ${type}, size: ${(bytes.length / 1024).toFixed(1)} KB. Content cannot be displayed inline.]` };
}
