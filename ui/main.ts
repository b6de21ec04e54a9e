/**
 * toolsmith's dev web UI: pick an app, open a session, chat with streamed
 * answers, expand every event, answer confirmations, credential requests and
 * long-running calls, watch state and artifacts, run tools by hand, and save
 * sessions as eval cases and run them.
 */
import { api, ApiError, liveUrl, runSse, type Part, type ServerEvent, type Session, type ToolDescription } from "./api.js";
import { artifactContent, artifactsView } from "./artifacts-view.js";
import { h, json, replaceChildren } from "./dom.js";
import { evalTab } from "./eval-view.js";
import { activityView, eventView, isActivity, isTurnEndMarker, progressCallId, streamedText, streamingView } from "./event-view.js";
import { startTalk, type Talk, type TalkProgress } from "./live-talk.js";
import { pendingCalls, pendingRequestsView } from "./pending-requests.js";
import { schemaForm, type SchemaForm } from "./schema-form.js";

interface UiState {
  app?: string;
  userId: string;
  session?: Session;
  tools: ToolDescription[];
  running: boolean;
  /** Complete events of the turn in flight, and the text streamed so far. */
  live: ServerEvent[];
  streaming?: { author: string; text: string };
  /**
   * Server log messages and progress of this session's tool calls: streamed,
   * never stored, so kept here (the latest progress per call) while the
   * session stays open.
   */
  activity: { sessionId?: string; events: ServerEvent[] };
  /**
   * The spoken conversation in progress (a live run through `/run_live`): its session, the conversation once the
   * microphone and the socket are open, and how much was said and heard.
   */
  talk?: { sessionId: string; conversation?: Talk; progress: TalkProgress; camera?: boolean };
}

const state: UiState = { userId: localStorage.getItem("toolsmith.userId") ?? "user", tools: [], running: false, live: [], activity: { events: [] } };

const appSelect = h("select", { id: "app", "data-testid": "app-select", onchange: () => void selectApp(appSelect.value) });
const userInput = h("input", { id: "user", value: state.userId, size: 10, onchange: () => void changeUser() });
const banner = h("div", { class: "banner", hidden: true, "data-testid": "model-warnings" });
const errorBar = h("div", { class: "error-bar", hidden: true, "data-testid": "error" });
const sessionList = h("ul", { class: "sessions", "data-testid": "sessions" });
const eventsList = h("div", { class: "events", "data-testid": "events" });
const requests = h("div", {});
const messageInput = h("textarea", { rows: 2, placeholder: "Message the agent (Enter to send, Shift+Enter for a new line)", "data-testid": "message", onkeydown: (event) => onMessageKey(event as KeyboardEvent) });
const sendButton = h("button", { class: "primary", "data-testid": "send", onclick: () => void sendText() }, "Send");
const talkButton = h("button", { "data-testid": "talk", title: "Talk to the agent through the microphone: a live run, for models that can hold one", onclick: () => void toggleTalk() }, "Talk");
const cameraButton = h("button", { "data-testid": "camera", hidden: true, title: "Show the agent your camera: a frame a second", onclick: () => void toggleCamera() }, "Camera");
const cameraPreview = h("div", { class: "camera-preview", "data-testid": "camera-preview", hidden: true });
const talkText = h("span", { "data-testid": "talk-text" });
const talkStatus = h("div", { class: "talk-status", "data-testid": "talk-status", hidden: true }, talkText, cameraButton, cameraPreview);
const statePanel = h("div", { "data-testid": "state" });
const artifactsPanel = h("div", { "data-testid": "artifacts" });
const toolList = h("ul", { class: "tool-list", "data-testid": "tool-list" });
const toolPane = h("div", { class: "tool-pane", "data-testid": "tool-pane" });
const chatTab = h("section", { class: "tab chat" }, eventsList, requests, talkStatus, h("div", { class: "composer" }, messageInput, sendButton, talkButton));
const playgroundTab = h("section", { class: "tab playground", hidden: true }, h("div", { class: "playground-grid" }, toolList, toolPane));
const evaluation = evalTab({ app: () => state.app, userId: () => state.userId, sessionId: () => state.session?.id, guarded });
const tabs = { chat: chatTab, playground: playgroundTab, eval: evaluation.element };
type TabName = keyof typeof tabs;
const tabButtons: Record<TabName, HTMLButtonElement> = {
  chat: h("button", { class: "tab-button active", "data-testid": "tab-chat", onclick: () => showTab("chat") }, "Chat"),
  playground: h("button", { class: "tab-button", "data-testid": "tab-playground", onclick: () => showTab("playground") }, "Tool playground"),
  eval: h("button", { class: "tab-button", "data-testid": "tab-eval", onclick: () => showTab("eval") }, "Eval"),
};

