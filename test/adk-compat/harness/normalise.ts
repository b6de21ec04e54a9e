import type { NormalisedContent, NormalisedEvent, NormalisedRequest, RawRun, RunRecord, SeenRequest } from "./record.js";

/** The event actions a record keeps, when they are set and not empty. */
const RECORDED_ACTIONS = ["stateDelta", "artifactDelta", "transferToAgent", "escalate", "requestedToolConfirmations", "skipSummarization"] as const;

/**
 * Normalises a raw run of either framework: ids and timestamps go, function-call
 * ids become `call-1`, `call-2`… in the order the stored events (then the
 * requests) first show them, schemas lose `$schema` and genai's upper-case type
 * names, and objects are written with sorted keys.
 */
export function normaliseRun(raw: RawRun, unusedModelTurns: number): RunRecord {
  const callIds = new CallIdOrder();
  for (const event of raw.events) callIds.collectEvent(event);
  for (const event of raw.events) callIds.collect(event);
  for (const request of raw.requests) callIds.collect(request.contents);
  const record: RunRecord = {
    output: raw.output.map((line) => withPrintedJson(callIds.replaceInText(line), (value) => value)),
    requests: raw.requests.map((request) => callIds.replace(normaliseRequest(request))),
    events: raw.events.map((event) => callIds.replace(normaliseEvent(event))),
    unusedModelTurns,
  };
  if (raw.error !== undefined) record.error = callIds.replaceInText(raw.error);
  return sortKeys(record);
}

function normaliseRequest(request: SeenRequest): NormalisedRequest {
  const normalised: NormalisedRequest = {
    systemInstruction: request.systemInstruction,
    contents: request.contents.map(normaliseContent),
    functionDeclarations: request.functionDeclarations.map((declaration) => ({
      name: declaration.name,
      ...(declaration.parameters === undefined ? {} : { parameters: normaliseSchema(declaration.parameters) }),
    })),
  };
  if (request.responseSchema !== undefined) normalised.responseSchema = normaliseSchema(request.responseSchema);
  return normalised;
}

function normaliseEvent(value: unknown): NormalisedEvent {
  const event = value as Record<string, unknown>;
  const normalised: NormalisedEvent = { author: String(event["author"]) };
  if (event["content"] !== undefined && event["content"] !== null) normalised.content = normaliseContent(event["content"]);
  const actions = (event["actions"] ?? {}) as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const name of RECORDED_ACTIONS) {
    const action = actions[name];
    if (action === undefined || action === null || action === false) continue;
    if (typeof action === "object" && Object.keys(action).length === 0) continue;
    kept[name] = plainData(action);
  }
  if (Object.keys(kept).length > 0) normalised.actions = kept;
  const longRunning = event["longRunningToolIds"];
  const longRunningIds = longRunning instanceof Set ? [...longRunning] : Array.isArray(longRunning) ? longRunning : [];
  if (longRunningIds.length > 0) normalised.longRunningToolIds = longRunningIds.map(String);
  if (typeof event["errorCode"] === "string" || typeof event["errorCode"] === "number") normalised.errorCode = String(event["errorCode"]);
  return normalised;
}

function normaliseContent(value: unknown): NormalisedContent {
  const content = value as { role?: string; parts?: Array<Record<string, unknown>> };
  return {
    ...(content.role === undefined ? {} : { role: content.role }),
    parts: (content.parts ?? []).map(normalisePart),
  };
}

function normalisePart(part: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  if (typeof part["text"] === "string") kept["text"] = part["text"];
  if (part["thought"] === true) kept["thought"] = true;
  const call = part["functionCall"] as Record<string, unknown> | undefined;
  if (call) kept["functionCall"] = { name: call["name"], args: plainData(call["args"] ?? {}), ...(call["id"] ? { id: call["id"] } : {}) };
  const response = part["functionResponse"] as Record<string, unknown> | undefined;
  if (response) kept["functionResponse"] = { name: response["name"], response: plainData(response["response"] ?? {}), ...(response["id"] ? { id: response["id"] } : {}) };
  const inline = part["inlineData"] as Record<string, unknown> | undefined;
  if (inline) kept["inlineData"] = { mimeType: inline["mimeType"], data: inline["data"] };
  const file = part["fileData"] as Record<string, unknown> | undefined;
  if (file) kept["fileData"] = { mimeType: file["mimeType"], fileUri: file["fileUri"] };
  return kept;
}

