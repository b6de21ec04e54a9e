import { ReadonlyContext } from "../../src/agents/readonly-context.js";
import { InvocationContext } from "../../src/agents/invocation-context.js";
import { InMemorySessionService } from "../../src/sessions/in-memory-session-service.js";
import { ToolContext } from "../../src/tools/tool-context.js";

/** What a test may choose of the invocation: its cancellation, the session's state and user (`user-1` unless given). */
export interface ContextOptions {
  abortSignal?: AbortSignal;
  state?: Record<string, unknown>;
  userId?: string;
}

/** A real invocation over an in-memory session, for calling a tool or toolset directly. */
export async function createInvocation(options: ContextOptions = {}): Promise<InvocationContext> {
  const sessionService = new InMemorySessionService();
  const session = await sessionService.createSession({ appName: "test", userId: options.userId ?? "user-1", state: options.state });
  return new InvocationContext({
    invocationId: "e-test",
    agent: { name: "test_agent", description: "", subAgents: [], async *runAsync() {} },
    session,
    sessionService,
    runConfig: { maxLlmCalls: 10 },
    abortSignal: options.abortSignal,
  });
}

/** A tool context for one call. */
export async function createToolContext(options: ContextOptions = {}): Promise<ToolContext> {
  return new ToolContext({ invocation: await createInvocation(options), functionCallId: "call-1" });
}

/** A read-only context, as toolsets receive. */
export async function createReadonlyContext(): Promise<ReadonlyContext> {
  return new ReadonlyContext(await createInvocation());
}
