import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { OpenApiServer } from "./openapi-document.js";

/**
 * The base URL of the first of `servers` (OpenAPI's default, `/`, when there
 * are none): its `{variables}` filled from `variables` or their defaults, and
 * a relative URL (`/v1`, `v1`) resolved against `origin`, the address the
 * document was served from, as the specification says.
 *
 * @throws ConfigurationError `OPENAPI_SERVER_VARIABLE` when a value is not
 *   one of the variable's `enum`; `MISSING_BASE_URL` when the URL is relative
 *   and the document has no web address to resolve it against.
 */
export function resolveServerUrl(servers: readonly OpenApiServer[] | undefined, options: { origin?: string; variables?: Readonly<Record<string, string>>; title?: string }): string {
  const server = servers?.[0] ?? { url: "/" };
  const url = server.url.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const variable = server.variables?.[name];
    const value = options.variables?.[name] ?? variable?.default ?? "";
    if (variable?.enum?.length && !variable.enum.includes(value)) {
      throw new ConfigurationError(
        "OPENAPI_SERVER_VARIABLE",
        `The server variable "${name}" of ${server.url} is "${value}", which is not one of ${variable.enum.map((item) => JSON.stringify(item)).join(", ")}. Pass one of them in serverVariables.`,
      );
    }
    return value;
  });
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return url;
  if (options.origin && /^https?:/i.test(options.origin)) return new URL(url, options.origin).href;
  throw new ConfigurationError(
    "MISSING_BASE_URL",
    `The server URL "${server.url}" of ${options.title ? `"${options.title}"` : "the OpenAPI document"} is relative to where the document is served, and the document ${options.origin ? `was read from ${options.origin}` : "was given without an address"}. Pass baseUrl (where to send requests) or url (the address the document is served from).`,
  );
}
