import { existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSessionService, REQUEST_CONFIRMATION, Runner, type Event, type LlmAgent, type LlmRequest } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { createDeepAgent, FilesystemBackend, type DeepAgentOptions } from "../../src/tools/builtin/index.js";
import { summarize } from "../agents/event-summary.js";
import { tempDir } from "../support/temp-dir.js";
import { skillMd, writeSkill } from "../tools/skills/skill-fixtures.js";

const dir = tempDir("toolsmith-subagent-options-");

/** A "process": the SQLite file opened afresh, a new agent and Runner; nothing carries over but the file and the workspace. */
async function processOver(file: string, agent: LlmAgent) {
  const sessionService = await createSessionService(`sqlite://${file}`);
  return { sessionService, runner: new Runner({ appName: "app", agent, sessionService }) };
}

const responsesOf = (request: LlmRequest) => request.contents.flatMap((content) => content.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
const toolNames = (request: LlmRequest) => request.functionDeclarations.map((declaration) => declaration.name).sort();
const confirmationRequest = (events: readonly Event[]) => events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CONFIRMATION)?.functionCall;

/**
 * A deep agent whose `writer` sub-agent asks before write_file (its own rule;
 * the main agent has none), offered through `task`, over a real folder.
 */
function writerAgent(workspace: string, models: { main: ScriptedModel; writer: ScriptedModel }, extra: Partial<DeepAgentOptions> = {}) {
  return createDeepAgent({
    model: models.main,
    taskTool: true,
    backend: new FilesystemBackend({ rootDirectory: workspace }),
    subagents: [{ name: "writer", description: "Writes files.", systemPrompt: "Write what you are asked.", model: models.writer, interruptOn: { write_file: true } }],
    ...extra,
  });
}

