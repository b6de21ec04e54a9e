import { readFile, realpath } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
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
  // Files only, and only those the document may name: nothing is fetched from the network while loading.
  const files = confinedFiles(source);
  const options = { resolve: { http: false as const, file: files } };
  try {
    bundled = parsed === undefined ? await $RefParser.bundle(base, options) : await $RefParser.bundle(base, structuredClone(parsed) as object, options);
  } catch (error) {
    // The parser reports a resolver's error as "Error reading file": the refusal, which says why, is thrown instead.
    if (files.refusal) throw files.refusal;
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

/**
 * The files a document's `$ref`s may be read from. A document given by `path` may name files in its own folder and
 * the folders under it (links followed, so a link cannot lead out), as a spec split into files does; one fetched
 * from `url`, or given inline without a `path`, none. Otherwise a document from elsewhere could name any file the
 * process can read (`$ref: "file:///home/me/.docker/config.json"`, `$ref: ".env"`) and have its content put into
 * the tools' declarations, which go to the model provider.
 */
function confinedFiles(source: OpenApiSource) {
  const folder = source.path === undefined ? undefined : realpath(dirname(resolve(source.path)));
  const refuse = (message: string): never => {
    resolver.refusal = new ConfigurationError("OPENAPI_REF_REFUSED", message);
    throw resolver.refusal;
  };
  const resolver = {
    /** Why a file was refused, which loading reports. */
    refusal: undefined as ConfigurationError | undefined,
    order: 100,
    canRead: (file: { url: string }) => file.url.startsWith("file:") || !/^[a-z][a-z0-9+.-]*:/i.test(file.url),
    async read(file: { url: string }): Promise<Buffer> {
      const named = file.url.startsWith("file:") ? fileURLToPath(file.url) : resolve(file.url);
      if (folder === undefined) {
        const from = source.url === undefined ? "A document given inline without `path`" : `The document fetched from ${source.url}`;
        return refuse(`${from} names the file ${named} in a $ref, and may read no file on this machine. Put what it refers to in the document, or give it as \`path\` with its files beside it.`);
      }
      const root = await folder;
      const target = await realpath(named).catch(() => named);
      const inside = relative(root, target);
      if (inside === "" || inside.startsWith(`..${sep}`) || inside === ".." || isAbsolute(inside)) {
        return refuse(`The OpenAPI document ${source.path} names the file ${named} in a $ref, outside its folder ${root}. Move that file into the document's folder (or one under it), or put what it holds in the document.`);
      }
      return readFile(target);
    },
  };
  return resolver;
}
