// After ADK's Tools page ("Toolsets: Grouping and Dynamically Providing Tools", seed 000 and 004): a
// BaseToolset subclass that offers simple math tools, applies its prefix and its tool filter in getTools,
// and picks its tools by the session state, wired to an agent.
import { BaseTool, BaseToolset, FunctionTool, InMemoryRunner, LlmAgent, ReadonlyContext, isFinalResponse } from 'toolsmith';
import { createUserContent } from '@google/genai';
import { z } from 'zod';
import { script } from './script.js';

class SimpleMathToolset extends BaseToolset {
  private readonly addTool: FunctionTool;
  private readonly subtractTool: FunctionTool;
  private readonly powerTool: FunctionTool;

  constructor(prefix = 'math_', toolFilter: string[] = []) {
    super(toolFilter, prefix);
    this.addTool = new FunctionTool({
      name: `${prefix}add_numbers`,
      description: 'Adds two integer numbers.',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => ({ result: a + b }),
    });
    this.subtractTool = new FunctionTool({
      name: `${prefix}subtract_numbers`,
      description: 'Subtracts the second number from the first.',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => ({ result: a - b }),
    });
    this.powerTool = new FunctionTool({
      name: `${prefix}power`,
      description: 'Raises a number to a power.',
      parameters: z.object({ base: z.number(), exponent: z.number() }),
      execute: ({ base, exponent }) => ({ result: base ** exponent }),
    });
  }

  async getTools(readonlyContext?: ReadonlyContext): Promise<BaseTool[]> {
    const advanced = readonlyContext?.state.get('advanced_math') === true;
    const tools: BaseTool[] = advanced ? [this.addTool, this.subtractTool, this.powerTool] : [this.addTool, this.subtractTool];
    return tools.filter((tool) => this.toolFilter.length === 0 || (Array.isArray(this.toolFilter) && this.toolFilter.includes(tool.name)));
  }

  async close(): Promise<void> {
    console.log('SimpleMathToolset.close() called');
  }
}

const agent = new LlmAgent({
  name: 'calculator_agent',
  model: 'gemini-2.5-flash',
  instruction: 'Do arithmetic with your math tools.',
  tools: [new SimpleMathToolset('toolset_')],
});

export async function main(): Promise<void> {
  const runner = new InMemoryRunner({ agent, appName: 'math_app' });
  const basic = await runner.sessionService.createSession({ appName: 'math_app', userId: 'user' });
  const advanced = await runner.sessionService.createSession({ appName: 'math_app', userId: 'user', state: { advanced_math: true } });
  const [sum, power] = script.userMessages;
  for (const [session, message] of [[basic, sum!], [advanced, power!]] as const) {
    for await (const event of runner.runAsync({ userId: 'user', sessionId: session.id, newMessage: createUserContent(message) })) {
      if (isFinalResponse(event) && event.content?.parts?.[0]?.text) console.log(`[${event.author}] ${event.content.parts[0].text}`);
    }
  }
  // ADK's Runner has no close(); the toolset is closed by hand, as ADK's docs leave it to the program.
  await (agent.tools[0] as SimpleMathToolset).close();
}
