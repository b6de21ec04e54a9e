/**
 * Asks a real model about the weather, with a tool. Pick the model by name in
 * MODEL (default gemini-2.5-flash) and set that provider's key, for example:
 *
 *   GEMINI_API_KEY=… npm run example:models
 *   OPENAI_API_KEY=… MODEL=openai/gpt-4.1 npm run example:models
 *   MODEL=ollama/qwen3 npm run example:models        (Ollama on this machine)
 *
 * Before the run it prints what the provider will not see of the tool's schema.
 */
import { z } from "zod";
import { FunctionTool, getText, InMemoryRunner, isToolsmithError, LlmAgent } from "toolsmith";
import { lintToolSchemas, type SchemaProvider } from "toolsmith/models";

const getWeather = new FunctionTool({
  name: "get_weather",
  description: "The current weather in a city.",
  parameters: z.object({
    city: z.string().describe("The city name"),
    unit: z.enum(["celsius", "fahrenheit"]).optional(),
  }),
  execute: async ({ city, unit }) => ({ city, temperature: unit === "fahrenheit" ? 68 : 20, unit: unit ?? "celsius", sky: "clear" }),
});

const modelName = process.env.MODEL ?? "gemini-2.5-flash";
const provider: SchemaProvider = modelName.startsWith("gemini") ? "gemini" : modelName.startsWith("openai/") ? "openai" : modelName.startsWith("anthropic/") ? "anthropic" : "openai-compatible";
for (const finding of lintToolSchemas({ provider, declarations: [getWeather.declaration()] })) {
  console.log(`schema lint (${provider}) ${finding.tool}${finding.path}: ${finding.effect}: ${finding.message}`);
}

const agent = new LlmAgent({
  name: "weather_agent",
  model: modelName,
  instruction: "Answer weather questions with the get_weather tool. Be brief.",
  tools: [getWeather],
  generateContentConfig: { temperature: 0 },
});
const runner = new InMemoryRunner({ agent, appName: "weather" });
const session = await runner.sessionService.createSession({ appName: "weather", userId: "u1" });

try {
  for await (const event of runner.runAsync({
    userId: "u1",
    sessionId: session.id,
    newMessage: { role: "user", parts: [{ text: "How warm is it in Lisbon, in fahrenheit?" }] },
    runConfig: { streamingMode: "sse" },
  })) {
    if (event.partial) process.stdout.write(getText(event.content));
    else if (event.errorCode) console.error(`\n${event.errorCode}: ${event.errorMessage}`);
    else if (event.usageMetadata) console.log(`\n[${event.usageMetadata.totalTokenCount ?? "?"} tokens]`);
  }
} catch (error) {
  // A missing key or SDK is a ConfigurationError that names what to set or install.
  if (isToolsmithError(error)) console.error(`${error.code}: ${error.message}`);
  else throw error;
  process.exitCode = 1;
}