document.body.append(
  h(
    "header",
    {},
    h("span", { class: "logo" }, h("img", { src: "/ui/favicon.svg", alt: "", width: 20, height: 20 }), "toolsmith"),
    h("label", { for: "app" }, "App "),
    appSelect,
    h("label", { for: "user" }, "User "),
    userInput,
    h("span", { class: "spacer" }),
    tabButtons.chat,
    tabButtons.playground,
    tabButtons.eval,
  ),
  banner,
  errorBar,
  h(
    "main",
    {},
    h("aside", { class: "left" }, h("button", { class: "primary wide", "data-testid": "new-session", onclick: () => void newSession() }, "New session"), sessionList),
    h("div", { class: "center" }, chatTab, playgroundTab, evaluation.element),
    h("aside", { class: "right" }, h("h3", {}, "State"), statePanel, h("h3", {}, "Artifacts"), artifactsPanel),
  ),
);

function showTab(tab: TabName): void {
  for (const name of Object.keys(tabs) as TabName[]) {
    tabs[name].hidden = name !== tab;
    tabButtons[name].classList.toggle("active", name === tab);
  }
  if (tab === "eval") void guarded(evaluation.refresh);
}

function showError(error: unknown): void {
  errorBar.hidden = false;
  errorBar.textContent = error instanceof ApiError || error instanceof Error ? error.message : String(error);
}

async function guarded(action: () => Promise<void>): Promise<void> {
  errorBar.hidden = true;
  try {
    await action();
  } catch (error) {
    showError(error);
  }
}

async function start(): Promise<void> {
  const apps = await api.listApps();
  replaceChildren(appSelect, apps.map((app) => h("option", { value: app }, app)));
  const wanted = new URLSearchParams(location.hash.slice(1)).get("app");
  const first = wanted && apps.includes(wanted) ? wanted : apps[0];
  if (first) {
    appSelect.value = first;
    await selectApp(first);
  } else showError("The agents directory holds no apps: add <name>.ts or <name>/agent.ts exporting rootAgent.");
}

async function selectApp(app: string): Promise<void> {
  state.app = app;
  state.session = undefined;
  banner.hidden = true;
  await guarded(async () => {
    await showModelWarnings(app);
    state.tools = await api.listTools(app);
    renderTools();
    await refreshSessions();
    const sessions = await api.listSessions(app, state.userId);
    // The person may have started or opened a session while the app's tools were loading: that one stays.
    if (state.app !== app || state.session) return;
    const newest = [...sessions].sort((left, right) => right.lastUpdateTime - left.lastUpdateTime)[0];
    if (newest) await openSession(newest.id);
    else renderSession();
  });
}

/** Warns only when the app's own models need something unset; apps that run without keys show nothing. */
async function showModelWarnings(app: string): Promise<void> {
  const { warnings } = await api.requirements(app);
  if (state.app !== app) return;
  banner.hidden = warnings.length === 0;
  replaceChildren(
    banner,
    warnings.map((warning) => h("div", { "data-testid": "model-warning" }, warning)),
    h("div", { class: "hint" }, "The tool playground runs tools without a model, so it works meanwhile."),
  );
}

async function changeUser(): Promise<void> {
  state.userId = userInput.value.trim() || "user";
  localStorage.setItem("toolsmith.userId", state.userId);
  if (state.app) await selectApp(state.app);
}

