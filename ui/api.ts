/** The shapes the server sends: ADK's session and event JSON, and toolsmith's tool descriptions. */
export interface Part {
  text?: string;
  thought?: boolean;
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
  inlineData?: { mimeType: string; data: string };
  /** Code the agent's code executor (or Gemini) ran; its result follows in a later part or event. */
  executableCode?: { code?: string; language?: string };
  codeExecutionResult?: { outcome?: string; output?: string };
}
export interface ServerEvent {
  id: string;
  invocationId: string;
  author: string;
  timestamp: number;
  partial?: boolean;
  content?: { role?: string; parts?: Part[] };
  actions: { stateDelta: Record<string, unknown>; artifactDelta: Record<string, number>; transferToAgent?: string; escalate?: boolean; skipSummarization?: boolean };
  longRunningToolIds?: string[];
  errorCode?: string;
  errorMessage?: string;
  branch?: string;
  /** Streamed notes of a call in flight: `mcpLog` (a server's log message), `toolProgress`. */
  customMetadata?: Record<string, unknown>;
  /** Live runs: what the user said and what the agent said aloud, as text. */
  inputTranscription?: Transcription;
  outputTranscription?: Transcription;
  /** Live runs: the model stopped speaking because the user spoke. */
  interrupted?: boolean;
  turnComplete?: boolean;
}
export interface Transcription {
  text?: string;
  finished?: boolean;
}
export interface Session {
  id: string;
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  events: ServerEvent[];
  lastUpdateTime: number;
}
export interface ToolDescription {
  agent: string;
  name: string;
  description: string;
  parameters?: JsonSchema;
  isLongRunning: boolean;
}
export type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[]; enum?: unknown[]; description?: string; items?: JsonSchema; default?: unknown };
/** What an app's models need from the environment (`GET /apps/{app}/requirements`). */
export interface AppRequirements {
  app: string;
  models: { model: string; source: string; agents: string[]; oneOf: string[]; ready: boolean }[];
  /** One sentence per thing to set; empty when the app runs as it is. */
  warnings: string[];
}
export interface ToolCallResult {
  response: Record<string, unknown>;
  stateDelta: Record<string, unknown>;
  artifactDelta: Record<string, number>;
}

/** An eval case as ADK's eval endpoints send it. */
export interface EvalInvocation {
  invocationId: string;
  userContent: { parts?: Part[] };
  finalResponse?: { parts?: Part[] };
  intermediateData?: { toolUses: { name: string; args?: Record<string, unknown> }[] };
}
export interface EvalMetricResult {
  metricName: string;
  threshold: number;
  score?: number;
  /** ADK's status: 1 passed, 2 failed, 3 not evaluated. */
  evalStatus: number;
}
/** One case's result from `run_eval` (ADK's RunEvalResult). */
export interface RunEvalResult {
  evalSetId: string;
  evalId: string;
  finalEvalStatus: number;
  overallEvalMetricResults: EvalMetricResult[];
  evalMetricResultPerInvocation: { actualInvocation: EvalInvocation; expectedInvocation: EvalInvocation; evalMetricResults: EvalMetricResult[] }[];
}

/** A failed request, with the server's message. */
export class ApiError extends Error {}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) {
    const failure = (await response.json().catch(() => ({}))) as { error?: string };
    throw new ApiError(failure.error ?? `${method} ${path} failed with ${response.status}`);
  }
  return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
}

const sessionsPath = (app: string, user: string) => `/apps/${encodeURIComponent(app)}/users/${encodeURIComponent(user)}/sessions`;

export const api = {
  requirements: (app: string) => request<AppRequirements>("GET", `/apps/${encodeURIComponent(app)}/requirements`),
  listApps: () => request<string[]>("GET", "/list-apps"),
  listSessions: (app: string, user: string) => request<Session[]>("GET", sessionsPath(app, user)),
  createSession: (app: string, user: string) => request<Session>("POST", sessionsPath(app, user), {}),
  getSession: (app: string, user: string, id: string) => request<Session>("GET", `${sessionsPath(app, user)}/${encodeURIComponent(id)}`),
  listArtifacts: (app: string, user: string, id: string) => request<string[]>("GET", `${sessionsPath(app, user)}/${encodeURIComponent(id)}/artifacts`),
  loadArtifact: (app: string, user: string, id: string, name: string) => request<Part>("GET", `${sessionsPath(app, user)}/${encodeURIComponent(id)}/artifacts/${encodeURIComponent(name)}`),
  listEvalSets: (app: string) => request<string[]>("GET", `/apps/${encodeURIComponent(app)}/eval_sets`),
  createEvalSet: (app: string, id: string) => request<null>("POST", `/apps/${encodeURIComponent(app)}/eval_sets/${encodeURIComponent(id)}`),
  listEvals: (app: string, set: string) => request<string[]>("GET", `/apps/${encodeURIComponent(app)}/eval_sets/${encodeURIComponent(set)}/evals`),
  addSessionToEvalSet: (app: string, set: string, body: { eval_id: string; session_id: string; user_id: string }) => request<null>("POST", `/apps/${encodeURIComponent(app)}/eval_sets/${encodeURIComponent(set)}/add_session`, body),
  runEval: (app: string, set: string, body: { eval_ids: string[]; eval_metrics: { metric_name: string; threshold: number }[] }) => request<RunEvalResult[]>("POST", `/apps/${encodeURIComponent(app)}/eval_sets/${encodeURIComponent(set)}/run_eval`, body),
  listTools: (app: string) => request<ToolDescription[]>("GET", `/apps/${encodeURIComponent(app)}/tools`),
  callTool: (app: string, user: string, id: string, tool: ToolDescription, args: Record<string, unknown>) =>
    request<ToolCallResult>("POST", `${sessionsPath(app, user)}/${encodeURIComponent(id)}/tools/${encodeURIComponent(tool.name)}/call`, { args, agentName: tool.agent }),
};

/** Runs a turn through `/run_sse` with streaming on, calling `onEvent` for each event as it arrives. */
export async function runSse(body: { appName: string; userId: string; sessionId: string; newMessage: { role: string; parts: Part[] } }, onEvent: (event: ServerEvent) => void): Promise<void> {
  const response = await fetch("/run_sse", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...body, streaming: true, streamAgentToolEvents: true }) });
  if (!response.ok || !response.body) {
    const failure = (await response.json().catch(() => ({}))) as { error?: string };
    throw new ApiError(failure.error ?? `The run failed with ${response.status}`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (!block.startsWith("data: ")) continue;
      const data = JSON.parse(block.slice(6)) as ServerEvent & { error?: string };
      if (data.error && !data.id) throw new ApiError(data.error);
      onEvent(data);
    }
  }
}

/** The `/run_live` WebSocket URL of a session on the server the page came from, speaking and hearing audio. */
export function liveUrl(page: { protocol: string; host: string }, app: string, user: string, sessionId: string): string {
  const query = new URLSearchParams({ app_name: app, user_id: user, session_id: sessionId, modalities: "AUDIO" });
  return `${page.protocol === "https:" ? "wss" : "ws"}://${page.host}/run_live?${query}`;
}
