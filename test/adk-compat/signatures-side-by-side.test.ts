/**
 * ADK's calls whose shape toolsmith had otherwise (found by running both on the same calls): the same call on
 * `@google/adk` 2.0 and on toolsmith must give the same result. `PluginManager`'s hook runners, `new State()`,
 * `createEvent()`, `new GlobalInstructionPlugin()`, `BuiltInCodeExecutor.processLlmRequest(llmRequest)`,
 * `new FileArtifactService(rootDirOrUri)`, `LoopAgent.maxIterations`, and Gemini's built-in tools as `BaseTool`s.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as adk from "@google/adk";
import { afterEach, describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";
import { FileArtifactService } from "../../src/artifacts/file/index.js";

// Programs are written against ADK's names; both modules export them.
type Framework = any;
const both: [string, Framework][] = [
  ["adk", adk],
  ["toolsmith", toolsmith],
];
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The same program on both frameworks: its results must be equal. */
async function sameOnBoth(program: (f: Framework, name: string) => unknown | Promise<unknown>) {
  const [onAdk, onToolsmith] = [await program(adk, "adk"), await program(toolsmith, "toolsmith")];
  expect(onToolsmith).toEqual(onAdk);
  return onToolsmith;
}

describe("ADK's call shapes, side by side with @google/adk 2.0", () => {
  it("PluginManager runs each hook by ADK's method names, the first answer winning", async () => {
    const result = await sameOnBoth(async (f: Framework) => {
      class Blocker extends f.BasePlugin {
        constructor() {
          super("blocker");
        }
        async beforeToolCallback({ tool }: { tool: { name: string } }) {
          return tool.name === "delete_all" ? { error: "blocked" } : undefined;
        }
        async afterToolCallback({ result }: { result: Record<string, unknown> }) {
          return { ...result, audited: true };
        }
      }
      const manager = new f.PluginManager([new Blocker()]);
      const toolContext = {} as never;
      return {
        blocked: await manager.runBeforeToolCallback({ tool: { name: "delete_all" }, toolArgs: {}, toolContext }),
        allowed: await manager.runBeforeToolCallback({ tool: { name: "read" }, toolArgs: {}, toolContext }),
        after: await manager.runAfterToolCallback({ tool: { name: "read" }, toolArgs: {}, toolContext, result: { ok: true } }),
        model: await manager.runBeforeModelCallback({ callbackContext: {} as never, llmRequest: { contents: [] } as never }),
      };
    });
    expect(result).toEqual({ blocked: { error: "blocked" }, allowed: undefined, after: { ok: true, audited: true }, model: undefined });
  });

  it("new State() starts empty, and createEvent() needs nothing", async () => {
    await sameOnBoth((f: Framework) => {
      const state = new f.State();
      state.set("city", "Lisbon");
      const event = f.createEvent();
      const named = f.createEvent({ author: "agent", content: { role: "model", parts: [{ text: "hi" }] } });
      return { city: state.get("city"), delta: state.delta, invocationId: event.invocationId, namedInvocationId: named.invocationId, hasId: typeof event.id === "string" && event.id.length > 0, timestamp: typeof event.timestamp };
    });
  });

  it("new GlobalInstructionPlugin() without an instruction leaves the request as it was", async () => {
    await sameOnBoth(async (f: Framework) => {
      const plugin = new f.GlobalInstructionPlugin();
      const llmRequest = { contents: [], config: {}, systemInstruction: undefined } as Record<string, unknown>;
      const session = { id: "s", appName: "a", userId: "u", state: {}, events: [], lastUpdateTime: 0 };
      const callbackContext = { invocationContext: { session, agent: { name: "a" } }, state: new f.State() };
      await plugin.beforeModelCallback({ callbackContext, llmRequest });
      return { name: plugin.name, instruction: (llmRequest.config as { systemInstruction?: unknown }).systemInstruction ?? llmRequest.systemInstruction ?? null };
    });
  });

  it("BuiltInCodeExecutor.processLlmRequest(llmRequest) adds code execution to the request's tools", async () => {
    await sameOnBoth((f: Framework) => {
      const llmRequest = { model: "gemini-2.5-flash", contents: [], config: {}, toolsDict: {}, liveConnectConfig: {} } as { config: { tools?: unknown[] } };
      new f.BuiltInCodeExecutor().processLlmRequest(llmRequest);
      return llmRequest.config.tools;
    });
  });

  it("GOOGLE_SEARCH, URL_CONTEXT and GOOGLE_MAPS_GROUNDING are BaseTools", async () => {
    const answers = await sameOnBoth((f: Framework) => [f.isBaseTool(f.GOOGLE_SEARCH), f.isBaseTool(f.URL_CONTEXT), f.isBaseTool(f.GOOGLE_MAPS_GROUNDING)]);
    expect(answers).toEqual([true, true, true]);
  });

  it("GOOGLE_MAPS_GROUNDING has ADK's name and description, and adds googleMaps to a Gemini request's tools", async () => {
    await sameOnBoth(async (f: Framework) => {
      const llmRequest = { model: "gemini-2.5-flash", contents: [], config: {}, toolsDict: {}, liveConnectConfig: {} } as { config: { tools?: unknown[] } };
      await f.GOOGLE_MAPS_GROUNDING.processLlmRequest({ llmRequest, toolContext: undefined });
      return { name: f.GOOGLE_MAPS_GROUNDING.name, description: f.GOOGLE_MAPS_GROUNDING.description, tools: llmRequest.config.tools, isClass: f.GOOGLE_MAPS_GROUNDING instanceof f.GoogleMapsGroundingTool };
    });
  });

  it("LoopAgent.maxIterations reads as a number when not given", async () => {
    await sameOnBoth((f: Framework) => {
      const child = new f.LlmAgent({ name: "child", model: "gemini-2.5-flash" });
      return [new f.LoopAgent({ name: "loop", subAgents: [child] }).maxIterations, new f.LoopAgent({ name: "loop3", subAgents: [child.clone({ name: "c3" })], maxIterations: 3 }).maxIterations];
    });
  });

  it("new FileArtifactService(rootDirOrUri) takes a folder's path or file:// URL", async () => {
    for (const asUrl of [false, true]) {
      const root = mkdtempSync(join(tmpdir(), "toolsmith-file-artifacts-"));
      folders.push(root);
      const service = new FileArtifactService(asUrl ? pathToFileURL(root).href : root);
      const key = { appName: "app", userId: "u", sessionId: "s", filename: "note.txt" };
      expect(await service.saveArtifact({ ...key, artifact: { text: "hello" } })).toBe(0);
      expect((await new FileArtifactService({ root }).loadArtifact(key))?.text).toBe("hello");
    }
  });
});