async function refreshSessions(): Promise<void> {
  const app = state.app;
  if (!app) return;
  const sessions = await api.listSessions(app, state.userId);
  if (state.app !== app) return;
  sessions.sort((left, right) => right.lastUpdateTime - left.lastUpdateTime);
  replaceChildren(
    sessionList,
    sessions.map((session) =>
      h(
        "li",
        { class: session.id === state.session?.id ? "active" : "", "data-testid": "session" },
        h("button", { onclick: () => void guarded(() => openSession(session.id)) }, session.id.slice(0, 8), h("span", { class: "hint" }, ` ${new Date(session.lastUpdateTime).toLocaleTimeString()}`)),
      ),
    ),
  );
}

async function newSession(): Promise<void> {
  await guarded(async () => {
    if (!state.app) return;
    const session = await api.createSession(state.app, state.userId);
    await openSession(session.id);
  });
}

async function openSession(sessionId: string): Promise<void> {
  const app = state.app;
  if (!app) return;
  // A conversation belongs to its session: opening another ends it.
  if (state.talk && state.talk.sessionId !== sessionId) void state.talk.conversation?.stop();
  const session = await api.getSession(app, state.userId, sessionId);
  // The user may have picked another app meanwhile: this session is not theirs to show any more.
  if (state.app !== app) return;
  state.session = session;
  state.live = [];
  if (state.activity.sessionId !== session.id) state.activity = { sessionId: session.id, events: [] };
  state.streaming = undefined;
  renderSession();
  await refreshSessions();
  await renderSidePanels();
}

let renderedPendingKey = "";

function renderSession(): void {
  const events = [...(state.session?.events ?? []), ...state.live];
  replaceChildren(
    eventsList,
    withActivity(events),
    state.streaming ? streamingView(state.streaming.author, state.streaming.text) : null,
    !state.session ? h("div", { class: "hint" }, "Start a new session to chat.") : null,
    state.running && !state.streaming ? h("div", { class: "hint working", "data-testid": "working" }, "working…") : null,
  );
  // The cards are rebuilt only when the calls change, so what the user is typing into one survives a refresh.
  const pending = state.running || state.talk ? [] : pendingCalls(events);
  const pendingKey = pending.map((call) => call.id).join(",");
  if (pendingKey !== renderedPendingKey) {
    renderedPendingKey = pendingKey;
    replaceChildren(requests, pendingRequestsView(pending, (parts) => void send(parts)));
  }
  messageInput.disabled = sendButton.disabled = state.running || !state.session || (state.talk !== undefined && !state.talk.conversation);
  renderTalk();
  eventsList.scrollTop = eventsList.scrollHeight;
}

/** The Talk button and the status line of a conversation. */
function renderTalk(): void {
  const talk = state.talk;
  talkButton.textContent = talk ? "Stop talking" : "Talk";
  talkButton.classList.toggle("talking", talk !== undefined);
  talkButton.disabled = state.running || !state.session || (talk !== undefined && !talk.conversation);
  talkStatus.hidden = !talk;
  const frames = talk?.camera || talk?.progress.framesSent ? ` Sent ${talk.progress.framesSent} camera frame${talk.progress.framesSent === 1 ? "" : "s"}.` : "";
  talkText.textContent = !talk
    ? ""
    : !talk.conversation
      ? "Connecting the microphone…"
      : `Live: listening. Sent ${talk.progress.sentSeconds.toFixed(1)} s of speech, heard ${talk.progress.heardSeconds.toFixed(1)} s.${frames} Typed messages go into the conversation.`;
  cameraButton.hidden = !talk?.conversation;
  cameraButton.textContent = talk?.camera ? "Stop camera" : "Camera";
  cameraPreview.hidden = !talk?.camera;
}

