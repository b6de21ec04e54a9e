/**
 * ADK's logger (`setLogger`, `setLogLevel`, `getLogger`, `resetLogger`, `logger`, `LogLevel`), and what toolsmith
 * reports through it: what no event can carry (a file of the user's message that could not be saved, an error
 * event the store refused) and `LoggingPlugin`'s lines, as ADK's plugin writes them.
 */
import * as adk from "@google/adk";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  BasePlugin,
  getLogger,
  InMemoryArtifactService,
  InMemorySessionService,
  LlmAgent,
  LoggingPlugin,
  LogLevel,
  Runner,
  setLogger,
  setLogLevel,
  type AppendEventRequest,
  type Event,
  type Logger,
} from "../../src/index.js";
import { logger, resetLogger } from "../../src/logging/logger.js";
import { collect, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { runOnBoth, runTurn, text } from "../adk-compat/side-by-side.js";

/** A logger that keeps what it is given, as `LEVEL message` lines. */
function capturingLogger(): Logger & { lines: string[]; levels: LogLevel[] } {
  const lines: string[] = [];
  const levels: LogLevel[] = [];
  const write = (level: LogLevel) => (...args: unknown[]) => void lines.push(`${LogLevel[level]} ${args.join(" ")}`);
  return { lines, levels, log: (level, ...args) => write(level)(...args), debug: write(LogLevel.DEBUG), info: write(LogLevel.INFO), warn: write(LogLevel.WARN), error: write(LogLevel.ERROR), setLogLevel: (level) => void levels.push(level) };
}

const adkDefaultLogger = adk.getLogger();
afterEach(() => {
  resetLogger();
  adk.setLogger(adkDefaultLogger);
  vi.restoreAllMocks();
});

describe("the logger", () => {
  it("numbers its levels as ADK does", () => {
    expect([LogLevel.DEBUG, LogLevel.INFO, LogLevel.WARN, LogLevel.ERROR]).toEqual([adk.LogLevel.DEBUG, adk.LogLevel.INFO, adk.LogLevel.WARN, adk.LogLevel.ERROR]);
  });

  it("writes to standard error from INFO up by default, and from the level set", () => {
    const written = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const stdout = vi.spyOn(console, "log").mockImplementation(() => undefined);
    logger.debug("hidden");
    logger.info("shown", 1);
    setLogLevel(LogLevel.ERROR);
    logger.warn("hidden too");
    logger.log(LogLevel.ERROR, "still shown");
    expect(written.mock.calls).toEqual([
      ["[toolsmith INFO]:", "shown", 1],
      ["[toolsmith ERROR]:", "still shown"],
    ]);
    expect(stdout).not.toHaveBeenCalled();
    resetLogger();
    logger.info("after reset");
    expect(written.mock.calls.at(-1)).toEqual(["[toolsmith INFO]:", "after reset"]);
  });

  it("hands everything to a logger set, its level too; null writes nothing; an unknown level is refused", () => {
    const written = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const mine = capturingLogger();
    setLogger(mine);
    expect(getLogger()).toBe(mine);
    logger.warn("to mine");
    setLogLevel(LogLevel.DEBUG);
    expect(mine.lines).toEqual(["WARN to mine"]);
    expect(mine.levels).toEqual([LogLevel.DEBUG]);
    setLogger(null);
    logger.error("nowhere");
    expect(written).not.toHaveBeenCalled();
    expect(() => setLogLevel(7 as LogLevel)).toThrow("Unknown log level 7: use LogLevel.DEBUG, INFO, WARN or ERROR.");
  });
});

describe("what toolsmith logs", () => {
  it("warns when a file of the user's message could not be saved as an artifact (kept in the message)", async () => {
    const mine = capturingLogger();
    setLogger(mine);
    class FullDisk extends InMemoryArtifactService {
      override async saveArtifact(): Promise<number> {
        throw new Error("disk full");
      }
    }
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "a", model: new ScriptedModel([textResponse("Got it.")]) }), artifactService: new FullDisk() });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const message = { role: "user", parts: [{ text: "Here." }, { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=", displayName: "receipt.png" } }] };
    await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: message, runConfig: { saveInputBlobsAsArtifacts: true } }));
    expect(mine.lines).toEqual(['WARN saveInputBlobsAsArtifacts: "receipt.png" could not be saved as an artifact, so it stays in the message as it came: disk full']);
  });

  it("logs an error event the store refused, which then only its caller saw", async () => {
    const mine = capturingLogger();
    setLogger(mine);
    class RefusesErrors extends InMemorySessionService {
      override async appendEvent(request: AppendEventRequest): Promise<Event> {
        if (request.event.errorCode) throw new Error("store offline");
        return super.appendEvent(request);
      }
    }
    class Failing extends BasePlugin {
      override async beforeModelCallback(): Promise<undefined> {
        throw new Error("plugin broke");
      }
    }
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "a", model: new ScriptedModel([textResponse("never")]) }), sessionService: new RefusesErrors(), plugins: [new Failing("failing")] });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
    expect(events.at(-1)).toMatchObject({ errorCode: "PLUGIN_FAILED" });
    expect(mine.lines).toEqual([expect.stringMatching(new RegExp(`^ERROR The run's PLUGIN_FAILED error event could not be stored in session "${session.id}", so only its caller saw it: store offline$`))]);
  });

  it("sends LoggingPlugin's lines to the logger at INFO, as ADK's plugin does, with the same headings", async () => {
    const ours = capturingLogger();
    const theirs = capturingLogger();
    setLogger(ours);
    adk.setLogger(theirs as never);
    await runOnBoth([text("Hello.")], async (f, model) => runTurn(f, new f.LlmAgent({ name: "greeter", model }), "weather?", { plugins: [new f.LoggingPlugin()] }));
    // ADK colours its lines grey; the headings are the lines that do not start with spaces after the plugin's name.
    const headings = (lines: string[]) => lines.map((line) => line.replace(/\x1B\[\d+m/g, "")).filter((line) => /^INFO \[logging_plugin\] \S/.test(line));
    expect(headings(ours.lines).length).toBeGreaterThan(4);
    // ADK 2.0 never calls a plugin's agent hooks; toolsmith does (docs/adk-compat.md, Plugins).
    const agentHooks = (line: string) => /AGENT (STARTING|COMPLETED)/.test(line);
    expect(headings(ours.lines).filter((line) => !agentHooks(line))).toEqual(headings(theirs.lines));
    expect(headings(ours.lines).filter(agentHooks)).toEqual(["INFO [logging_plugin] 🤖 AGENT STARTING", "INFO [logging_plugin] 🤖 AGENT COMPLETED"]);
    expect(ours.lines.every((line) => line.startsWith("INFO "))).toBe(true);
  });
});
