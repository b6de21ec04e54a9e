import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentTool, App, ConfigurationError, FunctionTool, InMemoryRunner, InMemorySessionService, LlmAgent, LongRunningFunctionTool, LoopAgent, ParallelAgent, Runner, SequentialAgent } from "../../src/index.js";
import { MCPToolset } from "../../src/mcp/index.js";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { createDeepAgent, createExecuteTool, FilesystemBackend } from "../../src/tools/builtin/index.js";

/**
 * Every class a program configures with an options object refuses an option it does not know, by name, saying what
 * it takes: a misspelt `requireConfirmation` would otherwise leave a tool unguarded, a misspelt `sessionService`
 * would keep sessions in memory. Before, only `LlmAgent`, `SkillToolset` and the run config did.
 */
const agent = new LlmAgent({ name: "helper", model: new ScriptedModel([]) });
const tool = { name: "t", description: "d", parameters: z.object({}), execute: () => ({}) };
const document = { openapi: "3.0.3", info: { title: "t", version: "1" }, paths: {} };

/** Each class, made with its options and one more. */
const makers: Record<string, (extra: Record<string, unknown>) => unknown> = {
  FunctionTool: (extra) => new FunctionTool({ ...tool, ...extra } as never),
  LongRunningFunctionTool: (extra) => new LongRunningFunctionTool({ ...tool, ...extra } as never),
  AgentTool: (extra) => new AgentTool({ agent, ...extra } as never),
  SequentialAgent: (extra) => new SequentialAgent({ name: "s", subAgents: [], ...extra } as never),
  ParallelAgent: (extra) => new ParallelAgent({ name: "p", subAgents: [], ...extra } as never),
  LoopAgent: (extra) => new LoopAgent({ name: "l", subAgents: [], maxIterations: 2, ...extra } as never),
  Runner: (extra) => new Runner({ appName: "app", agent, ...extra } as never),
  InMemoryRunner: (extra) => new InMemoryRunner({ agent, ...extra } as never),
  App: (extra) => new App({ name: "app", rootAgent: agent, ...extra } as never),
  InMemorySessionService: (extra) => new InMemorySessionService({ liveSessions: 10, ...extra } as never),
  MCPToolset: (extra) => new MCPToolset({ connection: { command: "node", args: [] }, ...extra } as never),
  OpenAPIToolset: (extra) => new OpenAPIToolset({ document, ...extra } as never),
};

describe("options a class does not know", () => {
  it("are refused by every class, naming the option and what the class takes", () => {
    const messages: Record<string, string> = {};
    for (const [name, make] of Object.entries(makers)) {
      expect(() => make({}), name).not.toThrow();
      let thrown: unknown;
      try {
        make({ requireConfirmaton: true });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, name).toBeInstanceOf(ConfigurationError);
      expect((thrown as ConfigurationError).code).toBe("UNSUPPORTED_OPTION");
      messages[name] = (thrown as Error).message;
      expect(messages[name]).toContain('has no option "requireConfirmaton": it takes ');
    }
    expect(messages.FunctionTool).toBe('FunctionTool "t" has no option "requireConfirmaton": it takes name, description, parameters, execute, isLongRunning, requireConfirmation, timeoutMs. Check its spelling.');
    expect(messages.Runner).toBe(
      'Runner has no option "requireConfirmaton": it takes appName, agent, app, sessionService, artifactService, memoryService, credentialService, plugins, resumabilityConfig, captureContentInSpans. Check its spelling.',
    );
    expect(messages.LoopAgent).toBe('LoopAgent "l" has no option "requireConfirmaton": it takes name, description, subAgents, beforeAgentCallback, afterAgentCallback, parentAgent, maxIterations. Check its spelling.');
  });

  it("are refused whatever their name, Object.prototype's members included, and an option left undefined is left out (2,000 names)", () => {
    const known = new Set(["name", "description", "parameters", "execute", "isLongRunning", "requireConfirmation", "timeoutMs"]);
    let refused = 0;
    fc.assert(
      fc.property(fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom("toString", "constructor", "hasOwnProperty", "valueOf", "__defineGetter__")), (key) => {
        fc.pre(!known.has(key) && key !== "__proto__");
        expect(() => makers.FunctionTool!({ [key]: 1 })).toThrow(`has no option "${key}"`);
        expect(() => makers.FunctionTool!({ [key]: undefined })).not.toThrow();
        refused++;
      }),
      { numRuns: 2_000 },
    );
    console.log(`unknown options: ${refused} random names refused by FunctionTool, each by name`);
  });

  it("leaves a subclass of yours free to take options of its own", () => {
    class Timed extends FunctionTool<undefined> {
      constructor(options: { name: string; label: string }) {
        super({ name: options.name, description: options.label, execute: () => ({}), label: options.label } as never);
      }
    }
    class Repeating extends SequentialAgent {
      constructor(options: { name: string; times: number }) {
        super({ name: options.name, subAgents: [], times: options.times } as never);
      }
    }
    expect(new Timed({ name: "timed", label: "Times." }).name).toBe("timed");
    expect(new Repeating({ name: "again", times: 2 }).name).toBe("again");
  });

  it("never runs commands unsandboxed or unapproved because a safety option was misspelt", () => {
    const backend = new FilesystemBackend({ rootDirectory: process.cwd() });
    expect(() => createExecuteTool({ backend, sandBox: true } as never)).toThrow('createExecuteTool has no option "sandBox": it takes backend, timeoutMs, maxOutputBytes, sandbox,');
    expect(() => createDeepAgent({ model: new ScriptedModel([]), backend, execution: { sandBox: true } as never })).toThrow('createExecuteTool has no option "sandBox"');
    expect(() => createDeepAgent({ model: new ScriptedModel([]), backend, interruptON: { execute: true } } as never)).toThrow('createDeepAgent has no option "interruptON": it takes name, description, model,');
    expect(() => createDeepAgent({ model: new ScriptedModel([]), backend, execution: { sandbox: true }, interruptOn: { execute: true } })).not.toThrow();
  });

  it("does not stop an agent's clone, which passes its options on", () => {
    const loop = new LoopAgent({ name: "loop", subAgents: [agent.clone()], maxIterations: 3 });
    expect(loop.clone({ name: "loop2" }).maxIterations).toBe(3);
    expect(() => loop.clone({ name: "loop3", maxIteration: 4 } as never)).toThrow('has no option "maxIteration"');
  });
});
