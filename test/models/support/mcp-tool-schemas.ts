import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** One tool schema from an MCP reference server. */
export interface McpToolSchema {
  server: string;
  name: string;
  inputSchema: Record<string, unknown>;
}

/**
 * Starts each MCP reference server from npm over stdio, lists its tools and
 * stops it: the real `inputSchema`s these servers declare.
 */
export async function listReferenceServerTools(): Promise<McpToolSchema[]> {
  const scratch = await mkdtemp(join(tmpdir(), "toolsmith-mcp-schemas-"));
  const servers: { server: string; args: string[]; env: Record<string, string> }[] = [
    { server: "server-everything", args: [], env: {} },
    { server: "server-filesystem", args: [scratch], env: {} },
    { server: "server-memory", args: [], env: { MEMORY_FILE_PATH: join(scratch, "memory.jsonl") } },
  ];
  try {
    const lists = await Promise.all(
      servers.map(async ({ server, args, env }) => {
        const transport = new StdioClientTransport({
          command: process.execPath,
          args: [join("node_modules", "@modelcontextprotocol", server, "dist", "index.js"), ...args],
          env: { ...getDefaultEnvironment(), ...env },
          stderr: "ignore",
        });
        const client = new Client({ name: "toolsmith-schema-corpus", version: "1.0.0" });
        await client.connect(transport);
        try {
          const { tools } = await client.listTools();
          return tools.map((tool) => ({ server, name: tool.name, inputSchema: tool.inputSchema as Record<string, unknown> }));
        } finally {
          await client.close();
        }
      }),
    );
    return lists.flat();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
