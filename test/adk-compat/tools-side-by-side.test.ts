import { Type } from "@google/genai";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { call, drain, runOnBoth, runTurn, text } from "./side-by-side.js";


describe("tools and toolsets, side by side with @google/adk 2.0", () => {
  it("runs seed 000's SimpleMathToolset (a BaseToolset with a prefix) beside a single tool", async () => {
    const script = [call("calculator_add_numbers", { a: 2, b: 3 }), call("greet_user", { name: "Ada" }), text("5, and hello Ada.")];
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => {
      const addNumbers = async ({ a, b }: { a: number; b: number }, toolContext: { state: { set(key: string, value: unknown): void } }) => {
        toolContext.state.set("last_math_operation", "addition");
        return { status: "success", result: a + b };
      };
      const subtractNumbers = async ({ a, b }: { a: number; b: number }) => ({ status: "success", result: a - b });
      const numbers = z.object({ a: z.number().describe("The first number."), b: z.number().describe("The second number.") });
      const Base: new (filter: unknown, prefix?: string) => { prefix?: string } = f.BaseToolset;
      class SimpleMathToolset extends Base {
        readonly addTool: unknown;
        readonly subtractTool: unknown;
        constructor(prefix = "math_") {
          super([], prefix);
          this.addTool = new f.FunctionTool({ name: `${prefix}add_numbers`, description: "Adds two integer numbers.", parameters: numbers, execute: addNumbers });
          this.subtractTool = new f.FunctionTool({ name: `${prefix}subtract_numbers`, description: "Subtracts the second number from the first.", parameters: numbers, execute: subtractNumbers });
        }
        async getTools() {
          return [this.addTool, this.subtractTool];
        }
        async close() {}
      }
      const greetTool = new f.FunctionTool({ name: "greet_user", description: "Greets the user.", parameters: z.object({ name: z.string().default("User") }), execute: async ({ name }: { name: string }) => ({ greeting: `Hello, ${name}!` }) });
      const agent = new f.LlmAgent({
        name: "CalculatorAgent",
        model,
        instruction: "You are a helpful calculator and greeter. Use 'greet_user' for greetings. Use 'calculator_add_numbers' to add. Announce the state of 'last_math_operation' if it's set.",
        tools: [greetTool, new SimpleMathToolset("calculator_")],
      });
      const { runner, events, session } = await runTurn(f, agent, "Add 2 and 3, then greet Ada.");
      return { runner, events, output: session.state };
    });
    expect(toolsmith.events).toEqual(adk.events);
    expect(toolsmith.output).toEqual(adk.output);
    expect(toolsmith.requests.map((request) => request.tools)).toEqual(adk.requests.map((request) => request.tools));
    expect(toolsmith.requests[0]!.tools).toEqual(["greet_user", "calculator_add_numbers", "calculator_subtract_numbers"]);
  });

  it("offers an agent with inputSchema and outputSchema as a tool the ADK way: its arguments as JSON text, its answer parsed", async () => {
    const script = [call("forecaster", { city: "Oslo", days: 2 }), text('{"forecast": "rain"}'), text("Rain in Oslo.")];
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => {
      const forecaster = new f.LlmAgent({
        name: "forecaster",
        description: "Forecasts the weather.",
        model,
        inputSchema: z.object({ city: z.string(), days: z.number() }),
        outputSchema: z.object({ forecast: z.string() }),
      });
      const tool = new f.AgentTool({ agent: forecaster });
      const agent = new f.LlmAgent({ name: "planner", model, tools: [tool] });
      const { runner, events } = await runTurn(f, agent, "Weather in Oslo for two days?");
      const parameters = tool._getDeclaration().parameters as { properties: Record<string, unknown>; required: string[] };
      return { runner, events, output: { properties: Object.keys(parameters.properties), required: parameters.required } };
    });
    expect(toolsmith.requests).toEqual(adk.requests);
    expect(toolsmith.requests[1]!.contents).toEqual([{ role: "user", parts: [{ text: '{"city":"Oslo","days":2}' }] }]);
    expect(toolsmith.events).toEqual(adk.events);
    expect(toolsmith.events.at(-2)!.content).toEqual({ role: "user", parts: [{ functionResponse: { name: "forecaster", response: { forecast: "rain" } } }] });
    expect(toolsmith.output).toEqual(adk.output);
    expect(toolsmith.output).toEqual({ properties: ["city", "days"], required: ["city", "days"] });
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
  ])("ends the run waiting when a long-running tool returns nothing (%s), and sends the client's result to the model, as ADK does", async (_name, nothing) => {
    const script = [call("ask_for_approval", { amount: 200 }), text("Approved, paying out.")];
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => {
      const approve = new f.LongRunningFunctionTool({ name: "ask_for_approval", description: "Asks a manager.", parameters: z.object({ amount: z.number() }), execute: () => nothing });
      const agent = new f.LlmAgent({ name: "finance", model, tools: [approve] });
      const { runner, events, session } = await runTurn(f, agent, "Reimburse $200");
      const id = (events as Array<{ longRunningToolIds?: string[] }>).find((event) => event.longRunningToolIds?.length)!.longRunningToolIds![0];
      const result = { role: "user", parts: [{ functionResponse: { id, name: "ask_for_approval", response: { status: "approved" } } }] };
      const resumed = await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: result }));
      return { runner, events: [...events, ...resumed] };
    });
    expect(toolsmith.requests).toEqual(adk.requests);
    expect(toolsmith.requests).toHaveLength(2);
    // ADK leaves the call unanswered meanwhile; toolsmith holds it with a paused placeholder (docs/adk-compat.md).
    const withoutPlaceholder = toolsmith.events.filter((event) => !JSON.stringify(event.content ?? "").includes('"status":"paused"'));
    expect(withoutPlaceholder).toEqual(adk.events);
  });

  it("runs a BaseTool subclass written the ADK way, its genai Schema parameters checked before runAsync", async () => {
    const script = [call("roll_die", { sides: "six" }), call("roll_die", { sides: 6 }), text("You rolled 4.")];
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => {
      const Base: new (params: { name: string; description: string }) => { name: string; description: string } = f.BaseTool;
      class RollDie extends Base {
        constructor() {
          super({ name: "roll_die", description: "Rolls a die." });
        }
        _getDeclaration() {
          return { name: this.name, description: this.description, parameters: { type: Type.OBJECT, properties: { sides: { type: Type.INTEGER, description: "How many sides." } }, required: ["sides"] } };
        }
        async runAsync({ args }: { args: { sides: number } }) {
          return { value: Math.min(4, args.sides) };
        }
      }
      const { runner, events, session } = await runTurn(f, new f.LlmAgent({ name: "dice", model, tools: [new RollDie()] }), "Roll a die.");
      return { runner, events, output: session.state };
    });
    // ADK 2.0 passes arguments to runAsync unchecked (the tool computes NaN from "six"); toolsmith checks them against the
    // declaration first and answers the model with what to fix (docs/adk-compat.md, tools).
    const responses = (record: typeof adk) => record.events.flatMap((event) => ((event.content as { parts: Array<{ functionResponse?: { response: unknown } }> }).parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse.response] : [])));
    expect(responses(adk)[0]).toEqual({ value: Number.NaN });
    expect(responses(toolsmith)[0]).toMatchObject({ status: "error", error: expect.stringContaining('Invalid arguments for tool "roll_die": sides:') });
    expect(responses(toolsmith)[1]).toEqual(responses(adk)[1]);
    expect(toolsmith.events.at(-1)).toEqual(adk.events.at(-1));
  });

  it("give the model ADK's memory tools and exit_loop word for word, and the same results", async () => {
    const script = [text("Noted."), call("load_memory", { query: "colour" }), text("Teal."), call("exit_loop"), text("unused")];
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => {
      const runner = new f.InMemoryRunner({ agent: new f.LlmAgent({ name: "remember", model }), appName: "app" });
      const first = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      await drain(runner.runAsync({ userId: "u", sessionId: first.id, newMessage: { role: "user", parts: [{ text: "My favourite colour is teal." }] } }));
      await runner.memoryService.addSessionToMemory(await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: first.id }));
      const recaller = new f.LlmAgent({ name: "recaller", model, tools: [f.PRELOAD_MEMORY, f.LOAD_MEMORY, f.EXIT_LOOP] });
      const loopRunner = new f.InMemoryRunner({ agent: new f.LoopAgent({ name: "loop", maxIterations: 3, subAgents: [recaller] }), appName: "app" });
      (loopRunner as { memoryService: unknown }).memoryService = runner.memoryService;
      const second = await loopRunner.sessionService.createSession({ appName: "app", userId: "u" });
      const events = await drain(loopRunner.runAsync({ userId: "u", sessionId: second.id, newMessage: { role: "user", parts: [{ text: "What is my favourite colour?" }] } }));
      return { runner: loopRunner, events };
    });
    const withoutTimes = (record: typeof adk) => JSON.parse(JSON.stringify(record.events).replace(/"timestamp":[^,}]+/g, '"timestamp":0').replace(/Time: [^\\]+/g, "Time: t"));
    expect(withoutTimes(toolsmith)).toEqual(withoutTimes(adk));
    const instructions = (record: typeof adk) => record.requests.map((request) => request.systemInstruction.replace(/Time: .+/g, "Time: t"));
    expect(instructions(toolsmith)).toEqual(instructions(adk));
    expect(toolsmith.requests.map((request) => request.tools)).toEqual(adk.requests.map((request) => request.tools));
    expect(instructions(toolsmith)[1]).toContain("<PAST_CONVERSATIONS>");
  });
});
