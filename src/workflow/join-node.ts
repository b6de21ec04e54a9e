import { createEvent } from "../events/event.js";
import { BaseNode, type NodeContext } from "./node.js";

/**
 * A node that waits for every node with an edge into it, then outputs their outputs by node name (ADK's
 * `JoinNode`): `{ fetchA: …, fetchB: … }`.
 */
export class JoinNode extends BaseNode {
  override get requiresAllPredecessors(): boolean {
    return true;
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<unknown, void, void> {
    yield createEvent({ author: this.name, invocationId: ctx.invocationId, branch: ctx.branch, output: input });
  }
}
