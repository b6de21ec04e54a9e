import { leavesContentsAlone } from "../models/llm-request.js";
import type { LlmRequest } from "../models/llm-request.js";
import { appendInstructions } from "../models/llm-request.js";
import type { Blob } from "../content/content.js";
import type { FunctionDeclaration, Tool } from "../tools/tool.js";
import { toolErrorResult } from "../tools/tool-result.js";
import { MEDIA_KEY } from "./call-tool-result.js";
import type { MCPToolset } from "./mcp-toolset.js";
import { moveMediaIntoParts } from "./move-media-into-parts.js";

/**
 * ADK's `LoadMcpResourceTool`: offers an MCP server's resources to the model.
 * Each request tells the model which resources exist; the model calls
 * `load_mcp_resource` with `resource_names`, and the contents come back in
 * the call's response (text as text, images and audio as inline parts the
 * model sees). Unlike ADK's, the contents stay in the conversation rather
 * than being inserted for one request.
 *
 * @example
 * ```ts
 * const docs = new MCPToolset({ connection: { type: "http", url } });
 * const agent = new LlmAgent({ name: "reader", model, tools: [docs, new LoadMcpResourceTool(docs)] });
 * ```
 */
export class LoadMcpResourceTool implements Tool {
  // Its processLlmRequest changes no content of the request in place: a request only it sees is not copied.
  static {
    leavesContentsAlone(LoadMcpResourceTool.prototype.processLlmRequest);
  }

  readonly name = "load_mcp_resource";
  readonly description = "Loads resources from the MCP server.\n\nNOTE: Call when you need access to resources.";
  readonly #toolset: MCPToolset;

  constructor(toolset: MCPToolset) {
    this.#toolset = toolset;
  }

  declaration(): FunctionDeclaration {
    return {
      name: this.name,
      description: this.description,
      parameters: {
        type: "object",
        properties: { resource_names: { type: "array", items: { type: "string" }, description: "The names of the MCP resources to load." } },
        required: ["resource_names"],
      },
    };
  }

  async processLlmRequest({ llmRequest }: { llmRequest: LlmRequest }): Promise<void> {
    moveMediaIntoParts(llmRequest);
    const names = await this.#toolset.listResources().catch(() => []);
    if (names.length === 0) return;
    appendInstructions(llmRequest, [
      `You have a list of MCP resources:\n${JSON.stringify(names)}\n\nWhen the user asks about any of them, call the \`load_mcp_resource\` function to load it before answering.`,
    ]);
  }

  async run(args: Record<string, unknown>): Promise<unknown> {
    const names = Array.isArray(args.resource_names) ? args.resource_names.map(String) : [];
    const resources: Record<string, unknown>[] = [];
    const media: Blob[] = [];
    const failed: string[] = [];
    for (const name of names) {
      try {
        for (const contents of await this.#toolset.readResource(name)) {
          const mimeType = contents.mimeType;
          if ("text" in contents) resources.push({ name, uri: contents.uri, ...(mimeType ? { mimeType } : {}), text: contents.text });
          else if (mimeType && /^(image|audio)\//.test(mimeType)) media.push({ mimeType, data: String(contents.blob), displayName: name });
          else resources.push({ name, uri: contents.uri, mimeType: mimeType ?? "application/octet-stream", blob: contents.blob });
        }
      } catch (error) {
        failed.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (failed.length && !resources.length && !media.length) return toolErrorResult(`No resource could be loaded. ${failed.join(" ")}`);
    return { resources, ...(media.length ? { [MEDIA_KEY]: media } : {}), ...(failed.length ? { failed } : {}) };
  }
}
