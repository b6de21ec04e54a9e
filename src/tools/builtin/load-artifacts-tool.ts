import type { Part } from "../../content/content.js";
import { appendInstructions, type LlmRequest } from "../../models/llm-request.js";
import { FunctionTool } from "../function-tool.js";
import type { Tool } from "../tool.js";
import type { ToolContext } from "../tool-context.js";
import { errorResult } from "./tool-status.js";

const NAME = "load_artifacts";

/**
 * `load_artifacts(artifact_names)`: before each model call the session's
 * artifact names are listed in the instructions; when the model calls the
 * tool, the named artifacts are added to the next request as parts (text or
 * inline data) right after the call's response. They are not copied into
 * the stored events.
 */
export function createLoadArtifactsTool(): Tool {
  const tool = new FunctionTool({
    name: NAME,
    description: "Loads artifacts (files saved in this session) into the conversation so you can read them. Give their exact names.",
    parameters: { type: "object", properties: { artifact_names: { type: "array", items: { type: "string" }, minItems: 1 } }, required: ["artifact_names"] },
    execute: async (args, context) => {
      const names = args.artifact_names as string[];
      let available: string[];
      try {
        available = await context.listArtifacts();
      } catch (error) {
        return errorResult(`Artifacts are not available: ${(error as Error).message} Answer without them.`);
      }
      const missing = names.filter((name) => !available.includes(name));
      if (missing.length > 0) {
        return errorResult(`No artifact named ${missing.map((name) => JSON.stringify(name)).join(", ")}. Available: ${available.length ? available.join(", ") : "none"}.`);
      }
      return { status: "success", artifact_names: names, message: "The artifacts follow in the next message." };
    },
  });
  return Object.assign(tool, { processLlmRequest: addArtifacts });
}

async function addArtifacts(request: LlmRequest, context: ToolContext): Promise<void> {
  let names: string[];
  try {
    names = await context.listArtifacts();
  } catch {
    return;
  }
  if (names.length === 0) return;
  appendInstructions(request, [
    `You have these artifacts:\n${names.map((name) => `- ${name}`).join("\n")}\nWhen the user asks about one, or you need its content, call ${NAME} with its name.`,
  ]);
  const last = request.contents.at(-1);
  const response = last?.parts?.find((part) => part.functionResponse?.name === NAME && part.functionResponse.response?.status === "success")?.functionResponse;
  if (!response) return;
  const parts: Part[] = [];
  for (const name of (response.response?.artifact_names as string[] | undefined) ?? []) {
    const artifact = await context.loadArtifact(name);
    if (!artifact) continue;
    parts.push({ text: `Artifact ${name} is:` }, artifact);
  }
  if (parts.length > 0) request.contents = [...request.contents, { role: "user", parts }];
}
