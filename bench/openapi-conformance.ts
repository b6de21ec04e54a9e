/**
 * OpenAPI conformance: every operation of a set of OpenAPI documents is
 * called through toolsmith's OpenAPIToolset and through @google/adk's
 * OpenAPIToolset, with arguments generated from each tool's own schema, and
 * sent to Prism mock servers that validate each request (parameters, body,
 * security) against the document. An operation is accepted when Prism
 * answers it from the document rather than with one of its own errors (a
 * 422 problem, an `sl-violations` header, 401, 404, 405, 406; its 500
 * NO_RESPONSE_DEFINED comes after validation passed, so it counts as accepted).
 *
 * `node --import tsx bench/openapi-conformance.ts` prints the figures;
 * test/openapi/openapi-conformance.test.ts runs the same and checks them.
 */
import { spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { load as parseYaml } from "js-yaml";
import { OpenAPIToolset } from "../src/openapi/index.js";
import type { ApiCredential } from "../src/openapi/openapi-auth.js";
import { compileArgumentsCheck } from "../src/tools/json-schema-validator.js";
import { createReadonlyContext, createToolContext } from "../test/support/tool-context.js";
import { sampleValue } from "./schema-sample.js";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const examples = dirname(require.resolve("@readme/oas-examples/package.json"));

/** What happened to one operation. */
export interface OperationOutcome {
  document: string;
  tool: string;
  accepted: boolean;
  /** Prism's status for the request, when it answered. */
  status?: number;
  /** Why it was refused: Prism's error or violations, or why no request was sent. */
  reason?: string;
}

/** The outcomes of one toolset over every document. */
export interface ToolsetOutcome {
  operations: OperationOutcome[];
  /** Documents the toolset could not load at all, with the error. */
  unloadable: { document: string; reason: string }[];
}

/** The documents the conformance run uses: every JSON example of @readme/oas-examples (3.0 and 3.1), and the suite's own. */
export function conformanceDocuments(): string[] {
  const list = (folder: string) => readdirSync(folder).filter((name) => /\.(json|ya?ml)$/.test(name)).map((name) => join(folder, name));
  return [...list(join(examples, "3.0", "json")), ...list(join(examples, "3.1", "json")), ...list(join(here, "..", "test", "openapi", "fixtures", "conformance"))];
}

/** A short name for a document in reports: `3.0/petstore.json`, `conformance/styles.yaml`. */
export function documentName(document: string): string {
  return relative(document.startsWith(examples) ? examples : join(here, "..", "test", "openapi", "fixtures"), document).replace(/json\//, "");
}

/** Starts bench/prism-host.mjs for the documents; resolves with each document's mock URL (or its load error). */
export async function startPrism(documents: readonly string[]): Promise<{ urls: Record<string, string | { error: string }>; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [join(here, "prism-host.mjs"), ...documents], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const urls = await new Promise<Record<string, string | { error: string }>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start within 180 s: ${errors}`)), 180_000);
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split("\n").find((text) => text.startsWith("{"));
      if (line && output.includes("\n")) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { ready: Record<string, string | { error: string }> }).ready);
      }
    });
    child.once("exit", (code) => reject(new Error(`Prism exited with ${code}: ${errors}`)));
  });
  return {
    urls,
    async stop() {
      if (child.exitCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** What Prism answered to the last request sent through `fetch`. */
interface PrismVerdict {
  accepted: boolean;
  status?: number;
  reason?: string;
}

// ADK's tools call the global fetch, which the ADK run replaces with a judging one: that one sends through this.
const networkFetch = globalThis.fetch;

/** A fetch that gives up after `timeoutMs` and keeps Prism's verdict on the last request. */
function judgingFetch(timeoutMs: number) {
  const state: { last?: PrismVerdict } = {};
  const judged: typeof fetch = async (input, init) => {
    state.last = undefined;
    let response: Response;
    try {
      response = await networkFetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      state.last = { accepted: false, reason: `no answer: ${(error as Error).name === "TimeoutError" ? "Prism did not answer (it threw while reading the request)" : (error as Error).message}` };
      throw error;
    }
    const text = await response.clone().text();
    const violations = response.headers.get("sl-violations");
    const problem = /problem\+json/.test(response.headers.get("content-type") ?? "") ? (JSON.parse(text) as { type?: string; detail?: string; validation?: { location?: string[]; message?: string }[] }) : undefined;
    // Warnings (a deprecated parameter was sent) are not violations of the document: Prism answers the request as valid.
    const warningsOnly = violations !== null && response.ok && (JSON.parse(violations) as { severity?: string }[]).every((violation) => violation.severity === "Warning");
    if (violations && warningsOnly) state.last = { accepted: true, status: response.status, reason: `valid; Prism warns: ${violations}` };
    else if (violations) state.last = { accepted: false, status: response.status, reason: `sl-violations: ${violations}` };
    // Prism raises NO_RESPONSE_DEFINED only for a request that passed validation (an invalid one gets 422 or 400 first).
    else if (/#NO_RESPONSE(_RESPONSE)?_DEFINED$/.test(problem?.type ?? "")) state.last = { accepted: true, status: response.status, reason: "valid; the document has no response for Prism to mock" };
    else if (problem?.type?.startsWith("https://stoplight.io/prism/errors#")) {
      const details = problem.validation?.map((item) => `${(item.location ?? []).join(".")}: ${item.message}`).join("; ");
      state.last = { accepted: false, status: response.status, reason: `${problem.type.split("#")[1]}: ${details || problem.detail}` };
    } else state.last = { accepted: true, status: response.status };
    return response;
  };
  return { fetch: judged, verdict: () => state.last };
}

/** A credential of the right kind for every security scheme of the document, so that Prism's security check passes. */
function credentialsFor(document: Record<string, unknown>): Record<string, ApiCredential> {
  const schemes = ((document.components as { securitySchemes?: Record<string, { type?: string; scheme?: string }> } | undefined)?.securitySchemes ?? {}) as Record<string, { type?: string; scheme?: string }>;
  const credentials: Record<string, ApiCredential> = {};
  for (const [name, scheme] of Object.entries(schemes)) {
    if (scheme.type === "apiKey") credentials[name] = { apiKey: "conformance-key" };
    else if (scheme.type === "http" && scheme.scheme?.toLowerCase() === "basic") credentials[name] = { username: "ada", password: "lovelace" };
    else if (scheme.type === "http") credentials[name] = { token: "conformance-token" };
    else credentials[name] = { accessToken: "conformance-token" };
  }
  return credentials;
}

function readDocument(path: string): Record<string, unknown> {
  return parseYaml(readFileSync(path, "utf8")) as Record<string, unknown>;
}

/** Calls every operation of every document through toolsmith's OpenAPIToolset. */
export async function runToolsmith(documents: readonly string[], urls: Record<string, string | { error: string }>, timeoutMs = 1_500): Promise<ToolsetOutcome> {
  const outcome: ToolsetOutcome = { operations: [], unloadable: [] };
  for (const document of documents) {
    const url = urls[document];
    if (typeof url !== "string") continue;
    const judge = judgingFetch(timeoutMs);
    if (process.env.CONFORMANCE_TRACE) process.stderr.write(`toolsmith ${documentName(document)}\n`);
    let tools;
    try {
      tools = await new OpenAPIToolset({ path: document, baseUrl: url, credentials: credentialsFor(readDocument(document)), fetch: judge.fetch }).getTools(await createReadonlyContext());
    } catch (error) {
      outcome.unloadable.push({ document: documentName(document), reason: (error as Error).message });
      continue;
    }
    for (const tool of tools) {
      const parameters = tool.declaration()!.parameters!;
      const check = validArguments(parameters, tool.name);
      const base = { document: documentName(document), tool: tool.name };
      if (!check.ok) {
        outcome.operations.push({ ...base, accepted: false, reason: `generated arguments break the tool's own schema: ${JSON.stringify(check.issues)}` });
        continue;
      }
      const thrown = await tool.run(check.value, await createToolContext()).then(() => undefined, (error: Error) => error.message);
      const verdict = judge.verdict() ?? { accepted: false, reason: `no request was sent${thrown ? `: ${thrown}` : ""}` };
      outcome.operations.push({ ...base, ...verdict });
    }
  }
  return outcome;
}

