/**
 * Tools from other libraries as toolsmith tools: Vercel AI SDK `tool()`s and
 * LangChain.js tools. Each library is an optional peer, loaded only when its
 * tools are adapted.
 *
 * @module toolsmith/adapters
 */
export { fromAiSdkTools, fromAiSdkTool, aiSdkToolset } from "./ai-sdk-tools.js";
export { fromLangChainTools } from "./langchain-tools.js";
