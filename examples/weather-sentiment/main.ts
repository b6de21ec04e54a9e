/**
 * Runs the weather and sentiment agent for two user turns and prints every
 * event. No model is reachable from here, so the model is toolsmith's
 * ScriptedModel, playing the part a real model would (it reads the tool
 * results it receives to phrase its answers).
 */
import { getFunctionResponses, getText, isFinalResponse, Runner, type LlmRequest } from "toolsmith";
import { functionCallsResponse, ScriptedModel, textResponse, userMessage } from "toolsmith/testing";
import { createWeatherSentimentAgent } from "./agent.ts";

const lastToolResult = (request: LlmRequest) => {
  const parts = request.contents.at(-1)?.parts ?? [];
  return getFunctionResponses({ parts })[0]?.response ?? {};
};

const model = new ScriptedModel([
  functionCallsResponse({ name: "get_weather_report", args: { city: "Paris" } }),
  (request) => textResponse(String(lastToolResult(request).report)),
  functionCallsResponse({ name: "analyze_sentiment", args: { text: "Sunny weather is good, I love it" } }),
  (request) => textResponse(`Glad you like it! (sentiment: ${String(lastToolResult(request).sentiment)})`),
]);

const agent = createWeatherSentimentAgent(model);
const runner = new Runner({ appName: "weather_sentiment", agent });
const session = await runner.sessionService.createSession({ appName: "weather_sentiment", userId: "user1" });

for (const message of ["What's the weather in Paris?", "Sunny weather is good, I love it"]) {
  console.log(`\nuser: ${message}`);
  for await (const event of runner.runAsync({ userId: "user1", sessionId: session.id, newMessage: userMessage(message) })) {
    for (const part of event.content?.parts ?? []) {
      if (part.functionCall) console.log(`  ${event.author} → ${part.functionCall.name}(${JSON.stringify(part.functionCall.args)})`);
      if (part.functionResponse) console.log(`  ${part.functionResponse.name} ← ${JSON.stringify(part.functionResponse.response)}`);
    }
    if (isFinalResponse(event)) console.log(`${event.author}: ${getText(event.content)}`);
  }
}
const stored = await runner.sessionService.getSession({ appName: "weather_sentiment", userId: "user1", sessionId: session.id });
console.log(`\nsession state: ${JSON.stringify(stored?.state)}; ${stored?.events.length} events stored`);
model.assertComplete();
