import { describe, expect, it } from "vitest";
import { drain, runOnBoth, runTurn, text, type Framework } from "./side-by-side.js";

/**
 * `InvocationContext` as ADK programs use it, on `@google/adk` 2.0 and on toolsmith: a class whose instances a
 * custom agent copies (`new InvocationContext({ ...context, … })`, `clone`) to run a sub-agent on a branch, with
 * ADK's `appName`, `userId` and `incrementLlmCallCount()`.
 */
describe("InvocationContext, side by side with @google/adk 2.0", () => {
  /** A custom agent, as an ADK program writes it, that reports on its context and runs its sub-agent in a copy of it. */
  function reportingAgent(f: Framework, copy: "constructor" | "clone", child: unknown) {
    const Base: new (config: Record<string, unknown>) => { subAgents: Array<{ runAsync(context: unknown): AsyncGenerator<unknown> }> } = f.BaseAgent;
    class Reporting extends Base {
      async *runAsyncImpl(context: { invocationId: string; appName: string; userId: string; branch?: string; clone(overrides: object): unknown }) {
        const isClass = context instanceof f.InvocationContext;
        yield f.createEvent({ invocationId: context.invocationId, author: "reporter", content: { role: "model", parts: [{ text: `${context.appName}/${context.userId} class:${isClass}` }] } });
        const branched = copy === "clone" ? context.clone({ branch: "reporter.side" }) : new f.InvocationContext({ ...context, branch: "reporter.side" });
        const copied = branched as { invocationId: string; branch?: string; appName: string };
        yield f.createEvent({ invocationId: context.invocationId, author: "reporter", content: { role: "model", parts: [{ text: `copy: ${copied.invocationId === context.invocationId} ${copied.branch} ${copied.appName} class:${branched instanceof f.InvocationContext}` }] } });
        yield* this.subAgents[0]!.runAsync(branched);
      }
      async *runLiveImpl() {}
    }
    return new Reporting({ name: "reporter", subAgents: [child] });
  }

  for (const copy of ["constructor", "clone"] as const) {
    it(`a custom agent copying its context with ${copy === "clone" ? "clone" : "new InvocationContext({ ...context })"} runs its sub-agent on the copy's branch on both`, async () => {
      const { adk, toolsmith } = await runOnBoth([text("the child's answer")], async (f, model) => {
        const { runner, events, session } = await runTurn(f, reportingAgent(f, copy, new f.LlmAgent({ name: "child", model })), "go");
        return { runner, events, output: session.events.map((event: { author: string; branch?: string }) => `${event.author}@${event.branch ?? ""}`) };
      });
      expect(toolsmith.events).toEqual(adk.events);
      expect(toolsmith.events.map((event) => event.content)).toEqual([
        { role: "model", parts: [{ text: "app/u class:true" }] },
        { role: "model", parts: [{ text: "copy: true reporter.side app class:true" }] },
        { role: "model", parts: [{ text: "the child's answer" }] },
      ]);
      // The child's events are stored on the copy's branch by both.
      expect(toolsmith.output).toEqual(adk.output);
      expect(toolsmith.output).toContain("child@reporter.side");
    });
  }

  it("incrementLlmCallCount counts against runConfig.maxLlmCalls and throws past it on both", async () => {
    const { adk, toolsmith } = await runOnBoth([], async (f: Framework) => {
      const Base: new (config: Record<string, unknown>) => object = f.BaseAgent;
      class Counting extends Base {
        async *runAsyncImpl(context: { invocationId: string; incrementLlmCallCount(): void }) {
          const outcomes: string[] = [];
          for (let call = 1; call <= 3; call++) {
            try {
              context.incrementLlmCallCount();
              outcomes.push(`${call}:ok`);
            } catch (error) {
              outcomes.push(`${call}:threw ${error instanceof Error}`);
            }
          }
          yield f.createEvent({ invocationId: context.invocationId, author: "counter", content: { role: "model", parts: [{ text: outcomes.join(" ") }] } });
        }
        async *runLiveImpl() {}
      }
      const runner = new f.InMemoryRunner({ agent: new Counting({ name: "counter" }), appName: "app" });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      const events = await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "go" }] }, runConfig: { maxLlmCalls: 2 } }));
      return { runner, events };
    });
    expect(toolsmith.events).toEqual(adk.events);
    expect(toolsmith.events[0]!.content).toEqual({ role: "model", parts: [{ text: "1:ok 2:ok 3:threw true" }] });
  });
  for (const withPlugin of [false, true]) {
    it(`a custom agent runs the plugins itself through context.pluginManager on both, ${withPlugin ? "and a plugin's answer comes back" : "which answers nothing without plugins"}`, async () => {
      const { adk, toolsmith } = await runOnBoth([], async (f: Framework) => {
        const Base: new (config: Record<string, unknown>) => object = f.BaseAgent;
        class Guarded extends Base {
          async *runAsyncImpl(context: { invocationId: string; pluginManager: { runBeforeToolCallback(params: object): Promise<Record<string, unknown> | undefined> } }) {
            // The agent calls a tool of its own making, and lets the plugins answer for it first.
            const answer = await context.pluginManager.runBeforeToolCallback({ tool: { name: "lookup" }, toolArgs: { q: "x" }, toolContext: new f.Context({ invocationContext: context }) });
            yield f.createEvent({ invocationId: context.invocationId, author: "guarded", content: { role: "model", parts: [{ text: answer ? `a plugin answered: ${JSON.stringify(answer)}` : "no plugin answered" }] } });
          }
          async *runLiveImpl() {}
        }
        const Plugin: new (name: string) => object = f.BasePlugin;
        class Refusing extends Plugin {
          async beforeToolCallback({ tool }: { tool: { name: string } }) {
            return { refused: tool.name };
          }
        }
        return runTurn(f, new Guarded({ name: "guarded" }), "go", withPlugin ? { plugins: [new Refusing("refusing")] } : {});
      });
      expect(toolsmith.events).toEqual(adk.events);
      expect(toolsmith.events.map((event) => event.content)).toEqual([{ role: "model", parts: [{ text: withPlugin ? 'a plugin answered: {"refused":"lookup"}' : "no plugin answered" }] }]);
    });
  }
});