describe("sub-agent options (seed 002's SubAgentSpec)", () => {
  it("pauses inside task when a sub-agent's own interruptOn names its tool, and runs the tool once approved, across a restart over SQLite", async () => {
    const workspace = realpathSync(mkdtempSync(join(dir, "ws-")));
    const file = join(dir, "approve.db");
    const first = await processOver(
      file,
      writerAgent(workspace, {
        main: new ScriptedModel([
          // The main agent writes a file itself: the sub-agent's rule is not the main agent's, so this runs at once.
          functionCallsResponse({ name: "write_file", args: { file_path: "/plan.md", content: "plan" } }),
          functionCallsResponse({ name: "task", args: { subagent_type: "writer", description: "Write /out.md saying hello." } }),
        ]),
        writer: new ScriptedModel([functionCallsResponse({ name: "write_file", args: { file_path: "/out.md", content: "hello" } })]),
      }),
    );
    const session = await first.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(first.runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Plan, then have the writer write /out.md") }));
    expect(summarize(events)).toEqual([
      'deep_agent | call write_file {"file_path":"/plan.md","content":"plan"}',
      'deep_agent | response write_file {"status":"success","path":"/plan.md"}',
      'deep_agent | call task {"subagent_type":"writer","description":"Write /out.md saying hello."}',
      // The pause comes from inside the sub-agent's branch, and task waits on it.
      'writer@deep_agent.writer@… | response write_file {"status":"paused","waitingFor":"confirmation","message":"This call is waiting for the user\'s confirmation and has not run. It will run if the user approves."} | waiting',
      `writer@deep_agent.writer@… | call ${REQUEST_CONFIRMATION} | waiting`,
      'deep_agent | response task {"status":"paused","waitingFor":"client","message":"This call is waiting for the user\'s answer to a request and has not finished yet."} | waiting',
    ]);
    const request = confirmationRequest(events)!;
    expect(request.args).toMatchObject({ originalFunctionCall: { name: "write_file", args: { file_path: "/out.md", content: "hello" } } });
    expect(readFileSync(join(workspace, "plan.md"), "utf8")).toBe("plan");
    expect(existsSync(join(workspace, "out.md"))).toBe(false);
    await first.sessionService.close();

    const main = new ScriptedModel([(llmRequest) => textResponse(`Writer said: ${JSON.stringify(responsesOf(llmRequest).at(-1)!.response)}`)]);
    const writer = new ScriptedModel([(llmRequest) => textResponse(`wrote it: ${JSON.stringify(responsesOf(llmRequest).at(-1)!.response)}`)]);
    const second = await processOver(file, writerAgent(workspace, { main, writer }));
    const resumed = await collect(
      second.runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION, response: { confirmed: true } } }] } }),
    );
    expect(readFileSync(join(workspace, "out.md"), "utf8")).toBe("hello");
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe('Writer said: {"status":"success","result":"wrote it: {\\"status\\":\\"success\\",\\"path\\":\\"/out.md\\"}"}');
    main.assertComplete();
    writer.assertComplete();
    await second.sessionService.close();
  });

  it("does not run the sub-agent's tool when the person refuses, and the sub-agent hears why", async () => {
    const workspace = realpathSync(mkdtempSync(join(dir, "ws-")));
    const file = join(dir, "refuse.db");
    const first = await processOver(
      file,
      writerAgent(workspace, {
        main: new ScriptedModel([functionCallsResponse({ name: "task", args: { subagent_type: "writer", description: "Write /out.md." } })]),
        writer: new ScriptedModel([functionCallsResponse({ name: "write_file", args: { file_path: "/out.md", content: "unwanted" } })]),
      }),
    );
    const session = await first.sessionService.createSession({ appName: "app", userId: "u" });
    const request = confirmationRequest(await collect(first.runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") })))!;
    await first.sessionService.close();

    const writer = new ScriptedModel([(llmRequest) => textResponse(`refused: ${JSON.stringify(responsesOf(llmRequest).at(-1)!.response)}`)]);
    const main = new ScriptedModel([(llmRequest) => textResponse(String(responsesOf(llmRequest).at(-1)!.response!.result))]);
    const second = await processOver(file, writerAgent(workspace, { main, writer }));
    const resumed = await collect(
      second.runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION, response: { confirmed: false } } }] } }),
    );
    expect(existsSync(join(workspace, "out.md"))).toBe(false);
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe('refused: {"status":"error","error":"The user declined the call to \\"write_file\\", so it did not run. Do not call it again for this request unless the user asks."}');
    await second.sessionService.close();
  });

  it("gives a sub-agent its own skills, which the main agent does not see", async () => {
    const skills = mkdtempSync(join(dir, "skills-"));
    writeSkill(skills, "haiku", { "SKILL.md": skillMd("name: haiku\ndescription: Writes haiku in 5-7-5.", "Count syllables: 5, 7, 5.") });
    const poet = new ScriptedModel([
      functionCallsResponse({ name: "load_skill", args: { name: "haiku" } }),
      (request) => textResponse(`Following: ${String(responsesOf(request).at(-1)!.response!.instructions)}`),
    ]);
    const main = new ScriptedModel([
      functionCallsResponse({ name: "poet", args: { request: "A haiku about tides." } }),
      (request) => textResponse(String(responsesOf(request).at(-1)!.response!.result)),
    ]);
    const agent = createDeepAgent({ model: main, subagents: [{ name: "poet", description: "Writes poems.", model: poet, skills: [skills] }] });
    const sessionService = await createSessionService(`sqlite://${join(dir, "skills.db")}`);
    const runner = new Runner({ appName: "app", agent, sessionService });
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("haiku please") }));
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("Following: Count syllables: 5, 7, 5.");
    expect(toolNames(poet.requests[0]!)).toEqual(["edit_file", "glob", "grep", "list_skills", "load_skill", "load_skill_resource", "ls", "read_file", "read_todos", "write_file", "write_todos"]);
    expect(poet.requests[0]!.systemInstruction).toContain("<name>haiku</name>");
    expect(toolNames(main.requests[0]!)).not.toContain("load_skill");
    expect(main.requests[0]!.systemInstruction).not.toContain("haiku");
    await sessionService.close();
  });

  it("applies a sub-agent's interruptOn to its skill tools too: load_skill waits for approval", async () => {
    const skills = mkdtempSync(join(dir, "skills-"));
    writeSkill(skills, "secret-recipe", { "SKILL.md": skillMd("name: secret-recipe\ndescription: The recipe.", "Two cups of flour.") });
    const cook = new ScriptedModel([functionCallsResponse({ name: "load_skill", args: { name: "secret-recipe" } })]);
    const main = new ScriptedModel([functionCallsResponse({ name: "cook", args: { request: "Bake." } })]);
    const agent = createDeepAgent({ model: main, subagents: [{ name: "cook", description: "Cooks.", model: cook, skills: [skills], interruptOn: { load_skill: true } }] });
    const sessionService = await createSessionService(`sqlite://${join(dir, "skill-approval.db")}`);
    const runner = new Runner({ appName: "app", agent, sessionService });
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("bake") }));
    expect(confirmationRequest(events)?.args).toMatchObject({ originalFunctionCall: { name: "load_skill", args: { name: "secret-recipe" } } });
    expect(JSON.stringify(events)).not.toContain("Two cups of flour.");
    await sessionService.close();
  });

  it("treats a spec named general-purpose (the task tool's spelling) as replacing general_purpose, as adk-deepagents does", async () => {
    const custom = new ScriptedModel([textResponse("custom general")]);
    const main = new ScriptedModel([functionCallsResponse({ name: "general_purpose", args: { request: "Help." } }), (request) => textResponse(String(responsesOf(request).at(-1)!.response!.result))]);
    const agent = createDeepAgent({ model: main, subagents: [{ name: "general-purpose", description: "My general helper.", model: custom }] });
    const sessionService = await createSessionService(`sqlite://${join(dir, "general.db")}`);
    const runner = new Runner({ appName: "app", agent, sessionService });
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("custom general");
    expect(main.requests[0]!.functionDeclarations.filter((declaration) => declaration.name === "general_purpose").map((declaration) => declaration.description)).toEqual(["My general helper."]);
    await sessionService.close();
  });
});
