/**
 * ADK's codes for what `run_skill_inline_script` answers instead of running the model's code, by ADK's names and
 * values. The result carries the code under `error_code`, beside the message under `error` (ADK's result names it
 * `errorCode`; toolsmith's skill tools all answer `error_code`).
 *
 * @example
 * ```ts
 * const refused = (result: Record<string, unknown>) => result.error_code === RunSkillInlineScriptErrorCode.CONFIRMATION_REJECTED;
 * ```
 */
export enum RunSkillInlineScriptErrorCode {
  /** The call gave no `script_content`. */
  MISSING_SCRIPT_CONTENT = "MISSING_SCRIPT_CONTENT",
  /** The call gave no `language`. */
  MISSING_LANGUAGE = "MISSING_LANGUAGE",
  /** Neither the toolset nor the agent has a code executor to run the script. */
  NO_CODE_EXECUTOR = "NO_CODE_EXECUTOR",
  /** The code executor threw (or the output folder could not be made). */
  EXECUTION_ERROR = "EXECUTION_ERROR",
  /** The person asked to confirm the script said no. */
  CONFIRMATION_REJECTED = "CONFIRMATION_REJECTED",
}
