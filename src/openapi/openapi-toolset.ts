import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ReadonlyContext } from "../agents/readonly-context.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { Tool, Toolset } from "../tools/tool.js";
import { filterToolset, prefixToolset, type ToolFilter } from "../tools/toolset-wrappers.js";
import { describeOperations } from "./describe-operations.js";
import { loadOpenApiDocument, type OpenApiSource } from "./load-openapi-document.js";
import type { ApiCredential } from "./openapi-auth.js";
import { ClientCredentialsTokens, isClientCredentials } from "../auth/client-credentials.js";
import { describeGiven, refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import { documentFromAdkOptions, toolsetAuthOf, TOOLSET_SCHEME_NAME, type AdkOpenApiToolsetOptions, type ToolsetAuth } from "./adk-toolset-options.js";
import type { OpenApiDocument, OpenApiServer } from "./openapi-document.js";
import { DEFAULT_MAX_RESPONSE_BYTES, OpenApiOperationTool, type OperationToolSettings } from "./openapi-operation-tool.js";
import { resolveServerUrl } from "./resolve-server-url.js";

/** What `new OpenAPIToolset(…)` takes: toolsmith's options and ADK's names. */
const KNOWN_OPTIONS = [
  "document", "path", "url", "baseUrl", "serverVariables", "credentials", "headers", "toolFilter", "prefix", "requireConfirmation", "fetch", "maxResponseBytes",
  "specDict", "specStr", "specType", "authScheme", "authCredential", "credentialKey", "headerProvider",
] as const;

/** Options of {@link OpenAPIToolset}: toolsmith's, and ADK's names for the same things ({@link AdkOpenApiToolsetOptions}). */
export interface OpenAPIToolsetOptions extends OpenApiSource, AdkOpenApiToolsetOptions {
  /**
   * Where to send requests, for every operation. Default: the operation's (or
   * path's, or document's) first server, a relative one resolved against `url`.
   */
  baseUrl?: string;
  /** Values for the `{variables}` of server URLs; each must be one of the variable's `enum`. Default: the variables' defaults. */
  serverVariables?: Record<string, string>;
  /**
   * Credentials by security scheme name (as in `components.securitySchemes`). For an OAuth 2 scheme with a
   * `clientCredentials` flow, `{ clientId, clientSecret }`: the toolset gets access tokens from the flow's
   * `tokenUrl` with the scopes each operation lists, keeps them until a minute before they expire, and shares one
   * request among calls that need a token at once.
   */
  credentials?: Record<string, ApiCredential>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Which operations to offer: tool names (from `operationId`) or a predicate. */
  toolFilter?: ToolFilter;
  /** Offer the tools as `prefix_name`. */
  prefix?: string;
  /** Ask a person before a call: always, or per tool and arguments. */
  requireConfirmation?: OperationToolSettings["requireConfirmation"];
  /** The fetch to use; default the global one. */
  fetch?: typeof fetch;
  /**
   * How much of a response body is read: past it the model gets the first bytes, marked `truncated`, and a note
   * saying the call ran and to ask for less. A body is the model's to read and is stored in the session, so an API
   * that answers with a file or a huge list does not fill memory, the session and the model's context.
   * Default 1,048,576 (1 MiB).
   */
  maxResponseBytes?: number;
}

/**
 * The operations of an OpenAPI 3.0 or 3.1 document as tools, one per
 * operation, named from its `operationId`. The document is read on first use.
 *
 * @example
 * ```ts
 * const petstore = new OpenAPIToolset({
 *   path: "./petstore.yaml",
 *   credentials: { api_key: { apiKey: process.env.PETSTORE_KEY! } },
 *   toolFilter: ["findPetsByStatus", "getPetById"],
 * });
 * const agent = new LlmAgent({ name: "pet_shop", model, tools: [petstore] });
 * ```
 */
export class OpenAPIToolset implements Toolset {
  readonly #options: OpenAPIToolsetOptions;
  readonly #outer: Toolset;
  #tools: Promise<Tool[]> | undefined;

  readonly #toolsetAuth: ToolsetAuth | undefined;

  constructor(options: OpenAPIToolsetOptions) {
    // An option it would not use is refused here, by name: a credential passed over in silence sends requests without it.
    refuseUnhonouredOptions("OpenAPIToolset", options, KNOWN_OPTIONS, { preservePropertyNames: { behavesAs: true, why: "toolsmith always keeps the document's parameter names" } });
    if (options.maxResponseBytes !== undefined && (!Number.isSafeInteger(options.maxResponseBytes) || options.maxResponseBytes < 1)) {
      throw new ConfigurationError("UNSUPPORTED_OPTION", `OpenAPIToolset: maxResponseBytes is how many bytes of a response body to read, a whole number from 1; it got ${describeGiven(options.maxResponseBytes)}.`);
    }
    const document = documentFromAdkOptions(options);
    this.#options = document === undefined || options.document !== undefined ? options : { ...options, document };
    this.#toolsetAuth = toolsetAuthOf(options);
    let toolset: Toolset = { getTools: () => this.#allTools(), close: async () => undefined };
    if (options.toolFilter) toolset = filterToolset(toolset, options.toolFilter);
    if (options.prefix) toolset = prefixToolset(toolset, options.prefix);
    this.#outer = toolset;
  }

  getTools(context: ReadonlyContext): Promise<Tool[]> {
    return this.#outer.getTools(context);
  }

  async close(): Promise<void> {}

  #allTools(): Promise<Tool[]> {
    if (!this.#tools) {
      const loading = this.#load();
      this.#tools = loading;
      loading.catch(() => {
        if (this.#tools === loading) this.#tools = undefined;
      });
    }
    return this.#tools;
  }

  async #load(): Promise<Tool[]> {
    const loaded = await loadOpenApiDocument(this.#options, this.#options.fetch ?? fetch);
    const auth = this.#toolsetAuth;
    // ADK's authScheme applies to every operation: it joins the document's schemes under its own name.
    const document = auth ? { ...loaded, components: { ...loaded.components, securitySchemes: { ...loaded.components?.securitySchemes, [TOOLSET_SCHEME_NAME]: auth.scheme } } } : loaded;
    const serverUrl = (servers: OpenApiServer[] | undefined) =>
      this.#options.baseUrl ?? resolveServerUrl(servers ?? document.servers, { origin: this.#options.url ?? (this.#options.path && pathToFileURL(resolve(this.#options.path)).href), variables: this.#options.serverVariables, title: document.info?.title });
    const credentials = auth?.credential ? { ...this.#options.credentials, [TOOLSET_SCHEME_NAME]: auth.credential } : (this.#options.credentials ?? {});
    const settings: Omit<OperationToolSettings, "baseUrl"> = {
      document,
      credentials,
      clientTokens: clientTokenSources(credentials, this.#options.fetch ?? fetch),
      security: auth ? [{ [TOOLSET_SCHEME_NAME]: auth.scopes }] : undefined,
      signIn: auth ? { [TOOLSET_SCHEME_NAME]: auth.signIn } : undefined,
      headers: this.#options.headers,
      headerProvider: this.#options.headerProvider,
      fetch: this.#options.fetch ?? fetch,
      requireConfirmation: this.#options.requireConfirmation,
      maxResponseBytes: this.#options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    };
    const tools = describeOperations(document).map((shape) => new OpenApiOperationTool(shape, { ...settings, baseUrl: serverUrl(shape.servers?.length ? shape.servers : undefined) }));
    assertDistinctNames(tools, document);
    return tools;
  }
}

/** One token source per scheme given client credentials, shared by the toolset's operations for its lifetime. */
function clientTokenSources(credentials: Readonly<Record<string, ApiCredential>>, fetchImplementation: typeof fetch): Map<string, ClientCredentialsTokens> {
  const sources = new Map<string, ClientCredentialsTokens>();
  for (const [schemeName, credential] of Object.entries(credentials)) {
    if (isClientCredentials(credential)) sources.set(schemeName, new ClientCredentialsTokens(credential, fetchImplementation));
  }
  return sources;
}

function assertDistinctNames(tools: readonly Tool[], document: OpenApiDocument): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      throw new ConfigurationError(
        "OPENAPI_DUPLICATE_OPERATION",
        `Two operations of "${document.info?.title ?? "the OpenAPI document"}" become the tool "${tool.name}". Give them distinct operationIds.`,
      );
    }
    seen.add(tool.name);
  }
}
