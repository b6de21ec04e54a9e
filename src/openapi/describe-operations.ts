import type { PropertyEncoding, RequestBodyShape } from "./encode-body.js";
import { fileInputSchema, isFileSchema } from "./file-input.js";
import { inlineSchema } from "./inline-schema.js";
import { resolveReference, type OpenApiDocument, type OpenApiParameter, type OpenApiServer, type SecurityRequirement } from "./openapi-document.js";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
/** Headers the HTTP layer sets; OpenAPI says parameters with these names are ignored. */
const RESERVED_HEADERS = new Set(["accept", "content-type", "authorization"]);
/** Request body media types in the order the toolset prefers them. */
const BODY_TYPES = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data", "text/plain"];

/** Where one argument of an operation tool goes in the HTTP request. */
export interface OperationInput {
  /** The argument's name in the tool's schema. */
  property: string;
  location: "path" | "query" | "header" | "cookie" | "body";
  /** The parameter's name in the request. */
  name: string;
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
  /** For a parameter described by `content`: its media type, which it is serialised as. */
  contentType?: string;
}

/** One operation of the document, ready to become a tool. */
export interface OperationShape {
  toolName: string;
  description: string;
  method: (typeof METHODS)[number];
  path: string;
  inputs: OperationInput[];
  /** JSON Schema of the tool's arguments. */
  parameters: Record<string, unknown>;
  /** The request body; never for GET and HEAD, which have none in HTTP. */
  body?: RequestBodyShape;
  /** The media type to ask for: JSON when a response offers it. */
  accept?: string;
  /** Alternatives; an empty requirement means no authentication is needed. */
  security: SecurityRequirement[];
  /** The operation's own servers, when it has them. */
  servers?: OpenApiServer[];
}

/** Every operation of the document, named from `operationId` (or method and path when it has none). */
export function describeOperations(document: OpenApiDocument): OperationShape[] {
  const shapes: OperationShape[] = [];
  for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
    const item = resolveReference<Record<string, unknown>>(document, rawItem);
    for (const method of METHODS) {
      const operation = item[method] as Record<string, unknown> | undefined;
      if (!operation || typeof operation !== "object") continue;
      shapes.push(describeOperation(document, path, method, item, operation));
    }
  }
  return shapes;
}

