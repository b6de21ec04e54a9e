import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptedFigure, conformanceDocuments, runAdk, runToolsmith, startPrism, type OperationOutcome, type ToolsetOutcome } from "../../bench/openapi-conformance.js";

/**
 * The operations Prism 5.14.2 does not accept from toolsmith, each with why.
 * Every one is a limit of the mock server or of the argument generator, not
 * a request that breaks the document; the serialisations involved are
 * checked against the specification's own tables in style-values.test.ts
 * and request-fidelity.test.ts. README.md ("OpenAPI" → conformance) lists the same.
 */
const KNOWN_REFUSALS: { name: string; matches: (operation: OperationOutcome) => boolean; why: string }[] = [
  {
    name: "prism-throws-on-styled-parameters",
    matches: (operation) => /Prism did not answer/.test(operation.reason ?? ""),
    why: "Prism 5.14.2 throws outside its request handler while deserialising array and object path parameters (simple, label, matrix) and space- or pipe-delimited query arrays, and never answers",
  },
  {
    name: "informational-status",
    matches: (operation) => /^get_status_(1\d\d|407)$/.test(operation.tool) && /no answer/.test(operation.reason ?? ""),
    why: "the document asks Prism to answer 1xx or 407, which Node's fetch cannot read as a final response",
  },
  {
    name: "generator-cannot-satisfy-schema",
    matches: (operation) => /^generated arguments break the tool's own schema/.test(operation.reason ?? ""),
    why: "no value satisfies the tool's own schema, which is the document's: a required body that is an allOf of a string and an integer, or a oneOf whose two branches are the same schema (only the discriminator, which JSON Schema ignores, tells them apart); no request is sent",
  },
  {
    name: "prism-form-and-multipart-objects",
    matches: (operation) => /Reserved characters used in request body|Request body property \S+ must be (object|array)/.test(operation.reason ?? ""),
    why: "Prism reads form and multipart fields as one string per name: it keeps only the last of repeated fields (exploded arrays), does not parse JSON parts or encoding contentType, and tests the raw value of a styled object field for reserved characters",
  },
  {
    name: "prism-space-delimited",
    matches: (operation) => operation.tool === "queryDelimited" && /spaced\.0/.test(operation.reason ?? ""),
    why: "Prism does not split a spaceDelimited query array sent as the specification writes it (`red%20green`)",
  },
  {
    name: "authorization-header-parameter",
    matches: (operation) => /required property 'authorization'/.test(operation.reason ?? ""),
    why: "the document declares an `Authorization` header parameter, which OpenAPI says is ignored (authorization comes from security schemes); toolsmith does not offer it, Prism requires it",
  },
  {
    name: "security-requirement-with-two-schemes",
    matches: (operation) => operation.tool === "post_anything_and" && /Invalid security scheme used/.test(operation.reason ?? ""),
    why: "the requirement needs HTTP basic and OAuth 2 at once, which both want the single Authorization header",
  },
  {
    name: "recursive-schema-cut",
    matches: (operation) => /circular/.test(operation.document) && /must have required property|must be object/.test(operation.reason ?? ""),
    why: "the document's schema refers to itself; a tool schema must be finite, so toolsmith cuts it at the second level (keeping the type), and the generated value ends there without the fields the full recursive schema requires",
  },
  {
    name: "undefined-security-scheme",
    matches: (operation) => /response-http-behavior/.test(operation.document) && operation.reason === "no request was sent",
    why: "the operations require a security scheme `api_key` that the document never defines; the tool answers that it cannot authenticate instead of calling",
  },
];

describe("OpenAPIToolset against Prism's request validation, on every operation of the example documents", () => {
  const documents = conformanceDocuments();
  let prism: Awaited<ReturnType<typeof startPrism>>;
  let toolsmith: ToolsetOutcome;

  beforeAll(async () => {
    prism = await startPrism(documents);
    toolsmith = await runToolsmith(documents, prism.urls);
  }, 300_000);
  afterAll(async () => {
    await prism?.stop();
  });

  it("sends requests Prism accepts for every operation but the named, explained exceptions", () => {
    const refused = toolsmith.operations.filter((operation) => !operation.accepted);
    const unexplained = refused.filter((operation) => !KNOWN_REFUSALS.some((known) => known.matches(operation)));
    const byReason = KNOWN_REFUSALS.map((known) => `${known.name}: ${refused.filter((operation) => known.matches(operation)).length}`);
    console.log(`toolsmith OpenAPIToolset: ${acceptedFigure(toolsmith)} operations accepted by Prism over ${documents.length} documents; refused by reason: ${byReason.join(", ")}`);
    expect(toolsmith.unloadable).toEqual([]);
    expect(toolsmith.operations.length).toBeGreaterThan(600);
    expect(unexplained).toEqual([]);
  });

  it("measures @google/adk's OpenAPIToolset on the same documents in the same run", async () => {
    const adk = await runAdk(documents, prism.urls);
    console.log(`@google/adk 2.0.0 OpenAPIToolset: ${acceptedFigure(adk)} operations accepted by Prism (toolsmith: ${acceptedFigure(toolsmith)})`);
    expect(adk.operations.length).toBeGreaterThan(600);
  }, 300_000);
});
