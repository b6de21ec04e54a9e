import type { JsonSchema, Part } from "./api.js";
import { h } from "./dom.js";
import type { PendingCall } from "./pending-calls.js";
import { schemaForm } from "./schema-form.js";

export { pendingCalls, type PendingCall } from "./pending-calls.js";

const REQUEST_CONFIRMATION = "adk_request_confirmation";
const REQUEST_CREDENTIAL = "adk_request_credential";
const REQUEST_INPUT = "adk_request_input";

/** Cards that answer each pending call: approve or reject, enter a credential, or send a long-running call's result. */
export function pendingRequestsView(pending: readonly PendingCall[], send: (parts: Part[]) => void): HTMLElement | null {
  if (!pending.length) return null;
  return h("div", { class: "requests", "data-testid": "pending-requests" }, pending.map((call) => requestCard(call, send)));
}

function requestCard(call: PendingCall, send: (parts: Part[]) => void): HTMLElement {
  const answer = (response: Record<string, unknown>) => send([{ functionResponse: { id: call.id, name: call.name, response } }]);
  if (call.name === REQUEST_CONFIRMATION && elicitationOf(call)) return elicitationCard(call, elicitationOf(call)!, answer);
  if (call.name === REQUEST_INPUT) return questionCard(call, answer);
  if (call.name === REQUEST_CONFIRMATION) {
    const original = call.args.originalFunctionCall as { name: string; args?: unknown };
    const confirmation = call.args.toolConfirmation as { hint?: string };
    return h(
      "div",
      { class: "request confirmation", "data-testid": "confirmation" },
      h("div", { class: "title" }, `Confirm ${original.name}?`),
      h("div", { class: "hint" }, confirmation.hint ?? ""),
      h("code", {}, JSON.stringify(original.args ?? {})),
      h("div", { class: "buttons" }, h("button", { class: "primary", onclick: () => answer({ confirmed: true }) }, "Approve"), h("button", { onclick: () => answer({ confirmed: false }) }, "Reject")),
    );
  }
  if (call.name === REQUEST_CREDENTIAL) {
    const authConfig = call.args.authConfig as { authScheme: { type: string; name?: string }; exchangedAuthCredential?: { oauth2?: Record<string, unknown> } };
    const type = authConfig.authScheme.type;
    const authUri = authConfig.exchangedAuthCredential?.oauth2?.authUri as string | undefined;
    const input = h("input", { type: type === "oauth2" ? "url" : "password", placeholder: type === "oauth2" ? "the URL you were redirected to" : type === "apiKey" ? "API key" : "token" });
    const submit = () => {
      const value = input.value.trim();
      const exchanged =
        type === "oauth2" || type === "openIdConnect"
          ? { authType: "oauth2", oauth2: { ...authConfig.exchangedAuthCredential?.oauth2, authResponseUri: value } }
          : type === "apiKey"
            ? { authType: "apiKey", apiKey: value }
            : { authType: "http", http: { scheme: "bearer", credentials: { token: value } } };
      answer({ ...authConfig, exchangedAuthCredential: exchanged });
    };
    return h(
      "div",
      { class: "request credential", "data-testid": "credential" },
      h("div", { class: "title" }, `Credential needed: ${authConfig.authScheme.name ?? type}`),
      authUri ? (isWebAddress(authUri) ? h("a", { href: authUri, target: "_blank", rel: "noopener" }, "Sign in") : h("div", { class: "error", "data-testid": "sign-in-refused" }, "The sign-in address is not a web address, so it is not linked.")) : null,
      input,
      h("div", { class: "buttons" }, h("button", { class: "primary", onclick: submit }, "Send")),
    );
  }
  const result = h("textarea", { rows: 3, "data-testid": "long-running-result" }, '{"status": "approved"}');
  const error = h("div", { class: "error" });
  const submit = () => {
    try {
      const value = JSON.parse(result.value) as unknown;
      answer(typeof value === "object" && value && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value });
    } catch {
      error.textContent = "The result must be JSON.";
    }
  };
  return h(
    "div",
    { class: "request long-running", "data-testid": "long-running" },
    h("div", { class: "title" }, `${call.name} is pending`),
    h("code", {}, JSON.stringify(call.args)),
    result,
    error,
    h("div", { class: "buttons" }, h("button", { class: "primary", onclick: submit }, "Send result")),
  );
}