/** A JSON schema as both frameworks mean it: genai's `"OBJECT"` is JSON Schema's `"object"`; `$schema` says nothing to the model. */
function normaliseSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(normaliseSchema);
  if (typeof schema !== "object" || schema === null) return schema;
  const normalised: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$schema" || value === undefined) continue;
    if (key === "type" && typeof value === "string") normalised[key] = value.toLowerCase();
    else if (key === "type" && Array.isArray(value)) normalised[key] = value.map((type) => String(type).toLowerCase());
    else normalised[key] = normaliseSchema(value);
  }
  return normalised;
}

/** JSON-like data: class instances become plain objects, undefined fields go, Maps and Sets become objects and arrays. */
function plainData(value: unknown): unknown {
  if (value instanceof Map) return plainData(Object.fromEntries(value));
  if (value instanceof Set) return [...value].map(plainData);
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (Array.isArray(value)) return value.map(plainData);
  if (typeof value !== "object" || value === null) return value;
  const plain: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== undefined && typeof field !== "function") plain[key] = plainData(field);
  return plain;
}

/** Objects with their keys in order, so a fixture reads the same after every recording. */
function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeys) as T;
  if (typeof value !== "object" || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const field = (value as Record<string, unknown>)[key];
    if (field !== undefined) sorted[key] = sortKeys(field);
  }
  return sorted as T;
}

/** Gives function-call, invocation and event ids their order of appearance, since each framework makes its own. */
class CallIdOrder {
  readonly #order = new Map<string, string>();
  #calls = 0;
  #invocations = 0;
  #events = 0;

  /** Orders an event's invocation id and own id, which programs sometimes print. */
  collectEvent(value: unknown): void {
    const event = value as { id?: unknown; invocationId?: unknown };
    if (typeof event.invocationId === "string" && event.invocationId && !this.#order.has(event.invocationId)) this.#order.set(event.invocationId, `invocation-${++this.#invocations}`);
    if (typeof event.id === "string" && event.id && !this.#order.has(event.id)) this.#order.set(event.id, `event-${++this.#events}`);
  }

  collect(value: unknown): void {
    if (Array.isArray(value)) {
      for (const item of value) this.collect(item);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    const record = value as Record<string, unknown>;
    const call = record["functionCall"] as { id?: unknown } | undefined;
    if (call && typeof call.id === "string" && call.id && !this.#order.has(call.id)) this.#order.set(call.id, `call-${++this.#calls}`);
    for (const field of Object.values(record)) this.collect(field);
  }

  /** Replaces known ids in every string (and object key), also where a program wrote an id into text, and ISO times. */
  replace<T>(value: T): T {
    if (typeof value === "string") return (this.#order.get(value) ?? this.replaceInText(value)) as T;
    if (Array.isArray(value)) return value.map((item) => this.replace(item)) as T;
    if (typeof value !== "object" || value === null) return value;
    const replaced: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) replaced[this.#order.get(key) ?? key] = this.replace(field);
    return replaced as T;
  }

  /** Replaces known ids in printed text, the timestamps of printed events, and ISO times (memories carry the time they were stored). */
  replaceInText(text: string): string {
    let replaced = text.replace(/("timestamp":\s*)\d+(\.\d+)?/g, "$10").replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g, "<time>");
    for (const [id, order] of this.#order) replaced = replaced.split(id).join(order);
    return replaced;
  }
}

/**
 * A printed line that ends in JSON (`State: {…}`, `Event: {…}`), with `change` applied to that value and
 * its object keys sorted: key order means nothing in JSON, and each framework builds its objects in its
 * own order. The indentation of the print is kept. Lines without JSON are returned as they are.
 */
export function withPrintedJson(line: string, change: (value: unknown) => unknown): string {
  // The JSON starts at the first bracket from which the rest of the line parses (`[Agent] said: {…}`).
  let start = -1;
  let value: unknown;
  for (let at = 0; at < line.length && start < 0; at++) {
    if (line[at] !== "{" && line[at] !== "[") continue;
    try {
      value = JSON.parse(line.slice(at));
      start = at;
    } catch {
      // not JSON from here: try the next bracket
    }
  }
  if (start < 0) return line;
  const indented = /^[[{]\n( +)/.exec(line.slice(start))?.[1]?.length;
  return line.slice(0, start) + JSON.stringify(sortKeys(change(value)), null, indented);
}
