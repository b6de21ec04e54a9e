/**
 * The files of a project made by `toolsmith create`: an agent with one tool
 * that runs offline at once (a stand-in model answers until a real one is
 * named), a vitest test of it, and what a real provider needs.
 */

/**
 * The versions a new project depends on, besides toolsmith itself: the ones
 * toolsmith is built and tested with (a test keeps them equal to its own
 * package.json).
 */
export const TEMPLATE_DEPENDENCIES = {
  dependencies: { zod: "^4.1.0" },
  devDependencies: { "@types/node": "^20.19.0", tsx: "^4.20.0", typescript: "^5.9.0", vitest: "^4.1.0" },
} as const;

/** What the files are made from. */
export interface TemplateOptions {
  /** The project's folder and package name. */
  projectName: string;
  /** A valid agent name (an identifier) derived from the project name. */
  agentName: string;
  toolsmithVersion: string;
  /** The model when AGENT_MODEL is unset; undefined keeps the offline stand-in. */
  model?: string;
}

/** Each file of the new project, by its path inside the project folder. */
export function projectFiles(options: TemplateOptions): Record<string, string> {
  return {
    "package.json": packageJson(options),
    "agent.ts": agentModule(options),
    "agent.test.ts": agentTest(),
    ".env.example": ENV_EXAMPLE,
    ".gitignore": "node_modules/\n.env\n.toolsmith/\n",
    "tsconfig.json": `${JSON.stringify(TSCONFIG, null, 2)}\n`,
    "README.md": readme(options),
  };
}

function packageJson(options: TemplateOptions): string {
  const manifest = {
    name: options.projectName,
    version: "0.1.0",
    private: true,
    type: "module",
    scripts: { start: "toolsmith run", web: "toolsmith web", mcp: "toolsmith mcp", test: "vitest run", typecheck: "tsc" },
    dependencies: { toolsmith: `^${options.toolsmithVersion}`, ...TEMPLATE_DEPENDENCIES.dependencies },
    devDependencies: TEMPLATE_DEPENDENCIES.devDependencies,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
  },
  include: ["*.ts"],
};

function agentModule(options: TemplateOptions): string {
  const fallback = options.model ? JSON.stringify(options.model) : "offlineModel";
  return `/**
 * The agent of this project. \`npx toolsmith run\` chats with it in the terminal,
 * \`npx toolsmith web\` opens it in the browser, \`npm test\` runs agent.test.ts.
 */
import { FunctionTool, LlmAgent, type Model } from "toolsmith";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, lastUserText, streamedText } from "toolsmith/testing";
import { z } from "zod";

const TIME_ZONES: Record<string, string> = {
  london: "Europe/London",
  paris: "Europe/Paris",
  "new york": "America/New_York",
  tokyo: "Asia/Tokyo",
  sydney: "Australia/Sydney",
};

export const getCurrentTime = new FunctionTool({
  name: "get_current_time",
  description: "Returns the current time in a city.",
  parameters: z.object({ city: z.string().describe("The city, such as Paris.") }),
  execute: ({ city }) => {
    const timeZone = TIME_ZONES[city.trim().toLowerCase()];
    if (!timeZone) return { status: "error", error_message: \`No time zone known for \${city}. Known cities: \${Object.keys(TIME_ZONES).join(", ")}.\` };
    const time = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit" }).format(new Date());
    return { status: "success", report: \`It is \${time} in \${city}.\` };
  },
});

/**
 * Stands in for a real model, with no network and no key: it asks
 * get_current_time about the city named after "in", then says what the tool
 * answered. Set AGENT_MODEL (see .env.example) to use a real model instead.
 */
export const offlineModel = new FunctionModel((request) => {
  const result = lastFunctionResponse(request);
  if (result) return streamedText(String(result.response.report ?? result.response.error_message));
  const city = /\\bin ([\\p{L} .'-]+?)[?!. ]*$/iu.exec(lastUserText(request) ?? "")?.[1];
  if (city) return functionCallsResponse({ name: "get_current_time", args: { city } });
  return streamedText("Ask me the time in a city, such as: what time is it in Tokyo?");
});

/** The agent, for any model. */
export function createAgent(model: Model | string): LlmAgent {
  return new LlmAgent({
    name: ${JSON.stringify(options.agentName)},
    model,
    description: "Tells the current time in a city.",
    instruction: "You tell the current time in a city. Use the get_current_time tool, then answer in one sentence.",
    tools: [getCurrentTime],
  });
}

export const rootAgent = createAgent(process.env.AGENT_MODEL || ${fallback});
`;
}

