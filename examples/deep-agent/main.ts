/**
 * A deep agent over a real directory: it plans with todos, writes a file,
 * hands a review to a sub-agent, and runs a sandboxed command (asking the
 * user first). The model is toolsmith's ScriptedModel, playing the part a
 * real model would.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getText, InMemorySessionService, isFinalResponse, REQUEST_CONFIRMATION, Runner, type Content, type LlmRequest } from "toolsmith";
import { functionCallsResponse, ScriptedModel, textResponse, userMessage } from "toolsmith/testing";
import { CompositeBackend, createDeepAgent, FilesystemBackend, storeBackend } from "toolsmith/tools";

const lastResult = (request: LlmRequest) => request.contents.at(-1)?.parts?.at(-1)?.functionResponse?.response ?? {};

const model = new ScriptedModel([
  functionCallsResponse(
    { name: "write_todos", args: { todos: [{ content: "Write the script", status: "in_progress" }, { content: "Review and run it", status: "pending" }] } },
    { name: "write_file", args: { file_path: "/hello.sh", content: "echo hello from the sandbox\n" } },
  ),
  functionCallsResponse({ name: "reviewer", args: { request: "Review /hello.sh and say if it is safe to run." } }),
  functionCallsResponse({ name: "execute", args: { command: "sh hello.sh" } }),
  (request) => textResponse(`The script printed: ${String(lastResult(request).output ?? lastResult(request).message).trim()}`),
]);
const reviewerModel = new ScriptedModel([
  functionCallsResponse({ name: "read_file", args: { file_path: "/hello.sh" } }),
  textResponse("Safe: it only prints a line."),
]);

const workspace = mkdtempSync(join(tmpdir(), "deep-agent-"));
const agent = createDeepAgent({
  model,
  instruction: "You write and run small shell scripts.",
  // The workspace on disk; /memories persists across the user's sessions.
  backend: new CompositeBackend({ defaultBackend: new FilesystemBackend({ rootDirectory: workspace }), routes: { "/memories": storeBackend() } }),
  execution: { sandbox: true, timeoutMs: 30_000 },
  subagents: [{ name: "reviewer", description: "Reviews a script for safety.", systemPrompt: "Read the script and judge whether it is safe.", model: reviewerModel }],
  interruptOn: { execute: true },
});

const runner = new Runner({ appName: "scripts", agent, sessionService: new InMemorySessionService() });
const session = await runner.sessionService.createSession({ appName: "scripts", userId: "u1" });
let message: Content = userMessage("Write a hello script and run it.");
try {
  for (let turn = 0; turn < 3; turn++) {
    let confirmationId: string | undefined;
    // streamAgentToolEvents: also show what the sub-agents do, not only their answers to the deep agent.
    for await (const event of runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: message, runConfig: { streamAgentToolEvents: true } })) {
      for (const part of event.content?.parts ?? []) {
        if (part.functionCall?.name === REQUEST_CONFIRMATION) confirmationId = part.functionCall.id;
        else if (part.functionCall) console.log(`${event.author} → ${part.functionCall.name}(${JSON.stringify(part.functionCall.args)})`);
      }
      if (isFinalResponse(event) && event.author !== "user" && getText(event.content)) console.log(`${event.author}: ${getText(event.content)}`);
    }
    if (!confirmationId) break;
    console.log("(the user approves the command)");
    message = { role: "user", parts: [{ functionResponse: { id: confirmationId, name: REQUEST_CONFIRMATION, response: { confirmed: true } } }] };
  }
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
