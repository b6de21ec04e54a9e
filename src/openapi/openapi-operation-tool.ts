import { traceScopeOf } from "../agents/invocation-context.js";
import { traceContextEntries } from "../telemetry/spans.js";
import type { ArgumentsCheck, FunctionDeclaration, Tool } from "../tools/tool.js";
import { compileThirdPartyArgumentsCheck } from "../tools/json-schema-validator.js";
import type { ToolContext } from "../tools/tool-context.js";
import { toolErrorResult } from "../tools/tool-result.js";
import { buildHttpRequest, fillPath } from "./build-http-request.js";
import { resolveFileInputs } from "./file-input.js";
import type { OperationShape } from "./describe-operations.js";
import { decideAuth, type ApiCredential, type SignIn } from "./openapi-auth.js";
import type { ClientCredentialsTokens } from "../auth/client-credentials.js";
import type { OpenApiDocument, SecurityRequirement } from "./openapi-document.js";

/** What the operation tools of one toolset share. */
export interface OperationToolSettings {
  document: OpenApiDocument;
  baseUrl: string;
  credentials: Readonly<Record<string, ApiCredential>>;
  /** The toolset's token sources for schemes given client credentials, by scheme name. */
  clientTokens?: ReadonlyMap<string, ClientCredentialsTokens>;
  /** Security every operation uses instead of the document's (ADK's toolset-wide `authScheme`). */
  security?: SecurityRequirement[];
  /** For schemes a person signs in to: the client's details and the key the answer is kept under, by scheme name. */
  signIn?: Readonly<Record<string, SignIn>>;
  headers?: Record<string, string>;
  /** Headers made for each call from its context (ADK's `headerProvider`). */
  headerProvider?: (context: ToolContext) => Record<string, string>;
  fetch: typeof fetch;
  requireConfirmation?: boolean | ((toolName: string, args: Record<string, unknown>, context: ToolContext) => boolean | Promise<boolean>);
  /** How much of a response body is read (see `OpenAPIToolsetOptions.maxResponseBytes`). */
  maxResponseBytes: number;
}

/** The response bytes read unless `maxResponseBytes` says otherwise. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1_048_576;

/**
 * One operation of an OpenAPI document as a tool: its parameters and body are
 * the tool's arguments, the call is an HTTP request, and a response outside
 * 2xx is an error result with the status and body.
 */
export class OpenApiOperationTool implements Tool {
  readonly name: string;
  readonly description: string;
  readonly #shape: OperationShape;
  readonly #settings: OperationToolSettings;
  readonly #declaration: FunctionDeclaration;

  constructor(shape: OperationShape, settings: OperationToolSettings) {
    this.name = shape.toolName;
    this.description = shape.description;
    this.#shape = shape;
    this.#settings = settings;
    this.#declaration = { name: shape.toolName, description: shape.description, parameters: shape.parameters };
  }

