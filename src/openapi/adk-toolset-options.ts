import type { ReadonlyContext } from "../agents/readonly-context.js";
import type { AuthCredential } from "../events/event-actions.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { ApiCredential, SignIn } from "./openapi-auth.js";
import type { SecurityScheme } from "./openapi-document.js";

/**
 * `OpenAPIToolset`'s options with ADK's names, taken besides toolsmith's own so that ADK programs run unchanged:
 * the document as `specDict` or `specStr`, one `authScheme` and `authCredential` for every operation, headers made
 * per call by `headerProvider`.
 */
export interface AdkOpenApiToolsetOptions {
  /** ADK's name for a parsed document (toolsmith's `document`). */
  specDict?: Record<string, unknown>;
  /** ADK's name for a document as text (toolsmith's `document`); read as `specType` says, JSON unless it starts with `---`. */
  specStr?: string;
  specType?: "json" | "yaml";
  /**
   * One security scheme (an OpenAPI Security Scheme Object) for every operation, whatever the document asks, as ADK
   * applies it. With `authCredential`, the credential for it: an API key, HTTP basic or bearer, an OAuth 2 access
   * token, or an OAuth 2 client's id and secret (used as client credentials when the scheme has that flow, else to
   * have the person sign in).
   */
  authScheme?: SecurityScheme;
  authCredential?: AuthCredential;
  /** The key a credential the person supplies is kept under (ADK's `credentialKey`). */
  credentialKey?: string;
  /** Headers made for each call from its context, added to `headers` (ADK's `headerProvider`). */
  headerProvider?: (context: ReadonlyContext) => Record<string, string>;
  /** ADK's; toolsmith always keeps the document's parameter names, so only `true` is taken. */
  preservePropertyNames?: boolean;
}

/** The name the toolset-wide `authScheme` goes under among the document's schemes, and in messages to the model. */
export const TOOLSET_SCHEME_NAME = "authScheme";

/** What an `authScheme` with its `authCredential` comes to for the toolset's operations. */
export interface ToolsetAuth {
  scheme: SecurityScheme;
  /** Every scope the scheme's flows list: ADK asks for the scheme, not per operation. */
  scopes: string[];
  /** The credential to send, when one is given outright (or as client credentials). */
  credential?: ApiCredential;
  /** For a person's sign-in: the client's OAuth 2 details the sign-in URL is made from, and where the answer is kept. */
  signIn: SignIn;
}

/** The document given with ADK's names, or `undefined`. */
export function documentFromAdkOptions(options: AdkOpenApiToolsetOptions & { document?: unknown; path?: string }): string | Record<string, unknown> | undefined {
  const { specDict, specStr, specType } = options;
  if (specType !== undefined && specType !== "json" && specType !== "yaml") throw new ConfigurationError("UNSUPPORTED_OPTION", `OpenAPIToolset's specType is "json" or "yaml"; it got ${JSON.stringify(specType)}.`);
  const given = [options.document !== undefined && "document", specDict !== undefined && "specDict", specStr !== undefined && "specStr"].filter(Boolean);
  if (given.length > 1) throw new ConfigurationError("UNSUPPORTED_OPTION", `OpenAPIToolset got ${given.join(" and ")}: give the document once.`);
  if (specDict !== undefined) return specDict;
  if (specStr === undefined) return undefined;
  if (specType === "yaml" || (specType === undefined && specStr.trim().startsWith("---"))) return specStr;
  try {
    return JSON.parse(specStr) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigurationError("OPENAPI_UNREADABLE", `OpenAPIToolset's specStr is not JSON (${(error as Error).message}). Pass specType: "yaml" for a YAML document.`, { cause: error });
  }
}

/** What `authScheme` and `authCredential` come to, checked when the toolset is made; `undefined` without them. */
export function toolsetAuthOf(options: AdkOpenApiToolsetOptions & { credentials?: Record<string, ApiCredential> }): ToolsetAuth | undefined {
  const { authScheme: scheme, authCredential: credential, credentialKey } = options;
  if (!scheme) {
    if (credential) throw new ConfigurationError("UNSUPPORTED_OPTION", "OpenAPIToolset got authCredential without authScheme: pass the scheme it is for, or give credentials by the document's scheme names (credentials: { name: … }).");
    return undefined;
  }
  if (typeof scheme !== "object" || typeof scheme.type !== "string") throw new ConfigurationError("UNSUPPORTED_OPTION", "OpenAPIToolset's authScheme is an OpenAPI Security Scheme Object, with a type (apiKey, http, oauth2 or openIdConnect).");
  if (options.credentials && TOOLSET_SCHEME_NAME in options.credentials) throw new ConfigurationError("UNSUPPORTED_OPTION", `OpenAPIToolset: credentials names "${TOOLSET_SCHEME_NAME}", the name authScheme takes; give its credential as authCredential.`);
  const flows = (scheme.flows ?? {}) as Record<string, { scopes?: Record<string, string> } | undefined>;
  const scopes = [...new Set(Object.values(flows).flatMap((flow) => Object.keys(flow?.scopes ?? {})))];
  const auth: ToolsetAuth = { scheme, scopes, signIn: { credentialKey } };
  if (!credential) return auth;
  const mismatch = () => new ConfigurationError("UNSUPPORTED_OPTION", `OpenAPIToolset: an authCredential of authType "${credential.authType}" cannot be used with an authScheme of type "${scheme.type}".`);
  switch (credential.authType as string) {
    case "apiKey":
      if (scheme.type !== "apiKey") throw mismatch();
      if (!credential.apiKey) throw new ConfigurationError("UNSUPPORTED_OPTION", "OpenAPIToolset's authCredential has authType apiKey but no apiKey.");
      auth.credential = { apiKey: credential.apiKey };
      return auth;
    case "http": {
      if (scheme.type !== "http") throw mismatch();
      const given = credential.http?.credentials ?? {};
      if (scheme.scheme?.toLowerCase() === "basic") {
        if (given.username === undefined || given.password === undefined) throw new ConfigurationError("UNSUPPORTED_OPTION", "OpenAPIToolset's authCredential is for HTTP basic but lacks http.credentials.username or password.");
        auth.credential = { username: given.username, password: given.password };
      } else {
        if (!given.token) throw new ConfigurationError("UNSUPPORTED_OPTION", "OpenAPIToolset's authCredential is for an HTTP bearer scheme but has no http.credentials.token.");
        auth.credential = { token: given.token };
      }
      return auth;
    }
    case "oauth2":
    case "openIdConnect": {
      if (scheme.type !== "oauth2" && scheme.type !== "openIdConnect") throw mismatch();
      const oauth2 = credential.oauth2 ?? {};
      if (oauth2.accessToken) auth.credential = { accessToken: oauth2.accessToken };
      else if (flows.clientCredentials && oauth2.clientId && oauth2.clientSecret) auth.credential = { clientId: oauth2.clientId, clientSecret: oauth2.clientSecret };
      // Else the person signs in: the client's details make the sign-in URL when the call asks for a credential.
      else auth.signIn.rawAuthCredential = credential;
      return auth;
    }
    default:
      throw new ConfigurationError("UNSUPPORTED_OPTION", `OpenAPIToolset: authCredential of authType "${credential.authType}" is not supported by toolsmith; use an API key, HTTP basic or bearer, or OAuth 2.`);
  }
}
