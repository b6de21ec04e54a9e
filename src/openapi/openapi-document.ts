/** The parts of an OpenAPI 3.0 / 3.1 document the toolset reads; everything else passes through. */
export interface OpenApiDocument {
  openapi: string;
  info?: { title?: string; version?: string };
  servers?: OpenApiServer[];
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown>; parameters?: Record<string, unknown>; securitySchemes?: Record<string, unknown>; requestBodies?: Record<string, unknown> };
  security?: SecurityRequirement[];
  [key: string]: unknown;
}

/** A server entry, with `{variables}` in its URL. */
export interface OpenApiServer {
  url: string;
  variables?: Record<string, { default: string; enum?: string[]; description?: string }>;
}

/** Scheme names to scopes; the schemes of one requirement all apply together. */
export type SecurityRequirement = Record<string, string[]>;

/** A parameter object after `$ref`s are followed. */
export interface OpenApiParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  description?: string;
  required?: boolean;
  schema?: Record<string, unknown>;
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
  content?: Record<string, { schema?: Record<string, unknown> }>;
}

/** A security scheme object. */
export interface SecurityScheme {
  type: "apiKey" | "http" | "oauth2" | "openIdConnect" | "mutualTLS";
  name?: string;
  in?: "header" | "query" | "cookie";
  scheme?: string;
  flows?: Record<string, unknown>;
  openIdConnectUrl?: string;
  description?: string;
}

/**
 * Follows a local `$ref` (`#/components/...`) until it reaches an object that
 * is not a reference. External references were bundled in when loading.
 */
export function resolveReference<T>(document: OpenApiDocument, value: unknown): T {
  let current = value;
  for (let depth = 0; depth < 32; depth++) {
    if (!isReference(current)) return current as T;
    current = lookUpPointer(document, current.$ref);
  }
  return current as T;
}

/** Whether a value is `{ $ref: string }`. */
export function isReference(value: unknown): value is { $ref: string } {
  return typeof value === "object" && value !== null && typeof (value as { $ref?: unknown }).$ref === "string";
}

/** The value a local JSON pointer (`#/a/b`) names in the document, or `undefined`. */
export function lookUpPointer(document: unknown, pointer: string): unknown {
  if (!pointer.startsWith("#")) return undefined;
  let current: unknown = document;
  for (const raw of pointer.slice(1).split("/").slice(1)) {
    const segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}
