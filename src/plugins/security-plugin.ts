import type { FunctionCall } from "../content/content.js";
import type { Event } from "../events/event.js";
import { REQUEST_CONFIRMATION } from "../pause/client-requests.js";
import type { Tool } from "../tools/tool.js";
import type { ToolContext } from "../tools/tool-context.js";
import { BasePlugin } from "./base-plugin.js";

/** What a policy decides for one tool call. */
export const PolicyOutcome = { DENY: "DENY", CONFIRM: "CONFIRM", ALLOW: "ALLOW" } as const;
/** One of {@link PolicyOutcome}'s values. */
export type PolicyOutcome = (typeof PolicyOutcome)[keyof typeof PolicyOutcome];

/** A policy's decision, with the reason shown to the model (deny) or the person (confirm). */
export interface PolicyCheckResult {
  outcome: PolicyOutcome | string;
  reason?: string;
}

/** The call a policy judges. */
export interface ToolCallPolicyContext {
  tool: Tool;
  toolArgs: Record<string, unknown>;
}

/** Decides, for each tool call, whether it runs, is refused, or waits for a person's confirmation. */
export interface BasePolicyEngine {
  evaluate(context: ToolCallPolicyContext): Promise<PolicyCheckResult>;
}

/** ADK's prototyping policy: every call is allowed. Implement {@link BasePolicyEngine} for a real one. */
export class InMemoryPolicyEngine implements BasePolicyEngine {
  async evaluate(_context: ToolCallPolicyContext): Promise<PolicyCheckResult> {
    return { outcome: PolicyOutcome.ALLOW, reason: "For prototyping purpose, all tool calls are allowed." };
  }
}

/**
 * ADK's security plugin: every tool call goes through a policy engine first.
 * A denied call answers the model with an error and does not run; a call the
 * policy wants confirmed pauses the run with toolsmith's confirmation request
 * (`adk_request_confirmation`) and runs only when the person approves; an
 * allowed call runs.
 *
 * The confirmation is bound to the call it was asked for (a forged or replayed
 * answer is refused before anything is stored), so unlike ADK no record of
 * checks is kept in the session state.
 */
export class SecurityPlugin extends BasePlugin {
  readonly #policyEngine: BasePolicyEngine;

  constructor(params: { policyEngine?: BasePolicyEngine } = {}) {
    super("security_plugin");
    this.#policyEngine = params.policyEngine ?? new InMemoryPolicyEngine();
  }

  override async beforeToolCallback({ tool, toolArgs, toolContext }: { tool: Tool; toolArgs: Record<string, unknown>; toolContext: ToolContext }): Promise<Record<string, unknown> | undefined> {
    // The person approved this very call (a refusal never gets here: the call is answered as declined).
    if (toolContext.toolConfirmation?.confirmed) return undefined;
    const { outcome, reason } = await this.#policyEngine.evaluate({ tool, toolArgs });
    if (outcome === PolicyOutcome.DENY) return { error: `This tool call is rejected by policy engine. Reason: ${reason}` };
    if (outcome === PolicyOutcome.CONFIRM) {
      toolContext.requestConfirmation({ hint: `Policy engine requires confirmation calling tool: ${tool.name}. Reason: ${reason}` });
      return { status: "awaiting_confirmation" };
    }
    return undefined;
  }
}

/** The confirmation requests in an event (ADK's helper, for clients that answer them). */
export function getAskUserConfirmationFunctionCalls(event: Event): FunctionCall[] {
  return (event.content?.parts ?? []).flatMap((part) => (part.functionCall?.name === REQUEST_CONFIRMATION ? [part.functionCall] : []));
}
