import { loadOptionalPeer } from "../platform/load-optional-peer.js";
import { isLlmAgent } from "../server/describe-tools.js";
import { openServices } from "../server/open-services.js";
import type { CliIo } from "./cli-io.js";
import { EXIT } from "./exit-codes.js";
import { listenOn, parsePort, untilInterrupted } from "./listening.js";
import { loadAgent } from "./load-agent.js";

/** Options of {@link mcpCommand}. */
export interface McpCommandOptions {
  io: CliIo;
  agentPath?: string;
  /** Streamable HTTP instead of stdio. */
  http: boolean;
  host?: string;
  port?: string;
  userId: string;
  sessionServiceUri?: string;
  artifactServiceUri?: string;
  memoryServiceUri?: string;
  credentialServiceUri?: string;
}

/**
 * `toolsmith mcp [agent] [--http]`: serves the agent's tools, and the agent
 * itself as one tool, to MCP clients until stdin closes (stdio) or Ctrl-C.
 * Over stdio, stdout carries the protocol alone: every note goes to stderr.
 */
export async function mcpCommand(options: McpCommandOptions): Promise<number> {
  const { io } = options;
  const port = parsePort(options.port ?? "8000");
  const { appName, agent } = await loadAgent(options.agentPath);
  // The SDK is an optional peer: load it only for this command, so a missing one is named, not a stack trace.
  const { createMcpServer } = await loadOptionalPeer({ load: () => import("../mcp/mcp-server.js"), packageName: "@modelcontextprotocol/sdk", neededFor: "toolsmith mcp" });
  const services = await openServices(options);
  if (services.storageNotice) io.stderr.write(`note: ${services.storageNotice}\n`);
  const server = createMcpServer({
    name: agent.name,
    tools: isLlmAgent(agent) ? agent.tools : [],
    agents: [agent],
    sessionService: services.sessionService,
    appName,
    userId: options.userId,
  });
  try {
    if (options.http) {
      const listener = await listenOn(port, () => server.listen({ host: options.host ?? "127.0.0.1", port }));
      io.stderr.write(`toolsmith MCP server for ${agent.name} at ${listener.url}\n`);
      await untilInterrupted(io);
      await listener.close();
    } else {
      await server.serveStdio();
      io.stderr.write(`toolsmith MCP server for ${agent.name} on stdio\n`);
      await Promise.race([untilInterrupted(io), untilStdinEnds()]);
    }
  } finally {
    await server.close();
  }
  return EXIT.OK;
}

/** A stdio client ends the session by closing our stdin. */
function untilStdinEnds(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
}