/**
 * Calls every operation of every document through @google/adk's
 * OpenAPIToolset (it takes one auth scheme for all operations: the
 * document's first, with a credential of its kind), sending to Prism by
 * putting the mock's URL in the document's `servers`.
 */
export async function runAdk(documents: readonly string[], urls: Record<string, string | { error: string }>, timeoutMs = 1_500): Promise<ToolsetOutcome> {
  const adk = await import("@google/adk");
  adk.setLogger(null);
  const outcome: ToolsetOutcome = { operations: [], unloadable: [] };
  const originalFetch = globalThis.fetch;
  for (const document of documents) {
    const url = urls[document];
    if (typeof url !== "string") continue;
    const spec = readDocument(document);
    spec.servers = [{ url }];
    for (const item of Object.values((spec.paths ?? {}) as Record<string, Record<string, { servers?: unknown }>>)) {
      delete item.servers;
      for (const operation of Object.values(item)) if (typeof operation === "object" && operation !== null) delete operation.servers;
    }
    const schemes = Object.entries(((spec.components as { securitySchemes?: Record<string, Record<string, unknown>> } | undefined)?.securitySchemes ?? {}) as Record<string, Record<string, unknown>>);
    const [, scheme] = schemes[0] ?? [];
    const authCredential = !scheme
      ? undefined
      : scheme.type === "apiKey"
        ? { authType: adk.AuthCredentialTypes.API_KEY, apiKey: "conformance-key" }
        : { authType: adk.AuthCredentialTypes.HTTP, http: { scheme: "bearer", credentials: { token: "conformance-token", username: "ada", password: "lovelace" } } };
    const judge = judgingFetch(timeoutMs);
    if (process.env.CONFORMANCE_TRACE) process.stderr.write(`adk ${documentName(document)}\n`);
    let tools;
    try {
      const toolset = new adk.OpenAPIToolset({ specDict: spec as never, ...(scheme ? { authScheme: scheme as never, authCredential } : {}) });
      tools = await toolset.getTools();
    } catch (error) {
      outcome.unloadable.push({ document: documentName(document), reason: (error as Error).message });
      continue;
    }
    const stored = new Map<string, unknown>();
    const context = { state: { get: (key: string) => stored.get(key), set: (key: string, value: unknown) => stored.set(key, value) }, getAuthResponse: () => undefined, requestCredential: () => undefined };
    globalThis.fetch = judge.fetch;
    try {
      for (const tool of tools as unknown as { name: string; _getDeclaration(): { parameters?: unknown }; runAsync(request: { args: Record<string, unknown>; toolContext: unknown }): Promise<unknown> }[]) {
        const base = { document: documentName(document), tool: tool.name };
        let args: Record<string, unknown>;
        try {
          args = (sampleValue(tool._getDeclaration().parameters ?? { type: "object" }) ?? {}) as Record<string, unknown>;
          await tool.runAsync({ args, toolContext: context });
        } catch (error) {
          outcome.operations.push({ ...base, accepted: false, reason: `threw: ${(error as Error).message}` });
          continue;
        }
        outcome.operations.push({ ...base, ...(judge.verdict() ?? { accepted: false, reason: "no request was sent" }) });
      }
    } finally {
      globalThis.fetch = originalFetch;
    }
  }
  return outcome;
}

