/**
 * The weather and sentiment agent from ADK's documentation: two function tools
 * and an instruction that makes the model use both.
 */
import { z } from "zod";
import { FunctionTool, LlmAgent, type Model } from "toolsmith";
import { FunctionModel, lastFunctionResponse, lastUserText, streamedText } from "toolsmith/testing";

export const getWeatherReport = new FunctionTool({
  name: "get_weather_report",
  description: "Retrieves the current weather report for a specified city.",
  parameters: z.object({ city: z.string().describe("The city to get the weather for.") }),
  execute: ({ city }, context) => {
    context.state.set("user:last_city", city);
    const reports: Record<string, string> = {
      london: "The current weather in London is cloudy with a temperature of 18 degrees Celsius and a chance of rain.",
      paris: "The weather in Paris is sunny with a temperature of 25 degrees Celsius.",
    };
    const report = reports[city.toLowerCase()];
    return report ? { status: "success", report } : { status: "error", error_message: `Weather information for '${city}' is not available.` };
  },
});

export const analyzeSentiment = new FunctionTool({
  name: "analyze_sentiment",
  description: "Analyzes the sentiment of the given text.",
  parameters: z.object({ text: z.string().describe("The text to analyze.") }),
  execute: ({ text }) => {
    const lowered = text.toLowerCase();
    if (lowered.includes("good") || lowered.includes("sunny")) return { sentiment: "positive", confidence: 0.8 };
    if (lowered.includes("rain") || lowered.includes("bad")) return { sentiment: "negative", confidence: 0.7 };
    return { sentiment: "neutral", confidence: 0.6 };
  },
});

/** The agent, for any model. */
export function createWeatherSentimentAgent(model: Model | string): LlmAgent {
  return new LlmAgent({
    name: "weather_sentiment_agent",
    model,
    description: "Reports the weather and the sentiment of the user's feedback.",
    instruction:
      "You are a helpful assistant that provides weather information and analyzes the sentiment of user feedback. " +
      "If the user asks about the weather in a specific city, use the 'get_weather_report' tool. " +
      "If the user gives feedback about the weather, use the 'analyze_sentiment' tool to understand their sentiment.",
    tools: [getWeatherReport, analyzeSentiment],
  });
}

/**
 * The app `toolsmith web examples` serves: the agent with a rule model standing
 * in for a real one (say "weather in Paris", then tell it how you like it).
 */
export const rootAgent = createWeatherSentimentAgent(
  new FunctionModel((request) => {
    const result = lastFunctionResponse(request);
    if (result?.name === "get_weather_report") return streamedText(String(result.response?.report ?? result.response?.error_message));
    if (result) return streamedText(`Thanks for the feedback (sentiment: ${String(result.response?.sentiment)}).`);
    const text = lastUserText(request) ?? "";
    const city = /weather in ([\p{L} ]+)/iu.exec(text)?.[1]?.trim();
    if (city) return { content: { role: "model", parts: [{ functionCall: { name: "get_weather_report", args: { city } } }] } };
    return { content: { role: "model", parts: [{ functionCall: { name: "analyze_sentiment", args: { text } } }] } };
  }, { name: "weather-rules", chunkDelayMs: 25 }),
);
