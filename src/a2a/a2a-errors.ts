import { ToolsmithError } from "../errors/toolsmith-error.js";

/**
 * What an A2A peer sent is not A2A (a part of an unknown kind, a function call without a name, parts that are not
 * a list). A remote agent's run ends with an error event of this code; a served agent's task fails with the
 * message. Nothing of the malformed message reaches the session.
 */
export class A2AProtocolError extends ToolsmithError {
  constructor(message: string) {
    super("A2A_INVALID_MESSAGE", `${message} The A2A peer sent something toolsmith cannot read; check the peer's A2A version (0.3 is supported).`);
  }
}
