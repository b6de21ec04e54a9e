import { describeTools } from "../server/describe-tools.js";
import { lintTools, PROVIDERS, providerSchemaFor, type Provider } from "../server/provider-schemas.js";
import type { CliIo } from "./cli-io.js";
import { EXIT, UsageError } from "./exit-codes.js";
import { loadAgent } from "./load-agent.js";

/** `toolsmith tools <agent> [--provider p] [--json]`: every tool the agent gets, its schema as the provider receives it, and lint warnings. */
export async function toolsCommand(options: { io: CliIo; agentPath: string | undefined; provider: string | undefined; json: boolean }): Promise<number> {
  const provider = (options.provider ?? "gemini") as Provider;
  if (!PROVIDERS.includes(provider)) throw new UsageError(`--provider must be one of ${PROVIDERS.join(", ")}, not "${options.provider}".`);
  const { agent } = await loadAgent(options.agentPath);
  const tools = (await describeTools({ root: agent })).map((tool) => ({ ...tool, parameters: providerSchemaFor(provider, tool.parameters) }));
  const warnings = lintTools(provider, tools);
  if (options.json) {
    options.io.stdout.write(`${JSON.stringify({ provider, tools, warnings }, null, 2)}\n`);
    return EXIT.OK;
  }
  const out = options.io.stdout;
  out.write(`${tools.length} tool(s) of ${agent.name}, as ${provider} receives them:\n`);
  for (const tool of tools) {
    const flags = [tool.isLongRunning ? "long-running" : "", tool.declared ? "" : "hidden from the model", tool.agent !== agent.name ? `on agent ${tool.agent}` : ""].filter(Boolean);
    out.write(`\n${tool.name}${flags.length ? ` (${flags.join(", ")})` : ""}\n  ${tool.description.split("\n")[0]}\n`);
    out.write(`  parameters: ${JSON.stringify(tool.parameters ?? {}, null, 2).replace(/\n/g, "\n  ")}\n`);
    for (const warning of warnings.filter((entry) => entry.tool === tool.name)) out.write(`  warning at ${warning.path || "/"}: ${warning.message}\n`);
  }
  out.write(`\n${warnings.length} schema warning(s).\n`);
  return EXIT.OK;
}
