/**
 * OpenAPI for toolsmith: {@link OpenAPIToolset} turns each operation of an
 * OpenAPI 3.0 or 3.1 document into a tool. Needs the optional peers
 * `@apidevtools/json-schema-ref-parser` and `js-yaml`.
 *
 * @module toolsmith/openapi
 */
export { OpenAPIToolset, type OpenAPIToolsetOptions } from "./openapi-toolset.js";
export { OpenApiOperationTool } from "./openapi-operation-tool.js";
export type { ApiCredential } from "./openapi-auth.js";
export type { ClientCredentials } from "../auth/client-credentials.js";
export { loadOpenApiDocument, type OpenApiSource } from "./load-openapi-document.js";
export type { OpenApiDocument } from "./openapi-document.js";