function describeOperation(
  document: OpenApiDocument,
  path: string,
  method: OperationShape["method"],
  item: Record<string, unknown>,
  operation: Record<string, unknown>,
): OperationShape {
  // Operation parameters override path-level ones with the same name and location.
  const byKey = new Map<string, OpenApiParameter>();
  for (const raw of [...((item.parameters as unknown[]) ?? []), ...((operation.parameters as unknown[]) ?? [])]) {
    const parameter = resolveReference<OpenApiParameter>(document, raw);
    if (!parameter?.name || !parameter.in) continue;
    if (parameter.in === "header" && RESERVED_HEADERS.has(parameter.name.toLowerCase())) continue;
    byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  const parameters = [...byKey.values()];
  const nameCounts = new Map<string, number>();
  for (const parameter of parameters) nameCounts.set(parameter.name, (nameCounts.get(parameter.name) ?? 0) + 1);

  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const inputs: OperationInput[] = [];
  for (const parameter of parameters) {
    // The same name in two places (an `id` in the path and in the query) gets the place as a prefix.
    const property = (nameCounts.get(parameter.name) ?? 0) > 1 ? `${parameter.in}_${parameter.name}` : parameter.name;
    const contentType = parameter.schema ? undefined : Object.keys(parameter.content ?? {})[0];
    const schema = inlineSchema(document, parameter.schema ?? (contentType ? parameter.content![contentType]!.schema : undefined) ?? { type: "string" });
    properties[property] = parameter.description && !schema.description ? { ...schema, description: parameter.description } : schema;
    if (parameter.required || parameter.in === "path") required.push(property);
    inputs.push({ property, location: parameter.in, name: parameter.name, style: parameter.style, explode: parameter.explode, allowReserved: parameter.allowReserved, contentType });
  }

  let body: RequestBodyShape | undefined;
  type MediaType = { schema?: unknown; encoding?: Record<string, PropertyEncoding> };
  type RequestBody = { required?: boolean; description?: string; content?: Record<string, MediaType> };
  const requestBody = operation.requestBody && method !== "get" && method !== "head" ? resolveReference<RequestBody>(document, operation.requestBody) : undefined;
  if (requestBody?.content) {
    const types = Object.keys(requestBody.content);
    const mediaType = BODY_TYPES.find((type) => types.includes(type)) ?? types.find((type) => /json/.test(type)) ?? types[0];
    if (mediaType) {
      const property = properties.body === undefined ? "body" : "requestBody";
      const content = requestBody.content[mediaType]!;
      const inlined = inlineSchema(document, content.schema ?? {});
      const fileSchemas = filePropertiesOf(inlined);
      // A multipart file field asks the model for an artifact name or base64 content, which the call sends as the file's bytes.
      const schema = mediaType === "multipart/form-data" ? withFileInputs(inlined, fileSchemas) : inlined;
      properties[property] = requestBody.description && !schema.description ? { ...schema, description: requestBody.description } : schema;
      if (requestBody.required) required.push(property);
      inputs.push({ property, location: "body", name: property });
      body = { mediaType, encoding: content.encoding ?? {}, fileProperties: Object.keys(fileSchemas), fileSchemas: mediaType === "multipart/form-data" ? fileSchemas : {} };
    }
  }

  const summary = [operation.summary, operation.description].filter((text): text is string => typeof text === "string" && text.length > 0);
  return {
    toolName: toolNameOf(typeof operation.operationId === "string" ? operation.operationId : `${method}_${path}`),
    description: summary.join("\n\n") || `${method.toUpperCase()} ${path}`,
    method,
    path,
    inputs,
    parameters: { type: "object", properties, ...(required.length ? { required } : {}) },
    body,
    accept: acceptOf(document, operation),
    security: (operation.security as SecurityRequirement[] | undefined) ?? document.security ?? [],
    servers: (operation.servers as OpenApiServer[] | undefined) ?? (item.servers as OpenApiServer[] | undefined),
  };
}

/** The properties of a body schema that hold files, which multipart sends as file parts (an array of them as several), with their schemas. */
function filePropertiesOf(schema: Record<string, unknown>): Record<string, Record<string, unknown>> {
  return Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>).filter(([, property]) => isFileSchema(property)));
}

function withFileInputs(schema: Record<string, unknown>, files: Record<string, Record<string, unknown>>): Record<string, unknown> {
  if (Object.keys(files).length === 0) return schema;
  const properties = { ...(schema.properties as Record<string, unknown>) };
  for (const [name, file] of Object.entries(files)) properties[name] = fileInputSchema(file);
  return { ...schema, properties };
}

/** A tool name models accept: letters, digits and `_`, at most 64 characters. */
function toolNameOf(raw: string): string {
  // Runs of "_" made one first: trimmed before, a long run inside a third party's operationId took quadratic time.
  const name = raw.replace(/[^a-zA-Z0-9_]+/g, "_").replace(/_+/g, "_").replace(/^_|_$/g, "");
  return (/^[a-zA-Z_]/.test(name) ? name : `op_${name}`).slice(0, 64);
}

function acceptOf(document: OpenApiDocument, operation: Record<string, unknown>): string | undefined {
  const responses = (operation.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
  const types = new Set<string>();
  for (const [status, response] of Object.entries(responses)) {
    if (/^(2|default)/.test(status)) for (const type of Object.keys(resolveReference<typeof response>(document, response)?.content ?? {})) types.add(type);
  }
  if (types.has("application/json")) return "application/json";
  return [...types].find((type) => /json/.test(type)) ?? (types.size ? [...types][0] : undefined);
}