/** What an MCP server asks the person during a call: its message and form (a confirmation's payload). */
interface Elicitation {
  payload: { mcpElicitation: { message: string; requestedSchema: JsonSchema }; content?: Record<string, unknown> };
  toolName: string;
}

function elicitationOf(call: PendingCall): Elicitation | undefined {
  const payload = (call.args.toolConfirmation as { payload?: Elicitation["payload"] } | undefined)?.payload;
  if (!payload?.mcpElicitation) return undefined;
  return { payload, toolName: (call.args.originalFunctionCall as { name: string }).name };
}

/**
 * The server's question as a form: Send answers it (accept, with the form's
 * values), Decline says no, Dismiss cancels. The answer resumes the call
 * that asked.
 */
function elicitationCard(call: PendingCall, elicitation: Elicitation, answer: (response: Record<string, unknown>) => void): HTMLElement {
  const { payload } = elicitation;
  const form = schemaForm(withDefaults(payload.mcpElicitation.requestedSchema, payload.content ?? {}), `elicit-${call.id}`);
  const error = h("div", { class: "error" });
  const hint = (call.args.toolConfirmation as { hint?: string }).hint ?? "";
  const accept = () => {
    const read = form.read();
    if ("error" in read) error.textContent = read.error;
    else answer({ confirmed: true, payload: { ...payload, content: read.args } });
  };
  return h(
    "div",
    { class: "request elicitation", "data-testid": "elicitation" },
    h("div", { class: "title" }, `${elicitation.toolName} asks`),
    h("div", { class: "hint" }, hint),
    form.element,
    error,
    h(
      "div",
      { class: "buttons" },
      h("button", { class: "primary", onclick: accept }, "Send"),
      h("button", { onclick: () => answer({ confirmed: false }) }, "Decline"),
      h("button", { onclick: () => answer({ confirmed: true, payload: { ...payload, action: "cancel" } }) }, "Dismiss"),
    ),
  );
}

/**
 * A question (`adk_request_input`, the model's or a workflow node's): its message, and a form of its
 * `response_schema` when it gives an object one, else a line of text, sent as `{result: text}`.
 */
function questionCard(call: PendingCall, answer: (response: Record<string, unknown>) => void): HTMLElement {
  const message = typeof call.args.message === "string" && call.args.message ? call.args.message : "The agent asks for your input.";
  const schema = call.args.response_schema as JsonSchema | null | undefined;
  const error = h("div", { class: "error" });
  let field: HTMLElement;
  let read: () => Record<string, unknown> | undefined;
  if (schema?.type === "object" && schema.properties) {
    const form = schemaForm(schema, `answer-${call.id}`);
    field = form.element;
    read = () => {
      const result = form.read();
      if ("error" in result) error.textContent = result.error;
      return "error" in result ? undefined : result.args;
    };
  } else {
    const input = h("input", { type: "text", "data-testid": "question-answer", placeholder: "your answer" });
    field = input;
    read = () => ({ result: input.value });
  }
  const send = () => {
    const response = read();
    if (response) answer(response);
  };
  return h("div", { class: "request question", "data-testid": "question" }, h("div", { class: "title" }, message), field, error, h("div", { class: "buttons" }, h("button", { class: "primary", onclick: send }, "Send")));
}

/** The form's schema with the values to start from as its defaults. */
function withDefaults(schema: JsonSchema, content: Record<string, unknown>): JsonSchema {
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, name in content ? { ...property, default: content[name] } : property]));
  return { ...schema, properties };
}

/** Whether a sign-in address is http(s): anything else (`javascript:`, `data:`) in a link would run in this page when clicked. */
function isWebAddress(address: string): boolean {
  try {
    const { protocol } = new URL(address);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}
