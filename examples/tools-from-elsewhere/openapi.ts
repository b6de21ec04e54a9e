// OpenAPIToolset: one tool per operation of an OpenAPI 3.0/3.1 document (see README, "OpenAPI").
import { LlmAgent, Runner } from "toolsmith";
import { OpenAPIToolset } from "toolsmith/openapi";
import { ScriptedModel, functionCallsResponse, textResponse } from "toolsmith/testing";

const petstore = new OpenAPIToolset({
  path: "./petstore.yaml", // JSON or YAML; relative file $refs are resolved against it
  baseUrl: "http://127.0.0.1:4010", // default: the document's first server
  credentials: {
    api_key: { apiKey: "special-key" }, // apiKey in header, query or cookie, as the scheme says
    // basic: { username: "ada", password: "…" }, bearer: { token: "…" }, oauth2: { accessToken: "…" }
  },
  toolFilter: ["getPetById", "findPetsByStatus", "placeOrder"],
  requireConfirmation: (toolName) => toolName === "placeOrder",
});

const model = new ScriptedModel([functionCallsResponse({ name: "getPetById", args: { petId: 1 } }), textResponse("Pet 1 is a dog called doggie.")]);
const runner = new Runner({ appName: "pets", agent: new LlmAgent({ name: "pet_shop", model, tools: [petstore] }) });
const session = await runner.sessionService.createSession({ appName: "pets", userId: "u1" });
for await (const event of runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Tell me about pet 1" }] } })) {
  console.log(event.author, JSON.stringify(event.content));
}
