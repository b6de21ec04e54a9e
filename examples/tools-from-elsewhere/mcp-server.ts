// toolsmith as an MCP server: tools, toolsets and an agent served over stdio or Streamable HTTP (see README, "MCP").
import { z } from "zod";
import { FunctionTool, LlmAgent } from "toolsmith";
import { createMcpServer } from "toolsmith/mcp";
import { ScriptedModel, textResponse } from "toolsmith/testing";

const getWeather = new FunctionTool({
  name: "get_weather_report",
  description: "Retrieves the current weather report for a specified city.",
  parameters: z.object({ city: z.string().describe("The city name") }),
  execute: async ({ city }) => ({ status: "success", report: `Sunny in ${city}` }), // served as structuredContent
});
const assistant = new LlmAgent({ name: "assistant", description: "Answers questions.", model: new ScriptedModel([textResponse("Hello!")]) });

const server = createMcpServer({ name: "weather", tools: [getWeather], agents: [assistant] });
if (process.argv.includes("--stdio")) {
  await server.serveStdio(); // for clients that start this process (Claude Desktop, IDEs, …)
} else {
  const { url } = await server.listen({ port: 3000 }); // Streamable HTTP on 127.0.0.1
  console.error(`MCP server at ${url}`);
}
