// Hosts one Prism mock server (request validation and security checks on, as `prism mock` runs them) per
// OpenAPI document named on the command line, all in this one process: Prism's modules load once instead
// of once per document. Prints one JSON line, {"ready": {"<document>": "<url>" | {"error": "…"}}}.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { getHttpOperationsFromSpec } = require("@stoplight/prism-http");
const { createServer } = require("@stoplight/prism-http-server");
const { createLogger } = require("@stoplight/prism-core");

// Prism 5.14.2 throws outside its request handling on some inputs (matrix path parameters): that request
// then gets no answer, which the caller sees as a timeout. The other servers keep running.
process.on("uncaughtException", (error) => process.stderr.write(`prism crashed on a request: ${error.message}\n`));

const logger = createLogger("conformance", { level: "silent" });
const config = { validateRequest: true, validateResponse: false, checkSecurity: true, errors: false, isProxy: false, mock: { dynamic: false } };
const ready = {};
for (const document of process.argv.slice(2)) {
  try {
    const operations = await getHttpOperationsFromSpec(document);
    const server = createServer(operations, { cors: false, config, components: { logger } });
    ready[document] = await server.listen(0, "127.0.0.1");
  } catch (error) {
    ready[document] = { error: String(error?.message ?? error) };
  }
}
process.stdout.write(`${JSON.stringify({ ready })}\n`);