  /** The HTTP method and path template, for logs and filters. */
  get operation(): { method: string; path: string } {
    return { method: this.#shape.method.toUpperCase(), path: this.#shape.path };
  }

  /**
   * The arguments checked against the operation's schema, but for the document's regular expressions, which the
   * API checks itself: one of a third party's could block this process for minutes (see `compileThirdPartyArgumentsCheck`).
   */
  checkArguments(args: Record<string, unknown>): ArgumentsCheck {
    return compileThirdPartyArgumentsCheck(this.#declaration.parameters!, this.name)(args);
  }

  declaration(): FunctionDeclaration {
    return this.#declaration;
  }

  async requiresConfirmation(args: Record<string, unknown>, context: ToolContext): Promise<boolean> {
    const rule = this.#settings.requireConfirmation;
    return typeof rule === "function" ? rule(this.name, args, context) : (rule ?? false);
  }

  async run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    // Checked first: arguments that cannot make the operation's path ask for no sign-in and send nothing.
    const filled = fillPath(this.#shape, args);
    if ("error" in filled) return toolErrorResult(`Tool "${this.name}": ${filled.error}`);
    const { document, credentials, clientTokens, baseUrl, signIn } = this.#settings;
    const decision = await decideAuth({ document, security: this.#settings.security ?? this.#shape.security, credentials, clientTokens, signIn, baseUrl, context });
    if (decision.kind === "failed") {
      return toolErrorResult(`Tool "${this.name}" could not get an access token for ${decision.schemeName}: ${decision.message} Tell the user this API's credentials need attention.`);
    }
    if (decision.kind === "requested") {
      return { status: "pending", message: `Waiting for the user to authorize access (${decision.schemeName}). Tell the user; the call can be made again once they have.` };
    }
    if (decision.kind === "missing") {
      return toolErrorResult(`Tool "${this.name}" cannot authenticate: no credential is configured for ${decision.schemeNames.join(" or ")}. Tell the user this API is not set up.`);
    }
    const files = await this.#withFiles(args, context);
    if ("error" in files) return toolErrorResult(`Tool "${this.name}": ${files.error}`);
    const provided = this.#settings.headerProvider?.(context);
    const request = buildHttpRequest({ shape: this.#shape, path: filled.path, baseUrl: this.#settings.baseUrl, args: files.args, auth: decision.auth, headers: provided ? { ...this.#settings.headers, ...provided } : this.#settings.headers });
    // The trace context goes with the request (when an SDK is registered), unless the request sets its own.
    const headers = { ...traceContextEntries(traceScopeOf(context.invocationContext)), ...request.headers };
    const response = await this.#settings.fetch(request.url, { method: request.method, headers, body: request.body, signal: context.abortSignal });
    const { body, truncated } = await readBody(response, this.#settings.maxResponseBytes);
    const limit = this.#settings.maxResponseBytes;
    if (truncated && response.ok) {
      return { truncated: true, body, note: `The response was longer than ${limit} bytes; body holds the first ${limit}, as text. The call ran: ask for less (a page, a filter, fewer fields) rather than repeating it for the rest.` };
    }
    if (response.ok) return body;
    // A token the API refuses before its time (revoked, say) is not offered again: the next call gets a new one.
    if (response.status === 401) for (const token of decision.issued) token.tokens.forget(token.tokenUrl, token.scopes, token.accessToken);
    return toolErrorResult(
      `${request.method} ${this.#shape.path} failed with HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}. ` +
        (response.status >= 500 ? "The service failed; try again later or tell the user." : "Check the arguments against the error body and try again."),
      { httpStatus: response.status, body, ...(truncated ? { truncated: true } : {}) },
    );
  }

  /** The arguments with a multipart body's file inputs (artifact names, base64) read into bytes. */
  async #withFiles(args: Record<string, unknown>, context: ToolContext): Promise<{ args: Record<string, unknown> } | { error: string }> {
    const bodyInput = this.#shape.inputs.find((input) => input.location === "body");
    const fileSchemas = this.#shape.body?.fileSchemas ?? {};
    if (!bodyInput || Object.keys(fileSchemas).length === 0 || args[bodyInput.property] === undefined) return { args };
    const resolved = await resolveFileInputs(args[bodyInput.property], fileSchemas, context);
    return "error" in resolved ? resolved : { args: { ...args, [bodyInput.property]: resolved.value } };
  }
}

/** The body as JSON when it says so and parses, else as text; read up to `maxBytes`, the rest let go. */
async function readBody(response: Response, maxBytes: number): Promise<{ body: unknown; truncated: boolean }> {
  const { text, truncated } = await readCappedText(response, maxBytes);
  if (!text) return { body: null, truncated };
  if (!truncated && /json/i.test(response.headers.get("content-type") ?? "")) {
    try {
      return { body: JSON.parse(text), truncated };
    } catch {
      return { body: text, truncated };
    }
  }
  return { body: text, truncated };
}

/** Up to `maxBytes` of the body as UTF-8 text, and whether there was more (then the stream is cancelled). */
async function readCappedText(response: Response, maxBytes: number): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: "", truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: Buffer.concat(chunks, size).toString("utf8"), truncated: false };
    const room = maxBytes - size;
    if (value.length > room) {
      chunks.push(value.subarray(0, room));
      await reader.cancel().catch(() => undefined);
      return { text: Buffer.concat(chunks, maxBytes).toString("utf8"), truncated: true };
    }
    chunks.push(value);
    size += value.length;
  }
}
