/**
 * Messages that quote another error's words end the quoted sentence once: "The disk is full." is not followed by
 * a second full stop, and words with no ending get one.
 */
import { describe, expect, it } from "vitest";
import { endSentence } from "../../src/errors/sentence.js";
import { BasePlugin, InMemorySessionService, LlmAgent, Runner, type AgentLike } from "../../src/index.js";
import { collect, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

describe("endSentence", () => {
  it("adds a full stop only where the words do not end their sentence", () => {
    expect(endSentence("disk full")).toBe("disk full.");
    expect(endSentence("The disk is full.")).toBe("The disk is full.");
    expect(endSentence("Is the disk full?")).toBe("Is the disk full?");
    expect(endSentence("Stop!")).toBe("Stop!");
    expect(endSentence("trailing space.  \n")).toBe("trailing space.");
    expect(endSentence("")).toBe(".");
  });
});

async function lastEventOf(agent: AgentLike, plugins: BasePlugin[] = []) {
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: "app", agent, sessionService, plugins });
  const session = await sessionService.createSession({ appName: "app", userId: "u" });
  const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
  return events.at(-1)!;
}

describe("errors quoting a message that ends its own sentence", () => {
  it("a callback's", async () => {
    const agent = new LlmAgent({ name: "a", model: new ScriptedModel([textResponse("hi")]), beforeModelCallback: () => { throw new Error("The quota is used up."); } });
    const event = await lastEventOf(agent);
    expect(event.errorCode).toBe("CALLBACK_FAILED");
    expect(event.errorMessage).toBe("The agent's beforeModelCallback threw: The quota is used up. The run stopped there; fix the callback, or catch the error in it and return a value.");
  });

  it("a plugin's", async () => {
    class Broken extends BasePlugin {
      override async beforeModelCallback(): Promise<undefined> {
        throw new Error("Is the config loaded?");
      }
    }
    const event = await lastEventOf(new LlmAgent({ name: "a", model: new ScriptedModel([textResponse("hi")]) }), [new Broken("broken")]);
    expect(event.errorCode).toBe("PLUGIN_FAILED");
    expect(event.errorMessage).toMatch(/failed in beforeModelCallback: Is the config loaded\? Fix the plugin/);
  });

  it("a toolset's that cannot list its tools", async () => {
    const toolset = { getTools: () => Promise.reject(new Error("Connection refused.")), close: async () => undefined };
    const event = await lastEventOf(new LlmAgent({ name: "a", model: new ScriptedModel([textResponse("hi")]), tools: [toolset] }));
    expect(event.errorCode).toBe("TOOLSET_FAILED");
    expect(event.errorMessage).toMatch(/could not list its tools: Connection refused\. Check that its server is running/);
    expect(event.errorMessage).not.toContain("..");
  });

  it("a session store's that refuses an append", async () => {
    class FullDisk extends InMemorySessionService {
      override async appendEvent(): Promise<never> {
        throw new Error("No space left on device.");
      }
    }
    const sessionService = new FullDisk();
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "a", model: new ScriptedModel([textResponse("hi")]) }), sessionService });
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    const [event] = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
    expect(event!.errorCode).toBe("SESSION_STORE_FAILED");
    expect(event!.errorMessage).toMatch(/^The session store could not store an event: No space left on device\. Nothing after it was stored/);
  });
});
