import type { DataPart, FilePart, Part as A2APart, TextPart } from "@a2a-js/sdk";
import type { Part } from "../content/content.js";
import { isPlainObject } from "../tools/tool-result.js";
import { A2A_METADATA_KEYS } from "./metadata.js";
import { A2AProtocolError } from "./a2a-errors.js";

/** ADK's `adk_type` of a data part: which kind of genai part it carries. */
const DATA_PART_TYPES = {
  functionCall: "function_call",
  functionResponse: "function_response",
  executableCode: "executable_code",
  codeExecutionResult: "code_execution_result",
} as const;

type DataPartField = keyof typeof DATA_PART_TYPES;
const DATA_PART_FIELDS = Object.keys(DATA_PART_TYPES) as DataPartField[];
const FIELD_OF_TYPE = new Map<unknown, DataPartField>(DATA_PART_FIELDS.map((field) => [DATA_PART_TYPES[field], field]));

/**
 * Parts of an event as A2A parts, as ADK converts them: text (a thought marked `adk_thought`), files (inline bytes
 * or a URI), and function calls, function responses and code as data parts typed by `adk_type`; a call (or its
 * response) whose id is in `longRunningToolIds` is marked `adk_is_long_running`.
 */
export function toA2AParts(parts: readonly Part[] | undefined, longRunningToolIds: readonly string[] = []): A2APart[] {
  return (parts ?? []).map((part) => toA2APart(part, longRunningToolIds));
}

function toA2APart(part: Part, longRunningToolIds: readonly string[]): A2APart {
  if (part.text !== undefined && part.text !== null) {
    const text: TextPart = { kind: "text", text: part.text };
    if (part.thought) text.metadata = { [A2A_METADATA_KEYS.thought]: true };
    return text;
  }
  if (part.inlineData || part.fileData) return toA2AFilePart(part);
  const field = DATA_PART_FIELDS.find((name) => part[name] !== undefined && part[name] !== null);
  if (!field) return { kind: "data", data: {}, metadata: {} };
  const data = part[field] as unknown as Record<string, unknown>;
  const metadata: Record<string, unknown> = { [A2A_METADATA_KEYS.dataPartType]: DATA_PART_TYPES[field] };
  const id = (field === "functionCall" || field === "functionResponse") && typeof data.id === "string" ? data.id : undefined;
  if (id !== undefined && longRunningToolIds.includes(id)) metadata[A2A_METADATA_KEYS.isLongRunning] = true;
  return { kind: "data", data, metadata } satisfies DataPart;
}

function toA2AFilePart(part: Part): FilePart {
  const metadata: Record<string, unknown> = {};
  if (part.videoMetadata) metadata[A2A_METADATA_KEYS.videoMetadata] = part.videoMetadata;
  if (part.fileData) return { kind: "file", file: { uri: part.fileData.fileUri ?? "", mimeType: part.fileData.mimeType }, metadata };
  return { kind: "file", file: { bytes: part.inlineData!.data ?? "", mimeType: part.inlineData!.mimeType }, metadata };
}

/** A2A parts as genai parts, as ADK reads them; a part that is not A2A's is refused with {@link A2AProtocolError}. */
export function toGenAIParts(parts: readonly A2APart[] | undefined): Part[] {
  if (parts !== undefined && !Array.isArray(parts)) throw new A2AProtocolError(`A message's parts must be a list, not ${describe(parts)}.`);
  return (parts ?? []).map(toGenAIPart);
}

/**
 * One A2A part as a genai part. Data typed as a function call or response must look like one (a `name` that is a
 * string, `args` or `response` an object when given): the peer's data becomes a part the model and the tools read,
 * so a malformed one is refused here rather than failing somewhere inside the run. Untyped data becomes its JSON
 * as text, as in ADK.
 */
export function toGenAIPart(part: A2APart): Part {
  if (!isPlainObject(part)) throw new A2AProtocolError(`An A2A part must be an object, not ${describe(part)}.`);
  const metadata = isPlainObject(part.metadata) ? part.metadata : {};
  switch (part.kind) {
    case "text":
      if (typeof part.text !== "string") throw new A2AProtocolError(`A text part's text must be a string, not ${describe(part.text)}.`);
      return { text: part.text, thought: Boolean(metadata[A2A_METADATA_KEYS.thought]) };
    case "file":
      return toGenAIFilePart(part, metadata);
    case "data":
      return toGenAIDataPart(part, metadata);
    default:
      throw new A2AProtocolError(`Unknown A2A part kind ${describe((part as { kind?: unknown }).kind)}: a part is "text", "file" or "data".`);
  }
}

function toGenAIFilePart(part: FilePart, metadata: Record<string, unknown>): Part {
  const file = part.file as unknown;
  if (!isPlainObject(file)) throw new A2AProtocolError(`A file part's file must be an object, not ${describe(file)}.`);
  const result: Part = {};
  if (metadata[A2A_METADATA_KEYS.videoMetadata]) result.videoMetadata = metadata[A2A_METADATA_KEYS.videoMetadata] as Part["videoMetadata"];
  const mimeType = typeof file.mimeType === "string" ? file.mimeType : "";
  if (typeof file.bytes === "string") result.inlineData = { data: file.bytes, mimeType };
  else if (typeof file.uri === "string") result.fileData = { fileUri: file.uri, mimeType };
  else throw new A2AProtocolError("A file part's file must have `bytes` (base64) or `uri` as a string.");
  return result;
}

function toGenAIDataPart(part: DataPart, metadata: Record<string, unknown>): Part {
  const data = part.data as unknown;
  if (!isPlainObject(data)) throw new A2AProtocolError(`A data part's data must be an object, not ${describe(data)}.`);
  const field = FIELD_OF_TYPE.get(metadata[A2A_METADATA_KEYS.dataPartType]);
  if (!field) return { text: JSON.stringify(data) };
  if (field === "functionCall" || field === "functionResponse") {
    if (typeof data.name !== "string") throw new A2AProtocolError(`A ${DATA_PART_TYPES[field]} part's name must be a string, not ${describe(data.name)}.`);
    if (data.id !== undefined && typeof data.id !== "string") throw new A2AProtocolError(`A ${DATA_PART_TYPES[field]} part's id must be a string, not ${describe(data.id)}.`);
    const body = field === "functionCall" ? "args" : "response";
    if (data[body] !== undefined && !isPlainObject(data[body])) throw new A2AProtocolError(`A ${DATA_PART_TYPES[field]} part's ${body} must be an object, not ${describe(data[body])}.`);
  }
  return { [field]: data } as Part;
}

function describe(value: unknown): string {
  if (value === undefined) return "undefined";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
