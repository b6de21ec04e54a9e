import { Buffer } from "node:buffer";
import type { ToolContext } from "../tools/tool-context.js";
import { isPlainObject } from "./serialize-parameter.js";

/** A file of a multipart body, ready to send: its bytes, name and type, and how the part's content is written. */
export interface UploadFile {
  bytes: Uint8Array;
  filename: string;
  contentType: string | undefined;
  /** The property's schema says its content is base64 text (`contentEncoding: base64`, `format: byte` or `base64`): the part carries the base64 text. */
  base64Encoded: boolean;
}

/** Whether a value is a file already resolved to its bytes. */
export function isUploadFile(value: unknown): value is UploadFile {
  return typeof value === "object" && value !== null && (value as UploadFile).bytes instanceof Uint8Array;
}

/** Whether a schema describes a file: binary or base64 content (`format: binary`/`byte`/`base64`, 3.1's `contentMediaType`/`contentEncoding`), or an array of such. */
export function isFileSchema(node: unknown): boolean {
  if (typeof node !== "object" || node === null) return false;
  const { format, contentMediaType, contentEncoding, items } = node as Record<string, unknown>;
  return format === "binary" || format === "byte" || format === "base64" || contentMediaType !== undefined || contentEncoding !== undefined || isFileSchema(items);
}

function isBase64Schema(node: Record<string, unknown>): boolean {
  const items = node.items as Record<string, unknown> | undefined;
  if (items && typeof items === "object") return isBase64Schema(items);
  return node.format === "byte" || node.format === "base64" || String(node.contentEncoding ?? "").toLowerCase() === "base64";
}

const SHARED_FIELDS = {
  filename: { type: "string", description: "The file name to send. Default: the artifact's name, or the field's name." },
  contentType: { type: "string", description: "The file's MIME type. Default: the artifact's, or the one the API declares." },
};

/**
 * What the model fills in for a file field of a multipart body: the name of an
 * artifact of the session (its bytes and MIME type are sent), or the bytes in
 * base64. A model cannot put bytes in JSON; artifacts are how files reach it
 * and leave it (uploads, `saveArtifact`), and base64 covers small files it
 * makes itself.
 */
export function fileInputSchema(original: Record<string, unknown>): Record<string, unknown> {
  if (original.type === "array" || original.items) return { ...keptAnnotations(original), type: "array", items: fileInputSchema((original.items ?? {}) as Record<string, unknown>) };
  const described = typeof original.description === "string" ? `${original.description} ` : "";
  const mediaType = typeof original.contentMediaType === "string" ? ` (${original.contentMediaType})` : "";
  return {
    description: `${described}A file${mediaType}: give \`artifact\`, the name of an artifact saved in this session, or \`base64\`, the file's content in base64.`,
    anyOf: [
      { type: "object", properties: { base64: { type: "string", format: "byte", description: "The file's content, base64-encoded." }, ...SHARED_FIELDS }, required: ["base64"] },
      { type: "object", properties: { artifact: { type: "string", description: "The name of an artifact saved in this session." }, ...SHARED_FIELDS }, required: ["artifact"] },
    ],
  };
}

function keptAnnotations(schema: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => ["description", "minItems", "maxItems"].includes(key)));
}

/**
 * The body with each file field's input (an artifact name or base64 content,
 * see {@link fileInputSchema}) replaced by the file's bytes. A plain string is
 * kept as it is and sent as the file's text. Returns the reason instead when
 * an input names no artifact, or is not base64.
 */
export async function resolveFileInputs(
  value: unknown,
  files: Record<string, Record<string, unknown>>,
  context: ToolContext,
): Promise<{ value: unknown } | { error: string }> {
  if (!isPlainObject(value) || Object.keys(files).length === 0) return { value };
  const resolved: Record<string, unknown> = { ...value };
  for (const [name, schema] of Object.entries(files)) {
    const input = value[name];
    if (input === undefined) continue;
    const base64Encoded = isBase64Schema(schema);
    const declaredType = typeof schema.contentMediaType === "string" ? schema.contentMediaType : (schema.items as Record<string, unknown> | undefined)?.contentMediaType;
    const entries = Array.isArray(input) ? input : [input];
    const out: unknown[] = [];
    for (const entry of entries) {
      const file = await resolveOne(entry, name, { base64Encoded, declaredType: typeof declaredType === "string" ? declaredType : undefined }, context);
      if ("error" in file) return file;
      out.push(file.file);
    }
    resolved[name] = Array.isArray(input) ? out : out[0];
  }
  return { value: resolved };
}

async function resolveOne(
  entry: unknown,
  field: string,
  options: { base64Encoded: boolean; declaredType: string | undefined },
  context: ToolContext,
): Promise<{ file: unknown } | { error: string }> {
  // Text the model wrote is the file's content as it is.
  if (typeof entry === "string" || !isPlainObject(entry)) return { file: entry };
  const { artifact, base64, filename, contentType } = entry as { artifact?: unknown; base64?: unknown; filename?: unknown; contentType?: unknown };
  const chosenName = typeof filename === "string" && filename ? filename : undefined;
  const chosenType = typeof contentType === "string" && contentType ? contentType : undefined;
  if (typeof artifact === "string" && typeof base64 === "string") return { error: `The file field "${field}" has both "artifact" and "base64"; give one of them.` };
  if (typeof base64 === "string") {
    const text = base64.replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) return { error: `The file field "${field}" has "base64" content that is not base64; encode the file's bytes in base64, or save it as an artifact and give its name.` };
    return { file: { bytes: new Uint8Array(Buffer.from(text, "base64")), filename: chosenName ?? field, contentType: chosenType ?? options.declaredType, base64Encoded: options.base64Encoded } satisfies UploadFile };
  }
  if (typeof artifact !== "string" || !artifact) return { error: `The file field "${field}" needs "artifact" (the name of an artifact of this session) or "base64" (the file's content in base64).` };
  const part = await loadArtifactPart(artifact, context);
  if (typeof part === "string") return { error: part };
  const data = part.inlineData?.data ?? (part.text !== undefined ? Buffer.from(part.text, "utf8").toString("base64") : undefined);
  if (data === undefined) return { error: `The artifact "${artifact}" holds no file content to upload.` };
  return {
    file: {
      bytes: new Uint8Array(Buffer.from(data, "base64")),
      filename: chosenName ?? artifact.replace(/^user:/, ""),
      contentType: chosenType ?? part.inlineData?.mimeType ?? (part.text !== undefined ? "text/plain" : options.declaredType),
      base64Encoded: options.base64Encoded,
    } satisfies UploadFile,
  };
}

/** The artifact by name (a `user:` one too, as `load_artifacts` finds them), or why it could not be read. */
async function loadArtifactPart(name: string, context: ToolContext) {
  if (!context.invocationContext.artifactService) return `The file "${name}" cannot be read: no artifact service is configured (pass artifactService to the Runner), so only "base64" content can be uploaded.`;
  const part = (await context.loadArtifact(name)) ?? (name.startsWith("user:") ? undefined : await context.loadArtifact(`user:${name}`));
  if (part) return part;
  const known = await context.listArtifacts();
  return `There is no artifact named "${name}"${known.length ? `; the session has ${known.map((entry) => `"${entry}"`).join(", ")}` : "; the session has none"}. Give the name of a saved artifact, or the file's content as "base64".`;
}