function agentTest(): string {
  return `import { describe, expect, it } from "vitest";
import { InMemoryRunner, isFinalResponse, type Event } from "toolsmith";
import { createAgent, offlineModel } from "./agent.js";

/** Runs one turn with the offline model and returns the tools it called and its answer. */
async function ask(text: string): Promise<{ calls: string[]; answer: string }> {
  const runner = new InMemoryRunner({ agent: createAgent(offlineModel) });
  const session = await runner.sessionService.createSession({ appName: runner.appName, userId: "user" });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: "user", sessionId: session.id, newMessage: { role: "user", parts: [{ text }] } })) events.push(event);
  const parts = events.flatMap((event) => event.content?.parts ?? []);
  const answer = events.filter(isFinalResponse).flatMap((event) => event.content?.parts ?? []).map((part) => part.text ?? "").join("");
  return { calls: parts.flatMap((part) => (part.functionCall?.name ? [part.functionCall.name] : [])), answer };
}

describe("the agent", () => {
  it("tells the time in a city it knows through get_current_time", async () => {
    const { calls, answer } = await ask("What time is it in Tokyo?");
    expect(calls).toEqual(["get_current_time"]);
    expect(answer).toMatch(/^It is \\d\\d:\\d\\d in Tokyo\\.$/);
  });

  it("names the cities it knows when asked about another", async () => {
    const { answer } = await ask("What time is it in Atlantis?");
    expect(answer).toContain("No time zone known for Atlantis");
  });
});
`;
}

const ENV_EXAMPLE = `# Copy to .env to use a real model; toolsmith run, web and mcp read .env from this folder.
# Without AGENT_MODEL, agent.ts answers through an offline stand-in model.

# Gemini (npm install @google/genai)
# AGENT_MODEL=gemini-2.5-flash
# GOOGLE_API_KEY=

# OpenAI (npm install openai)
# AGENT_MODEL=openai/gpt-4.1-mini
# OPENAI_API_KEY=

# Anthropic (npm install @anthropic-ai/sdk)
# AGENT_MODEL=anthropic/claude-sonnet-4-6
# ANTHROPIC_API_KEY=
`;

function readme(options: TemplateOptions): string {
  return `# ${options.projectName}

An agent made with [toolsmith](https://www.npmjs.com/package/toolsmith): \`agent.ts\` exports \`rootAgent\`,
which tells the time in a city with its \`get_current_time\` tool.

\`\`\`sh
npm install
npx toolsmith run        # chat in the terminal: "what time is it in Paris?"
npx toolsmith web        # the same in the browser, at http://127.0.0.1:8000
npm test                 # agent.test.ts, with the offline model
\`\`\`

It runs offline: until you name a real model, a stand-in (\`offlineModel\` in \`agent.ts\`) answers.
To use a real one, copy \`.env.example\` to \`.env\`, set \`AGENT_MODEL\` and its key, and install the
provider's SDK as the file says.

\`npx toolsmith mcp\` serves the agent's tools to MCP clients over stdio (\`--http\` for Streamable HTTP).
Sessions are kept in \`.toolsmith/\` where Node has SQLite; \`npx toolsmith --help\` lists the rest.
`;
}
