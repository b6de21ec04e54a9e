/**
 * The system instruction without ADK's identity lines at its start
 * (`You are an agent. Your internal name is "…".` and the description line),
 * for tests about the rest of the instruction. The identity lines have tests
 * of their own (test/llm-agent/build-llm-request.test.ts).
 */
export function withoutIdentity(systemInstruction: string | undefined): string | undefined {
  return systemInstruction?.replace(/^You are an agent\. Your internal name is "[^"]*"\.(?:\n\nThe description about you is "[^"]*")?(?:\n\n|$)/, "");
}
