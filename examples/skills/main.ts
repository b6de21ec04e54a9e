/**
 * Skills in a deep agent: the model sees only each skill's name and
 * description, loads a skill when it needs it, and runs the skill's script
 * the way the agent runs commands (under bubblewrap here). A sub-agent has a
 * skill of its own and asks the user before it writes a file. The model is
 * toolsmith's ScriptedModel, playing the part a real model would.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { getText, InMemorySessionService, isFinalResponse, REQUEST_CONFIRMATION, Runner, type Content, type LlmRequest } from "toolsmith";
import { functionCallsResponse, ScriptedModel, textResponse, userMessage } from "toolsmith/testing";
import { createDeepAgent, FilesystemBackend } from "toolsmith/tools";

const skills = fileURLToPath(new URL("./skills", import.meta.url));
const lastResult = (request: LlmRequest) => request.contents.at(-1)?.parts?.at(-1)?.functionResponse?.response ?? {};

const model = new ScriptedModel([
  functionCallsResponse({ name: "load_skill", args: { name: "word-count" } }),
  functionCallsResponse({ name: "run_skill_script", args: { skill_name: "word-count", script_path: "scripts/count.sh", args: { file: "essay.txt" } } }),
  (request) => functionCallsResponse({ name: "editor", args: { request: `Write a summary of essay.txt (${String(lastResult(request).output ?? lastResult(request).message).trim()} words) to /summary.md.` } }),
  (request) => textResponse(`Done: ${String(lastResult(request).result)}`),
]);
const editorModel = new ScriptedModel([
  functionCallsResponse({ name: "load_skill_resource", args: { skill_name: "house-style", path: "references/rules.md" } }),
  functionCallsResponse({ name: "write_file", args: { file_path: "/summary.md", content: "Tides rise and fall twice a day.\n" } }),
  textResponse("Wrote /summary.md in the house style."),
]);

const workspace = mkdtempSync(join(tmpdir(), "skills-example-"));
writeFileSync(join(workspace, "essay.txt"), "Tides rise and fall twice a day, pulled by the moon.");
const agent = createDeepAgent({
  model,
  backend: new FilesystemBackend({ rootDirectory: workspace }),
  execution: { sandbox: true },
  skills: [join(skills, "word-count")],
  subagents: [
    {
      name: "editor",
      description: "Writes summaries in the house style.",
      model: editorModel,
      skills: [join(skills, "house-style")],
      interruptOn: { write_file: true }, // the editor asks before it writes; the main agent does not
    },
  ],
});

const runner = new Runner({ appName: "skills", agent, sessionService: new InMemorySessionService() });
const session = await runner.sessionService.createSession({ appName: "skills", userId: "u1" });
let message: Content = userMessage("How long is essay.txt? Then have it summarised.");
try {
  for (let turn = 0; turn < 3; turn++) {
    let confirmation: { id?: string } | undefined;
    for await (const event of runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: message })) {
      for (const part of event.content?.parts ?? []) {
        if (part.functionCall && part.functionCall.name !== REQUEST_CONFIRMATION) console.log(`${event.author} → ${part.functionCall.name}(${JSON.stringify(part.functionCall.args)})`);
        if (part.functionCall?.name === REQUEST_CONFIRMATION) confirmation = part.functionCall;
      }
      if (isFinalResponse(event) && getText(event.content)) console.log(`${event.author}: ${getText(event.content)}`);
    }
    if (!confirmation) break;
    console.log("(the user approves the file)");
    message = { role: "user", parts: [{ functionResponse: { id: confirmation.id, name: REQUEST_CONFIRMATION, response: { confirmed: true } } }] };
  }
  console.log(`summary.md: ${readFileSync(join(workspace, "summary.md"), "utf8").trim()}`);
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
