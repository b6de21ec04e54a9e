/**
 * Model adapter figures: what the schema compiler costs per tool schema, and
 * what an adapter adds to a request over calling the provider's SDK directly,
 * both against a local server that answers at once.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { z } from "zod";
import { FunctionTool, type LlmRequest } from "../src/index.js";
import { GeminiModel } from "../src/models/gemini/index.js";
import { OpenAIChatModel } from "../src/models/openai/index.js";
import { compileAnthropicSchema, compileGeminiSchema, compileOpenAISchema } from "../src/models/schema/index.js";
import { percentile } from "./workloads.js";

interface TreeNode {
  name: string;
  children: TreeNode[];
}
const treeNode: z.ZodType<TreeNode> = z.object({ name: z.string(), get children() { return z.array(treeNode); } });

const schemas = [
  z.object({ query: z.string(), limit: z.number().int().min(1).max(50).optional() }),
  z.object({ address: z.object({ street: z.string(), city: z.string(), zip: z.string().optional() }), tags: z.array(z.string()) }),
  z.object({ target: z.union([z.string(), z.number()]), unit: z.enum(["celsius", "fahrenheit"]).nullable() }),
  z.object({ root: treeNode, depth: z.number().optional() }),
].map((parameters, index) => new FunctionTool({ name: `tool_${index}`, description: "", parameters, execute: () => ({}) }).declaration()!.parameters!);

/** Median and p95 in µs of `run`, after warm-up. */
async function time(runs: number, run: () => unknown): Promise<{ median: number; p95: number }> {
  for (let index = 0; index < Math.min(50, runs); index++) await run();
  const samples: number[] = [];
  for (let index = 0; index < runs; index++) {
    const start = performance.now();
    await run();
    samples.push((performance.now() - start) * 1000);
  }
  samples.sort((a, b) => a - b);
  return { median: percentile(samples, 0.5), p95: percentile(samples, 0.95) };
}

/** Median and p95 in µs of two calls measured in alternation, so drift affects both alike. */
async function timePair(runs: number, first: () => unknown, second: () => unknown) {
  for (let index = 0; index < 50; index++) {
    await first();
    await second();
  }
  const samples: [number[], number[]] = [[], []];
  for (let index = 0; index < runs; index++) {
    for (const [slot, run] of [first, second].entries()) {
      const start = performance.now();
      await run();
      samples[slot]!.push((performance.now() - start) * 1000);
    }
  }
  const summary = (list: number[]) => {
    list.sort((a, b) => a - b);
    return { median: percentile(list, 0.5), p95: percentile(list, 0.95) };
  };
  return [summary(samples[0]), summary(samples[1])] as const;
}

export async function modelRows(runs: number): Promise<string[][]> {
  const rows: string[][] = [];
  for (const [provider, compile] of [
    ["Gemini", (schema: Record<string, unknown>) => compileGeminiSchema(schema)],
    ["OpenAI strict", (schema: Record<string, unknown>) => compileOpenAISchema(schema)],
    ["Anthropic", (schema: Record<string, unknown>) => compileAnthropicSchema(schema)],
  ] as const) {
    const result = await time(runs * 10, () => schemas.forEach((schema) => compile(schema)));
    rows.push([`compile 4 zod tool schemas for ${provider} (µs)`, (result.median / 4).toFixed(1) + " per schema", (result.p95 / 4).toFixed(1)]);
  }

  const chat = JSON.stringify({ id: "c", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content: "Hi.", refusal: null }, finish_reason: "stop", logprobs: null }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
  const gemini = JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "Hi." }] }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } });
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(request.url?.includes("chat/completions") ? chat : gemini);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const request: LlmRequest = {
      contents: [{ role: "user", parts: [{ text: "Hello" }] }],
      systemInstruction: "Be brief.",
      functionDeclarations: schemas.map((parameters, index) => ({ name: `tool_${index}`, description: "", parameters })),
      config: {},
    };
    const openai = new OpenAI({ apiKey: "k", baseURL: `${url}/v1`, maxRetries: 0 });
    const openaiTools = request.functionDeclarations.map((declaration) => ({ type: "function" as const, function: { name: declaration.name, description: "", parameters: compileOpenAISchema(declaration.parameters).schema } }));
    const chatModel = new OpenAIChatModel({ model: "m", baseURL: `${url}/v1` });
    const [rawOpenAI, adapterOpenAI] = await timePair(
      runs,
      () => openai.chat.completions.create({ model: "m", messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Hello" }], tools: openaiTools }),
      async () => { for await (const _ of chatModel.generateContent(request, { stream: false })); },
    );
    rows.push(["OpenAI Chat request: SDK alone / through the adapter (µs)", `${rawOpenAI.median.toFixed(0)} / ${adapterOpenAI.median.toFixed(0)}`, `${rawOpenAI.p95.toFixed(0)} / ${adapterOpenAI.p95.toFixed(0)}`]);

    const genai = new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: url } });
    const geminiDeclarations = request.functionDeclarations.map((declaration) => ({ name: declaration.name, description: "", parameters: compileGeminiSchema(declaration.parameters).schema as never }));
    const geminiModel = new GeminiModel({ model: "gemini-2.5-flash", apiKey: "k", baseURL: url });
    const [rawGemini, adapterGemini] = await timePair(
      runs,
      () => genai.models.generateContent({ model: "gemini-2.5-flash", contents: request.contents as never, config: { systemInstruction: "Be brief.", tools: [{ functionDeclarations: geminiDeclarations }] } }),
      async () => { for await (const _ of geminiModel.generateContent(request, { stream: false })); },
    );
    rows.push(["Gemini request: SDK alone / through the adapter (µs)", `${rawGemini.median.toFixed(0)} / ${adapterGemini.median.toFixed(0)}`, `${rawGemini.p95.toFixed(0)} / ${adapterGemini.p95.toFixed(0)}`]);
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return rows;
}
