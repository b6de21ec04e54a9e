import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import $RefParser from "@apidevtools/json-schema-ref-parser";
import { load as parseYaml } from "js-yaml";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { OpenApiDocument } from "./openapi-document.js";
import { endSentence } from "../errors/sentence.js";

/** Where an OpenAPI document comes from. */
export interface OpenApiSource {
  /** The document itself: JSON or YAML text, or a parsed object. */
  document?: string | Record<string, unknown>;
  /** A file to read (JSON or YAML); also the base for relative `$ref`s of a `document` given inline. */
  path?: string;
  /**
   * The web address the document is served from: it is fetched from there
   * when neither `document` nor `path` is given, and relative server URLs
   * (`/v1`) are resolved against it.
   */
  url?: string;
}

/**
 * Reads an OpenAPI 3.0 or 3.1 document and bundles the files its relative
 * `$ref`s name into it, so that only internal references remain.
 */
export async function loadOpenApiDocument(source: OpenApiSource, fetchDocument: typeof fetch = fetch): Promise<OpenApiDocument> {
  if (source.document === undefined && source.path === undefined && source.url === undefined) {
    throw new ConfigurationError("OPENAPI_NO_DOCUMENT", "OpenAPIToolset needs a document: pass `document` (JSON or YAML text, or an object), `path` (a file) or `url` (where it is served).");
  }
  const base = source.path ? pathToFileURL(isAbsolute(source.path) ? source.path : resolve(source.path)).href : (source.url ?? pathToFileURL(resolve("openapi.json")).href);
  let parsed: unknown = source.document ?? (source.path === undefined && source.url ? await download(source.url, fetchDocument) : undefined);
  if (typeof parsed === "string") {
    try {
      parsed = parseYaml(parsed);
    } catch (error) {
      throw new ConfigurationError("OPENAPI_UNREADABLE", `The OpenAPI document is neither JSON nor YAML: ${(error as Error).message}`, { cause: error });
    }
  }
  let bundled: unknown;
  try {
    // Files only: nothing is fetched from the network while loading.
    const options = { resolve: { http: false as const } };
    bundled = parsed === undefined ? await $RefParser.bundle(base, options) : await $RefParser.bundle(base, structuredClone(parsed) as object, options);
  } catch (error) {
    throw new ConfigurationError("OPENAPI_UNREADABLE", `The OpenAPI document${source.path ? ` ${source.path}` : ""} could not be read: ${(error as Error).message}`, { cause: error });
  }
  const document = bundled as OpenApiDocument;
  const version = typeof document?.openapi === "string" ? document.openapi : typeof (document as { swagger?: unknown })?.swagger === "string" ? `swagger ${(document as { swagger?: string }).swagger}` : "none";
  if (!/^3\.[01]\./.test(version)) {
    throw new ConfigurationError("OPENAPI_UNSUPPORTED_VERSION", `OpenAPI version ${version} is not supported. Give an OpenAPI 3.0 or 3.1 document (convert Swagger 2.0 documents first).`);
  }
  return document;
}

async function download(url: string, fetchDocument: typeof fetch): Promise<string> {
  let response: Response;
  try {
    response = await fetchDocument(url, { headers: { Accept: "application/json, application/yaml;q=0.9, */*;q=0.1" } });
  } catch (error) {
    throw new ConfigurationError("OPENAPI_UNREADABLE", `The OpenAPI document at ${url} could not be fetched: ${endSentence((error as Error).message)} Check the address, or pass the document itself.`, { cause: error });
  }
  if (!response.ok) throw new ConfigurationError("OPENAPI_UNREADABLE", `The OpenAPI document at ${url} could not be fetched: HTTP ${response.status}. Check the address, or pass the document itself.`);
  return response.text();
}