/** Arguments for a tool generated from its schema, trying other oneOf/anyOf branches until its own check passes. */
function validArguments(parameters: Record<string, unknown>, toolName: string) {
  const check = compileArgumentsCheck(parameters, toolName);
  let result = check(sampleValue(parameters) as Record<string, unknown>);
  for (let variant = 1; variant < 6 && !result.ok; variant++) result = check(sampleValue(parameters, variant) as Record<string, unknown>);
  return result;
}

/** Accepted out of called, as "n / m". */
export function acceptedFigure(outcome: ToolsetOutcome): string {
  return `${outcome.operations.filter((operation) => operation.accepted).length} / ${outcome.operations.length}`;
}

async function main(): Promise<void> {
  const documents = conformanceDocuments();
  const started = performance.now();
  const prism = await startPrism(documents);
  try {
    const toolsmith = await runToolsmith(documents, prism.urls);
    const adk = await runAdk(documents, prism.urls);
    const byDocument = new Map<string, { toolsmith: [number, number]; adk: [number, number] }>();
    for (const [name, outcome] of [["toolsmith", toolsmith], ["adk", adk]] as const) {
      for (const operation of outcome.operations) {
        const row = byDocument.get(operation.document) ?? { toolsmith: [0, 0], adk: [0, 0] };
        row[name][1]++;
        if (operation.accepted) row[name][0]++;
        byDocument.set(operation.document, row);
      }
    }
    console.log(`OpenAPI operations accepted by Prism's request validation (${documents.length} documents, ${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
    console.log("| document | toolsmith | @google/adk 2.0.0 |\n|---|---|---|");
    for (const [document, row] of [...byDocument].sort()) console.log(`| ${document} | ${row.toolsmith[0]} / ${row.toolsmith[1]} | ${row.adk[0]} / ${row.adk[1]} |`);
    console.log(`| **all** | **${acceptedFigure(toolsmith)}** | **${acceptedFigure(adk)}** |`);
    for (const [name, outcome] of [["toolsmith", toolsmith], ["@google/adk", adk]] as const) {
      if (outcome.unloadable.length) console.log(`\n${name} could not load: ${outcome.unloadable.map((item) => `${item.document} (${item.reason})`).join("; ")}`);
      const refused = outcome.operations.filter((operation) => !operation.accepted);
      if (refused.length && process.argv.includes("--refusals")) for (const operation of refused) console.log(`${name} refused: ${operation.document} ${operation.tool}: ${operation.reason}`);
    }
    const failedPrism = Object.entries(prism.urls).filter(([, url]) => typeof url !== "string");
    if (failedPrism.length) console.log(`\nPrism could not serve: ${failedPrism.map(([document, url]) => `${documentName(document)} (${(url as { error: string }).error})`).join("; ")}`);
  } finally {
    await prism.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
