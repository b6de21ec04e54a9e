// MCPToolset: an agent that uses the tools of two MCP servers (see README, "MCP").
import { LlmAgent, Runner, isFinalResponse, getText } from "toolsmith";
import { MCPToolset } from "toolsmith/mcp";
import { ScriptedModel, functionCallsResponse, textResponse } from "toolsmith/testing";

const files = new MCPToolset({
  // stdio: the server runs as a child process; `env` is added to the SDK's safe default environment.
  connection: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], env: { LOG_LEVEL: "warn" } },
  toolFilter: ["read_text_file", "list_directory", "write_file"],
  prefix: "files", // the model sees files_read_text_file; the server is called with read_text_file
  requireConfirmation: (toolName) => toolName === "write_file",
});

const search = new MCPToolset({
  // Streamable HTTP (or `type: "sse"` for legacy servers), with a per-user token computed for each call.
  connection: { type: "http", url: "http://127.0.0.1:3001/mcp", headers: (context) => ({ authorization: `Bearer ${context.state.get<string>("user:token") ?? ""}` }) },
  callTimeoutMs: 30_000,
  onProgress: ({ toolName, progress, total }) => console.log(`${toolName}: ${progress}/${total ?? "?"}`),
});

const model = new ScriptedModel([functionCallsResponse({ name: "files_list_directory", args: { path: "/tmp" } }), textResponse("Here is what /tmp holds.")]);
const agent = new LlmAgent({ name: "librarian", model, tools: [files, search] });
const runner = new Runner({ appName: "library", agent });
const session = await runner.sessionService.createSession({ appName: "library", userId: "u1" });
for await (const event of runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "What is in /tmp?" }] } })) {
  if (isFinalResponse(event)) console.log(getText(event.content));
}
await runner.close(); // ends both MCP sessions and the child process
