import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InMemorySessionService, REQUEST_CONFIRMATION, Runner, type Event, type LlmRequest } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { checkBubblewrap, createDeepAgent, FilesystemBackend, type DeepAgentOptions } from "../../src/tools/builtin/index.js";
import { tempDir } from "../support/temp-dir.js";
import { skillMd, writeSkill } from "../tools/skills/skill-fixtures.js";

const dir = tempDir("toolsmith-skills-sandbox-");
// A host file outside /tmp (which the sandbox replaces with its own) and outside the workspace.
const hostFolder = mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : homedir(), "toolsmith-skill-host-"));
const hostSecret = join(hostFolder, "secret.txt");
writeFileSync(hostSecret, "host secret");
afterAll(() => rmSync(hostFolder, { recursive: true, force: true }));

const skills = mkdtempSync(join(dir, "skills-"));
writeSkill(skills, "inventory", {
  "SKILL.md": skillMd("name: inventory\ndescription: Counts the workspace's files into inventory.txt. Use for an inventory.", "Run scripts/inventory.sh with --label set to what the user calls the workspace."),
  "references/header.txt": "INVENTORY",
  "scripts/inventory.sh": [
    'echo "$(cat "$SKILL_DIR/references/header.txt") $2: $(ls | wc -l) files" > inventory.txt',
    "cat inventory.txt",
    `cat ${hostSecret} 2>/dev/null && echo "HOST FILE VISIBLE" || echo "host file not visible"`,
    'touch "$SKILL_DIR/changed" 2>/dev/null && echo "skill folder writable" || echo "skill folder read-only"',
    "",
  ].join("\n"),
});

const responsesOf = (request: LlmRequest) => request.contents.flatMap((content) => content.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));

/** Runs the deep agent once over a fresh workspace: the model lists, loads and runs the skill, then reports the script's result. */
async function runInventory(execution: DeepAgentOptions["execution"], extra: Partial<DeepAgentOptions> = {}) {
  const workspace = realpathSync(mkdtempSync(join(dir, "ws-")));
  writeFileSync(join(workspace, "a.txt"), "a");
  writeFileSync(join(workspace, "b.txt"), "b");
  const model = new ScriptedModel([
    functionCallsResponse({ name: "load_skill", args: { name: "inventory" } }),
    functionCallsResponse({ name: "run_skill_script", args: { skill_name: "inventory", script_path: "scripts/inventory.sh", args: { label: "my files" } } }),
    (request) => textResponse(JSON.stringify(responsesOf(request).at(-1)!.response)),
  ]);
  const agent = createDeepAgent({ model, backend: new FilesystemBackend({ rootDirectory: workspace }), execution, skills: [skills], ...extra });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: "app", agent, sessionService });
  const session = await sessionService.createSession({ appName: "app", userId: "u" });
  const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Take an inventory of my files") }));
  const last = events.at(-1)!.content?.parts?.[0]?.text;
  return { workspace, model, events, result: last ? (JSON.parse(last) as Record<string, unknown>) : undefined, runner, session };
}