/** The events, with the notes of calls in flight (log messages, progress) placed among them by time. */
function withActivity(events: readonly ServerEvent[]): HTMLElement[] {
  const notes = state.activity.sessionId === state.session?.id ? state.activity.events : [];
  const rows: (HTMLElement | null)[] = [];
  let next = 0;
  const shown = events.filter((event) => !isTurnEndMarker(event));
  shown.forEach((event, index) => {
    while (next < notes.length && notes[next]!.timestamp < event.timestamp) rows.push(activityView(notes[next++]!));
    rows.push(eventView(event, shown[index - 1]));
  });
  while (next < notes.length) rows.push(activityView(notes[next++]!));
  return rows.filter((row): row is HTMLElement => row !== null);
}

/** Keeps a streamed note: a log message is added, a call's progress replaces its earlier progress. */
function keepActivity(event: ServerEvent): void {
  const callId = progressCallId(event);
  const notes = state.activity.events;
  const earlier = callId === undefined ? -1 : notes.findIndex((note) => progressCallId(note) === callId);
  if (earlier >= 0) notes.splice(earlier, 1);
  notes.push(event);
}

async function renderSidePanels(): Promise<void> {
  const session = state.session;
  if (!session || !state.app) {
    replaceChildren(statePanel);
    replaceChildren(artifactsPanel);
    return;
  }
  const app = state.app;
  replaceChildren(statePanel, json(session.state));
  const artifacts = await artifactsView(app, state.userId, session.id);
  if (state.app === app && state.session === session) replaceChildren(artifactsPanel, artifacts);
}

function onMessageKey(event: KeyboardEvent): void {
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    void sendText();
  }
}

async function sendText(): Promise<void> {
  const text = messageInput.value.trim();
  if (!text) return;
  messageInput.value = "";
  // During a conversation a typed message joins it; the server sends it back as the user's event.
  if (state.talk?.conversation) state.talk.conversation.sendText(text);
  else await send([{ text }]);
}

/** Starts talking to the agent on the open session, or ends the conversation in progress. */
async function toggleTalk(): Promise<void> {
  if (state.talk) {
    talkButton.disabled = true;
    await state.talk.conversation?.stop();
    return;
  }
  const session = state.session;
  const app = state.app;
  if (!session || !app || state.running) return;
  state.talk = { sessionId: session.id, progress: { sentSeconds: 0, heardSeconds: 0, framesSent: 0 } };
  state.live = [];
  renderSession();
  await guarded(async () => {
    try {
      const conversation = await startTalk(liveUrl(location, app, state.userId, session.id), {
        onEvent: showLiveEvent,
        onProgress: (progress) => {
          if (state.talk) state.talk.progress = progress;
          renderTalk();
        },
        onEnd: (code, reason) => void endTalk(session.id, code, reason),
      });
      if (state.talk) state.talk.conversation = conversation;
    } catch (error) {
      state.talk = undefined;
      throw error;
    } finally {
      renderSession();
    }
  });
}

/**
 * An event of the conversation, shown as `/run_sse`'s are: partial text and speech as it streams, complete events
 * in the list. Audio is played, not shown: an event that carries nothing else is left out.
 */
function showLiveEvent(event: ServerEvent): void {
  if (event.errorCode) showError(`${event.errorCode}: ${event.errorMessage ?? "the live run failed"}`);
  const spoken = event.inputTranscription ?? event.outputTranscription;
  if (event.partial) {
    const text = spoken?.text ?? streamedText(event);
    if (text) {
      const author = event.inputTranscription ? "user" : event.author;
      state.streaming = { author, text: (state.streaming?.author === author ? state.streaming.text : "") + text };
    }
  } else {
    const parts = (event.content?.parts ?? []).filter((part) => !part.inlineData?.mimeType.startsWith("audio/"));
    if (parts.length > 0 || spoken?.text || event.errorCode) {
      state.streaming = undefined;
      state.live.push(parts.length === (event.content?.parts?.length ?? 0) ? event : { ...event, content: { ...event.content, parts } });
    }
  }
  if (event.interrupted || event.turnComplete) state.streaming = undefined;
  renderSession();
}

