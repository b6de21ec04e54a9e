// Ported from google/adk-docs examples/typescript/snippets/callbacks/callback_basic.ts.
import { LlmAgent, InMemoryRunner, Context, LlmRequest, LlmResponse, Event, isFinalResponse } from 'toolsmith';
import { createUserContent } from "@google/genai";
import type { Content } from "@google/genai";

const MODEL_NAME = "gemini-2.5-flash";
const APP_NAME = "basic_callback_app";
const USER_ID = "test_user_basic";
const SESSION_ID = "session_basic_001";


// --- Define your callback function ---
function myBeforeModelLogic({
  context,
  request,
}: {
  context: Context;
  request: LlmRequest;
}): LlmResponse | undefined {
  console.log(
    `Callback running before model call for agent: ${context.agentName}`
  );
  // ... your custom logic here ...
  return undefined; // Allow the model call to proceed
}

// --- Register it during Agent creation ---
const myAgent = new LlmAgent({
  name: "MyCallbackAgent",
  model: MODEL_NAME,
  instruction: "Be helpful.",
  beforeModelCallback: myBeforeModelLogic,
});

// Agent Interaction
async function callAgentAsync(query: string) {
  const content: Content = createUserContent(query);

  // The InMemoryRunner creates and manages its own session service.
  const runner = new InMemoryRunner({
    agent: myAgent,
    appName: APP_NAME,
  });
 
  // Create the session before running the agent. The runner will not
  // create it automatically.
  await runner.sessionService.createSession({
    appName: APP_NAME,
    userId: USER_ID,
    sessionId: SESSION_ID,
  });

  // The run method returns an async iterator for the events
  const events = runner.runAsync({
    userId: USER_ID,
    sessionId: SESSION_ID,
    newMessage: content,
  });

  for await (const event of events) {
    // In a real application, you would handle different event types.
    // For this example, we'll just print the final text response.
    if (isFinalResponse(event) && event.content?.parts?.length) {
      const finalResponse =
        event.content?.parts?.[0]?.text ?? "No response text found.";
      console.log("Agent Response: ", finalResponse);
    }
  }
}

export async function main(): Promise<void> {
  await callAgentAsync("write a short joke");
}
