/**
 * One turn of an agent on Gemini through Vertex AI, in a process of its own so the test sets its environment:
 * argument `{ mode, framework }`, `mode` `"options"` (ADK's `new Gemini({ vertexai, project, location, headers })`)
 * or `"environment"` (the model by name, Vertex AI chosen by GOOGLE_GENAI_USE_ENTERPRISE and friends), on
 * `@google/adk` or toolsmith. Prints the texts as one JSON line, or the error's code and message.
 */
import * as adk from "@google/adk";
import * as toolsmith from "../../../src/index.js";
import { Gemini } from "../../../src/models/gemini/index.js";

const { mode, framework } = JSON.parse(process.argv[2]!) as { mode: "options" | "environment"; framework: "adk" | "toolsmith" };
// The same program on either framework: ADK's names are toolsmith's.
const { InMemoryRunner, LlmAgent } = (framework === "adk" ? adk : toolsmith) as typeof toolsmith;
const GeminiClass = (framework === "adk" ? adk.Gemini : Gemini) as typeof Gemini;
try {
  const model = mode === "options" ? new GeminiClass({ model: "gemini-2.5-flash", vertexai: true, project: "shop-prod", location: "us-central1", headers: { "x-team": "support" } }) : "gemini-2.5-flash";
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "assistant", model, instruction: "Answer briefly." }), appName: "vertex" });
  const session = await runner.sessionService.createSession({ appName: "vertex", userId: "u" });
  const texts: string[] = [];
  for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Hello?" }] } })) {
    if (event.errorCode) texts.push(`error ${event.errorCode}: ${event.errorMessage}`);
    for (const part of event.content?.parts ?? []) if (part.text) texts.push(part.text);
  }
  process.stdout.write(`${JSON.stringify({ texts })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ code: toolsmith.isToolsmithError(error) ? error.code : undefined, message: (error as Error).message })}\n`);
}