/** Starts or stops sending the camera into the conversation, with its preview beside the status. */
async function toggleCamera(): Promise<void> {
  const talk = state.talk;
  if (!talk?.conversation) return;
  if (talk.camera) {
    talk.conversation.stopCamera();
    talk.camera = false;
    replaceChildren(cameraPreview);
    renderTalk();
    return;
  }
  await guarded(async () => {
    const preview = await talk.conversation!.startCamera();
    talk.camera = true;
    replaceChildren(cameraPreview, preview);
    renderTalk();
  });
}

/** The conversation ended: says why when it was not asked to, and shows the session as stored. */
async function endTalk(sessionId: string, code: number, reason: string): Promise<void> {
  state.talk = undefined;
  replaceChildren(cameraPreview);
  state.streaming = undefined;
  // 1000: ended normally (by Stop or when the run finished), 1001: the server shut down, 1005: no code given.
  if (code !== 1000 && code !== 1005) showError(`The live connection closed (${code}): ${reason || "no reason was given"}.`);
  renderSession();
  if (state.session?.id !== sessionId) return;
  try {
    await openSession(sessionId);
  } catch (error) {
    showError(error);
  }
}

/** Sends a message (text, or answers to pending calls) and shows the events as they stream in. */
async function send(parts: Part[]): Promise<void> {
  const session = state.session;
  if (!session || !state.app || state.running) return;
  state.running = true;
  state.live = [{ id: "pending-user", invocationId: "", author: "user", timestamp: Date.now(), content: { role: "user", parts }, actions: { stateDelta: {}, artifactDelta: {} } }];
  renderSession();
  await guarded(async () => {
    try {
      await runSse({ appName: state.app!, userId: state.userId, sessionId: session.id, newMessage: { role: "user", parts } }, (event) => {
        if (event.partial && isActivity(event)) keepActivity(event);
        else if (event.partial) {
          state.streaming = { author: event.author, text: (state.streaming?.text ?? "") + streamedText(event) };
        } else {
          state.streaming = undefined;
          state.live.push(event);
        }
        renderSession();
      });
    } finally {
      state.running = false;
      await openSession(session.id);
    }
  });
  state.running = false;
  renderSession();
}

function renderTools(): void {
  replaceChildren(
    toolList,
    state.tools.map((tool) => h("li", {}, h("button", { "data-testid": `tool-${tool.name}`, onclick: () => showTool(tool) }, tool.name, tool.isLongRunning ? h("span", { class: "badge" }, "long-running") : null))),
  );
  const first = state.tools[0];
  if (first) showTool(first);
  else replaceChildren(toolPane, h("div", { class: "hint" }, "This app's agents have no tools."));
}

function showTool(tool: ToolDescription): void {
  const form: SchemaForm = schemaForm(tool.parameters, `tool-${tool.name}`);
  const result = h("div", { class: "tool-result", "data-testid": "tool-result" });
  const run = () =>
    guarded(async () => {
      const read = form.read();
      if ("error" in read) throw new Error(read.error);
      if (!state.session) await newSession();
      const session = state.session;
      if (!session || !state.app) return;
      const outcome = await api.callTool(state.app, state.userId, session.id, tool, read.args);
      const artifacts = await Promise.all(
        Object.keys(outcome.artifactDelta).map(async (name) => h("div", { class: "artifact" }, h("div", { class: "name" }, `${name} (version ${outcome.artifactDelta[name]})`), artifactContent(name, await api.loadArtifact(state.app!, state.userId, session.id, name)))),
      );
      replaceChildren(result, h("h4", {}, "Result"), json(outcome.response), h("h4", {}, "State delta"), json(outcome.stateDelta), h("h4", {}, "Saved artifacts"), artifacts.length ? artifacts : h("div", { class: "hint" }, "none"));
      await openSession(session.id);
    });
  replaceChildren(
    toolPane,
    h("h3", {}, tool.name, h("span", { class: "hint" }, ` on ${tool.agent}`)),
    h("p", { class: "description" }, tool.description),
    form.element,
    h("div", { class: "buttons" }, h("button", { class: "primary", "data-testid": "run-tool", onclick: () => void run() }, "Run on this session"), h("span", { class: "hint" }, " No model needed: the tool runs directly.")),
    result,
  );
}

void guarded(start);