describe("a deep agent's skills, with their scripts run through its execution", () => {
  it("lists the skill, loads it on demand, and runs its script under bubblewrap: the workspace is written, the host file and the skill's folder are out of reach", async () => {
    const check = await checkBubblewrap();
    const { workspace, model, result } = await runInventory({ sandbox: true });
    if (!check.ok) {
      // This host cannot sandbox: the script is not run on the host instead.
      expect(result).toMatchObject({ status: "error", code: "SANDBOX_UNAVAILABLE" });
      expect(existsSync(join(workspace, "inventory.txt"))).toBe(false);
      return;
    }
    expect(model.requests[0]!.systemInstruction).toContain("<name>inventory</name>\n    <description>Counts the workspace&#039;s files into inventory.txt. Use for an inventory.</description>");
    expect(model.requests[0]!.systemInstruction).not.toContain("Run scripts/inventory.sh");
    expect(model.requests[0]!.systemInstruction).toContain("4. Use `run_skill_script` to run scripts");
    expect(String(responsesOf(model.requests[1]!).at(-1)!.response!.instructions)).toBe("Run scripts/inventory.sh with --label set to what the user calls the workspace.");
    expect(result).toEqual({
      skill_name: "inventory",
      script_path: "scripts/inventory.sh",
      status: "success",
      output: "INVENTORY my files: 2 files\nhost file not visible\nskill folder read-only\n",
      exit_code: 0,
      truncated: false,
    });
    expect(readFileSync(join(workspace, "inventory.txt"), "utf8")).toBe("INVENTORY my files: 2 files\n");
  });

  it("runs the same script on the host with execution \"local\", where it does see the host file (the sandbox is what hides it)", async () => {
    const { result } = await runInventory("local");
    expect(result).toMatchObject({ status: "success", output: "INVENTORY my files: 2 files\nhost secretHOST FILE VISIBLE\nskill folder writable\n" });
  });

  it("does not run the script at all when the sandbox is configured but unavailable", async () => {
    const { workspace, result } = await runInventory({ sandbox: true, bwrapPath: "/nonexistent/bwrap" });
    expect(result).toMatchObject({ skill_name: "inventory", status: "error", code: "SANDBOX_UNAVAILABLE", message: expect.stringContaining("The command did not run: sandboxed execution is unavailable. bubblewrap is not installed") });
    expect(existsSync(join(workspace, "inventory.txt"))).toBe(false);
  });

  it("asks before run_skill_script when interruptOn names it, and offers no run_skill_script without execution", async () => {
    const { events, workspace } = await runInventory({ sandbox: true }, { interruptOn: { run_skill_script: true } });
    const paused = events.flatMap((event: Event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CONFIRMATION);
    expect(paused?.functionCall?.args).toMatchObject({ originalFunctionCall: { name: "run_skill_script", args: { skill_name: "inventory" } } });
    expect(existsSync(join(workspace, "inventory.txt"))).toBe(false);

    const model = new ScriptedModel([textResponse("ok")]);
    const agent = createDeepAgent({ model, skills: [skills] });
    const sessionService = new InMemorySessionService();
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    await collect(new Runner({ appName: "app", agent, sessionService }).runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("hi") }));
    const names = model.requests[0]!.functionDeclarations.map((declaration) => declaration.name);
    expect(names).toEqual(expect.arrayContaining(["list_skills", "load_skill", "load_skill_resource"]));
    expect(names).not.toContain("run_skill_script");
    expect(model.requests[0]!.systemInstruction).not.toContain("run_skill_script");
  });

  it("runs a skill's Python script in the WebAssembly sandbox with execution \"wasm\": the workspace is written through the backend, the host file is out of reach, a shell script is refused", async () => {
    writeSkill(skills, "tally", {
      "SKILL.md": skillMd("name: tally\ndescription: Writes a tally of the workspace's files. Use for a tally.", "Run scripts/tally.py with --label."),
      "references/header.txt": "TALLY",
      "scripts/tally.py": [
        "import os, sys",
        "header = open(os.path.join(os.environ['SKILL_DIR'], 'references/header.txt')).read()",
        "names = sorted(name for name in os.listdir('.') if name.endswith('.txt'))",
        "open('tally.txt', 'w').write(f'{header} {sys.argv[2]}: {len(names)} files')",
        "print(open('tally.txt').read())",
        `print('HOST FILE VISIBLE' if os.path.exists(${JSON.stringify(hostSecret)}) else 'host file not visible')`,
        "sys.exit(3 if len(names) != 2 else 0)",
        "",
      ].join("\n"),
      "scripts/tally.sh": "echo shell\n",
    });
    const workspace = realpathSync(mkdtempSync(join(dir, "ws-")));
    writeFileSync(join(workspace, "a.txt"), "a");
    writeFileSync(join(workspace, "b.txt"), "b");
    const model = new ScriptedModel([
      functionCallsResponse(
        { name: "run_skill_script", args: { skill_name: "tally", script_path: "scripts/tally.py", args: { label: "mine" } } },
        { name: "run_skill_script", args: { skill_name: "tally", script_path: "scripts/tally.sh" } },
      ),
      textResponse("done"),
    ]);
    const agent = createDeepAgent({ model, backend: new FilesystemBackend({ rootDirectory: workspace }), execution: "wasm", skills: [skills] });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: "app", agent, sessionService });
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    try {
      await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Tally my files") }));
    } finally {
      await runner.close();
    }
    const [python, shell] = responsesOf(model.requests[1]!).map((response) => response.response as Record<string, unknown>);
    console.log("skill script in wasm:", JSON.stringify(python));
    expect(python).toMatchObject({ status: "success", exit_code: 0, truncated: false });
    expect(python!.output).toContain("TALLY mine: 2 files");
    expect(python!.output).toContain("host file not visible");
    expect(readFileSync(join(workspace, "tally.txt"), "utf8")).toBe("TALLY mine: 2 files");
    expect(shell).toMatchObject({ status: "error", exit_code: -1 });
    expect(shell!.output).toMatch(/runs Python scripts only/);
  }, 120_000);



  it("refuses a broken skill when the agent is made, with the message saying what to fix", () => {
    const broken = mkdtempSync(join(dir, "broken-"));
    writeSkill(broken, "Bad Skill", { "SKILL.md": skillMd("name: Bad Skill\ndescription: x") });
    expect(() => createDeepAgent({ model: new ScriptedModel([]), skills: [broken] })).toThrow(expect.objectContaining({ code: "INVALID_SKILL", message: expect.stringContaining('its name "Bad Skill" is not valid') }));
  });
});
