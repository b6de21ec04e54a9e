import type { GetPromptResult, PromptMessage, ReadResourceResult, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import type { Agent } from "../agents/agent.js";
import type { ArtifactService } from "../artifacts/artifact-service.js";
import { ToolsmithError } from "../errors/toolsmith-error.js";
import type { Session } from "../sessions/session.js";

/** What a resource's `read` is given: the toolsmith session behind the MCP session (its state is read-only here). */
export interface McpReadContext {
  session: Session;
}

/** A resource's body: text, bytes, or base64 (`{blob}`), with an optional MIME type overriding the declared one. */
export type McpResourceBody = string | Uint8Array | { text: string; mimeType?: string } | { blob: string; mimeType?: string };

/** A resource served at a fixed URI. */
export interface McpServedResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(context: McpReadContext): McpResourceBody | Promise<McpResourceBody>;
}

/** Completes an argument or template variable: the values that start with what the user typed so far. */
export type McpCompleter = (value: string, context: { arguments: Record<string, string> }) => string[] | Promise<string[]>;

/** Resources served under a URI template (RFC 6570), e.g. `notes://{id}`. */
export interface McpServedResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(uri: string, variables: Record<string, string>, context: McpReadContext): McpResourceBody | Promise<McpResourceBody>;
  /** Completions per template variable (`completion/complete`). */
  complete?: Record<string, McpCompleter>;
}

/** A prompt template: its messages, made from the arguments given. */
export interface McpServedPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
  /** A string is one user message; or MCP prompt messages (text, image, audio, embedded resources). */
  messages(args: Record<string, string>): string | PromptMessage[] | Promise<string | PromptMessage[]>;
  /** Completions per argument (`completion/complete`). */
  complete?: Record<string, McpCompleter>;
}

/** What the server offers besides tools. */
export interface McpCatalog {
  resources: readonly McpServedResource[];
  resourceTemplates: readonly McpServedResourceTemplate[];
  prompts: readonly McpServedPrompt[];
  /** Serves the artifacts of each MCP session's toolsmith session as `artifact:///<filename>`. */
  artifactService?: ArtifactService;
}

const ARTIFACT_PREFIX = "artifact:///";

/** The prompt of an agent with a fixed instruction: its instruction as a user message (for a client to reuse it). */
export function agentInstructionPrompt(agent: Agent): McpServedPrompt | undefined {
  const instruction = (agent as { instruction?: unknown }).instruction;
  if (typeof instruction !== "string" || !instruction) return undefined;
  return { name: agent.name, description: `The instructions of the agent "${agent.name}".`, messages: () => instruction };
}

/** Every fixed resource, with the session's artifacts when an artifact service is given. */
export async function listResources(catalog: McpCatalog, session: Session): Promise<Resource[]> {
  const resources: Resource[] = catalog.resources.map(({ read: _read, ...resource }) => resource);
  if (catalog.artifactService) {
    const names = await catalog.artifactService.listArtifactKeys({ appName: session.appName, userId: session.userId, sessionId: session.id });
    for (const filename of names) resources.push({ uri: `${ARTIFACT_PREFIX}${encodeURIComponent(filename)}`, name: filename, description: `Artifact "${filename}" (latest version).` });
  }
  return resources;
}

/** Every resource template, as MCP lists them. */
export function listResourceTemplates(catalog: McpCatalog): ResourceTemplate[] {
  return catalog.resourceTemplates.map(({ read: _read, complete: _complete, ...template }) => template);
}

/** Reads a resource: a fixed one, an artifact, or the first template that matches the URI. */
export async function readResource(catalog: McpCatalog, uri: string, context: McpReadContext): Promise<ReadResourceResult> {
  const fixed = catalog.resources.find((resource) => resource.uri === uri);
  if (fixed) return { contents: [contentsOf(uri, fixed.mimeType, await fixed.read(context))] };
  if (catalog.artifactService && uri.startsWith(ARTIFACT_PREFIX)) {
    const { session } = context;
    const filename = decodeURIComponent(uri.slice(ARTIFACT_PREFIX.length));
    const part = await catalog.artifactService.loadArtifact({ appName: session.appName, userId: session.userId, sessionId: session.id, filename });
    if (part?.inlineData?.data !== undefined) return { contents: [{ uri, mimeType: part.inlineData.mimeType, blob: part.inlineData.data }] };
    if (part?.text !== undefined) return { contents: [{ uri, mimeType: "text/plain", text: part.text }] };
  }
  for (const template of catalog.resourceTemplates) {
    const variables = new UriTemplate(template.uriTemplate).match(uri);
    if (variables) {
      const flat = Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, Array.isArray(value) ? value.join(",") : value]));
      return { contents: [contentsOf(uri, template.mimeType, await template.read(uri, flat, context))] };
    }
  }
  throw new ToolsmithError("MCP_RESOURCE_NOT_FOUND", `Resource ${uri} does not exist. List the resources and resource templates to see what this server offers.`);
}

function contentsOf(uri: string, declaredMimeType: string | undefined, body: McpResourceBody): ReadResourceResult["contents"][number] {
  if (typeof body === "string") return { uri, mimeType: declaredMimeType ?? "text/plain", text: body };
  if (body instanceof Uint8Array) return { uri, mimeType: declaredMimeType ?? "application/octet-stream", blob: Buffer.from(body).toString("base64") };
  const mimeType = body.mimeType ?? declaredMimeType;
  return "text" in body ? { uri, ...(mimeType ? { mimeType } : {}), text: body.text } : { uri, ...(mimeType ? { mimeType } : {}), blob: body.blob };
}

/** A prompt's messages for the given arguments, refusing missing required ones with a message that names them. */
export async function getPrompt(catalog: McpCatalog, name: string, args: Record<string, string>): Promise<GetPromptResult> {
  const prompt = catalog.prompts.find((candidate) => candidate.name === name);
  if (!prompt) throw new ToolsmithError("MCP_PROMPT_NOT_FOUND", `Prompt "${name}" does not exist. Available prompts: ${catalog.prompts.map((known) => known.name).join(", ") || "none"}.`);
  const missing = (prompt.arguments ?? []).filter((argument) => argument.required && args[argument.name] === undefined).map((argument) => argument.name);
  if (missing.length) throw new ToolsmithError("MCP_PROMPT_NOT_FOUND", `Prompt "${name}" needs the arguments ${missing.join(", ")}.`);
  const messages = await prompt.messages(args);
  return {
    ...(prompt.description ? { description: prompt.description } : {}),
    messages: typeof messages === "string" ? [{ role: "user", content: { type: "text", text: messages } }] : messages,
  };
}

/** Completions for a prompt argument or a template variable (an empty list where none are defined). */
export async function complete(
  catalog: McpCatalog,
  ref: { type: string; name?: string; uri?: string },
  argument: { name: string; value: string },
  context: { arguments: Record<string, string> },
): Promise<string[]> {
  const completers =
    ref.type === "ref/prompt"
      ? catalog.prompts.find((prompt) => prompt.name === ref.name)?.complete
      : catalog.resourceTemplates.find((template) => template.uriTemplate === ref.uri)?.complete;
  const completer = completers?.[argument.name];
  // At most 100 values, as the spec allows in one answer.
  return completer ? (await completer(argument.value, context)).slice(0, 100) : [];
}
