import { CLIENT_FUNCTION_NAMES } from "../pause/client-requests.js";
import { getFunctionCalls, getFunctionResponses, type Content, type Part } from "../content/content.js";
import type { Event } from "../events/event.js";
import { isInsideAgentTool } from "../agents/branch.js";
import { REQUEST_INPUT_FUNCTION_CALL_NAME } from "../tools/request-input-tool.js";

/** Function calls the runner makes to the client rather than to a tool; the model never sees them. */
export { CLIENT_FUNCTION_NAMES };

/** Where an agent stands in the session: its branch, the branch its history is confined to, and its isolation scope. */
export interface HistoryScope {
  branch?: string;
  /** Set for an agent run as a tool: it sees only events of this branch and below, not the caller's turns. */
  historyRoot?: string;
  /** Set for an agent run as a workflow node with `isolationScope`: it sees no event of another scope. */
  isolationScope?: string;
}

/**
 * Whether an agent at `scope` sees an event, by ADK's rule: an agent in a
 * branch sees events of its own branch and its ancestors' (so parallel
 * branches do not see each other); an agent outside any branch (after a
 * parallel step, say) sees every branch, except what agents run as tools did,
 * which ADK keeps in a session of their own. Nothing outside the history root, and, as in ADK, no event marked
 * with another isolation scope than the agent's (unmarked events, such as the user's messages, are seen by all).
 */
export function isVisible(event: Event, scope: HistoryScope): boolean {
  const isolated = event.isolationScope;
  if (isolated !== undefined && isolated !== scope.isolationScope) return false;
  const eventBranch = event.branch;
  if (scope.historyRoot !== undefined) {
    if (eventBranch === undefined || !(eventBranch === scope.historyRoot || eventBranch.startsWith(`${scope.historyRoot}.`))) return false;
  }
  if (eventBranch === undefined) return true;
  const branch = scope.branch;
  if (branch === undefined) return !isInsideAgentTool(eventBranch);
  return branch === eventBranch || branch.startsWith(`${eventBranch}.`);
}

/**
 * The conversation as this agent's model should see it: its own and the
 * user's turns as they are; other agents' turns retold as user context (a
 * model must not believe it said what another agent said); events of other
 * branches, partial chunks, errors and client-only calls left out, and so are answers to questions asked on
 * another branch (a node run as a tool asks on its call's branch).
 *
 * A call may get several responses (a pending one, then updates or the result
 * of a confirmed call). A later response takes the place of the earlier one
 * while the model has not spoken since, so every call stays followed by its
 * answer; once the model has replied to the earlier one, the later one is told
 * as an update where it arrived, since a provider accepts one response per call.
 */
export function buildContents(events: readonly Event[], agentName: string, scope: HistoryScope, memo?: { contents?: object }): Content[] {
  const isShown = (event: Event): boolean => !!event.content?.parts?.length && !event.partial && !event.errorCode && isVisible(event, scope);
  const latest = latestResponseAfterItsCall(events, isShown);
  if (latest) {
    // Rare (a long-running tool's late result): built whole and not kept, since the merged tail is not history.
    const whole = newContents(events, agentName, scope);
    appendContents(whole, events, latest.callIndex + 1, isShown);
    appendEvent(whole, latest.merged);
    return whole.contents;
  }
  // Between two model calls of a run the history grows by a few events: the contents built at the previous call
  // (kept in the invocation's memo) are taken up where they ended, so a call costs the events since then, not
  // the whole history again. (Kept in a WeakMap by history instead, they cost the garbage collector more than
  // the walk they spared: a short run made an entry each.)
  let built = memo?.contents as ContentsSoFar | undefined;
  if (!built || !continues(built, events, agentName, scope)) {
    built = newContents(events, agentName, scope);
    if (memo) memo.contents = built;
  }
  appendContents(built, events, events.length, isShown);
  return built.contents.slice();
}

/**
 * The contents built from a history's first `next` events, with what {@link buildContents} needs to go on: where
 * each call's response was placed, and how many model turns had been shown then (the model has spoken since a
 * response when more have been shown now).
 */
interface ContentsSoFar {
  /** The history they come from: the session's list of events, which grows as the run stores events. */
  readonly events: readonly Event[];
  readonly agentName: string;
  readonly branch: string | undefined;
  readonly historyRoot: string | undefined;
  readonly isolationScope: string | undefined;
  readonly contents: Content[];
  readonly placed: Map<string, { content: number; part: number; modelTurnsBefore: number; retoldFrom?: string }>;
  modelTurns: number;
  /** How many of the history's events are in. */
  next: number;
  /** The last of them, to tell that the history still begins with them. */
  lastEvent: Event | undefined;
}

function newContents(events: readonly Event[], agentName: string, scope: HistoryScope): ContentsSoFar {
  return { events, agentName, branch: scope.branch, historyRoot: scope.historyRoot, isolationScope: scope.isolationScope, contents: [], placed: new Map(), modelTurns: 0, next: 0, lastEvent: undefined };
}

/**
 * Whether `built` is the beginning of `events` as this agent, in this scope, sees them: the same list, still
 * holding the events built from (a list cut back and grown again would hold others).
 */
function continues(built: ContentsSoFar, events: readonly Event[], agentName: string, scope: HistoryScope): boolean {
  if (built.events !== events || built.agentName !== agentName || built.branch !== scope.branch || built.historyRoot !== scope.historyRoot || built.isolationScope !== scope.isolationScope) return false;
  return built.next <= events.length && (built.next === 0 || events[built.next - 1] === built.lastEvent);
}

/** Adds the shown events from where `built` ended up to (not including) `end`. */
function appendContents(built: ContentsSoFar, events: readonly Event[], end: number, isShown: (event: Event) => boolean): void {
  for (let index = built.next; index < end; index++) {
    const event = events[index]!;
    if (isShown(event)) appendEvent(built, event);
  }
  if (end > built.next) {
    built.next = end;
    built.lastEvent = events[end - 1];
  }
}

/** Adds one shown event: as it is, or without client-only calls, with responses placed or retold. */
function appendEvent(built: ContentsSoFar, event: Event): void {
  const { contents, placed, agentName } = built;
  const eventContent = event.content as Content & { parts: Part[] };
  if (eventContent.role === "model") built.modelTurns++;
  const modelTurns = built.modelTurns;
  const foreign = event.author !== agentName && event.author !== "user";
  // Most events go in as they are: nothing to leave out, replace or retell. They skip the copy of their parts.
  if (!foreign && eventContent.role !== undefined && takenAsItIs(eventContent.parts, placed)) {
    for (let position = 0; position < eventContent.parts.length; position++) {
      const id = eventContent.parts[position]!.functionResponse?.id;
      if (id) placed.set(id, { content: contents.length, part: position, modelTurnsBefore: modelTurns });
    }
    contents.push(eventContent);
    return;
  }
  const parts: Part[] = [];
  let changed = false;
  for (const part of eventContent.parts) {
    const response = part.functionResponse;
    if (isClientPart(part)) {
      changed = true;
      continue;
    }
    const earlier = response?.id ? placed.get(response.id) : undefined;
    if (!earlier && response?.name === REQUEST_INPUT_FUNCTION_CALL_NAME && !contents.some((content) => callsId(content.parts ?? [], response.id ?? ""))) {
      // The person's answer to a question this model did not ask (a node run as a tool asked it): its call is not
      // in these contents, and a provider refuses a response to no call.
      changed = true;
      continue;
    }
    if (!response?.id || !earlier) {
      if (response?.id) {
        // A retold event starts with "For context:" and leaves thoughts out.
        const index = foreign ? 1 + parts.filter((kept) => !kept.thought).length : parts.length;
        placed.set(response.id, { content: contents.length, part: index, modelTurnsBefore: modelTurns, retoldFrom: foreign ? event.author : undefined });
      }
      parts.push(part);
    } else if (earlier.modelTurnsBefore === modelTurns) {
      const target = contents[earlier.content]!;
      const replaced = [...target.parts!];
      replaced[earlier.part] = earlier.retoldFrom ? retellPart(earlier.retoldFrom, part) : part;
      contents[earlier.content] = { ...target, parts: replaced };
      changed = true;
    } else {
      parts.push({ text: `Update for the earlier call to ${response.name} (id ${response.id}): ${JSON.stringify(response.response)}` });
      changed = true;
    }
  }
  if (parts.length === 0) return;
  // A message stored without a role is sent with its speaker's, as ADK sends it.
  const role = eventContent.role ?? (event.author === "user" ? "user" : "model");
  const content = changed || eventContent.role === undefined ? { ...eventContent, role, parts } : eventContent;
  contents.push(foreign ? retellForeignEvent(event.author, parts) : content);
}

/**
 * ADK's reading of a history that ends with a function response to a call
 * made earlier (a long-running tool's result arriving after the model
 * already answered its pending status): the call is followed directly by its
 * responses, the latest for each of its calls, and what came between is left
 * out, so the model answers the result as if it had just arrived. Earlier in
 * the history, later responses are told as updates instead (see
 * {@link buildContents}).
 */
function latestResponseAfterItsCall(events: readonly Event[], isShown: (event: Event) => boolean): { callIndex: number; merged: Event } | undefined {
  const lastIndex = previousShown(events, events.length, isShown);
  if (lastIndex < 0 || !answersCallsMadeJustBefore(events, lastIndex, isShown)) return undefined;
  const answered = new Set(getFunctionResponses(events[lastIndex]!.content).flatMap((response) => (response.id ? [response.id] : [])));
  const beforeLast = previousShown(events, lastIndex, isShown);
  // Back from the end to the call, in one pass: each id's latest response, and where its first one is.
  const responses = new Map<string, { latest: Part; firstEvent: number; firstPart: number }>();
  const collect = (event: Event, index: number) => {
    const parts = event.content?.parts ?? [];
    for (let position = parts.length - 1; position >= 0; position--) {
      const id = parts[position]!.functionResponse?.id;
      if (!id) continue;
      const known = responses.get(id);
      if (known) Object.assign(known, { firstEvent: index, firstPart: position });
      else responses.set(id, { latest: parts[position]!, firstEvent: index, firstPart: position });
    }
  };
  collect(events[lastIndex]!, lastIndex);
  let callIndex = -1;
  for (let index = beforeLast; index >= 0; index--) {
    const event = events[index]!;
    if (!isShown(event)) continue;
    if (getFunctionCalls(event.content).some((call) => call.id && answered.has(call.id))) {
      callIndex = index;
      break;
    }
    collect(event, index);
  }
  if (callIndex < 0) return undefined;
  const callIds = new Set(getFunctionCalls(events[callIndex]!.content).map((call) => call.id));
  for (const id of answered) if (!callIds.has(id)) return undefined;
  // The responses to the call's ids, in the order they first arrived; the event of the first one carries them.
  const merging = [...responses].filter(([id]) => callIds.has(id)).map(([, response]) => response);
  merging.sort((left, right) => left.firstEvent - right.firstEvent || left.firstPart - right.firstPart);
  const firstResponse = events[merging[0]!.firstEvent]!;
  return { callIndex, merged: { ...firstResponse, content: { role: "user", parts: merging.map((response) => response.latest) } } };
}

/**
 * Whether the event at `lastIndex` holds responses and any of them answers a call not in the shown event just
 * before it: the one case {@link latestResponseAfterItsCall} has work for. Most model calls follow a text or a
 * response to the calls just made; this tells them apart without building a list or a set.
 */
function answersCallsMadeJustBefore(events: readonly Event[], lastIndex: number, isShown: (event: Event) => boolean): boolean {
  const parts = events[lastIndex]!.content?.parts ?? [];
  if (!parts.some(hasResponseId)) return false;
  const beforeLast = previousShown(events, lastIndex, isShown);
  if (beforeLast < 0) return true;
  const callParts = events[beforeLast]!.content?.parts ?? [];
  // Indexed, and no closure per part: this runs at every model call (see getFunctionCalls).
  for (let index = 0; index < parts.length; index++) {
    const id = parts[index]!.functionResponse?.id;
    if (id && callsId(callParts, id)) return false;
  }
  return true;
}

function hasResponseId(part: Part): boolean {
  return !!part.functionResponse?.id;
}

/** Whether one of `parts` is a call with this id. */
function callsId(parts: readonly Part[], id: string): boolean {
  for (let index = 0; index < parts.length; index++) if (parts[index]!.functionCall?.id === id) return true;
  return false;
}

/** The index of the last shown event before `before`, or -1. */
function previousShown(events: readonly Event[], before: number, isShown: (event: Event) => boolean): number {
  for (let index = before - 1; index >= 0; index--) if (isShown(events[index]!)) return index;
  return -1;
}

/** Whether an event's parts need no change: no client-only call, no response to a call already answered. */
function takenAsItIs(parts: readonly Part[], placed: ReadonlyMap<string, unknown>): boolean {
  // Indexed: `for … of` makes an iterator result per step until V8 optimizes this function (see getFunctionCalls).
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    if (isClientPart(part)) return false;
    const id = part.functionResponse?.id;
    if (id && (placed.has(id) || part.functionResponse!.name === REQUEST_INPUT_FUNCTION_CALL_NAME)) return false;
  }
  return true;
}

function isClientPart(part: Part): boolean {
  const name = part.functionCall?.name ?? part.functionResponse?.name;
  return name !== undefined && CLIENT_FUNCTION_NAMES.has(name);
}

function retellForeignEvent(author: string, parts: readonly Part[]): Content {
  const retold: Part[] = [{ text: "For context:" }];
  for (const part of parts) if (!part.thought) retold.push(retellPart(author, part));
  return { role: "user", parts: retold };
}

function retellPart(author: string, part: Part): Part {
  if (part.text !== undefined) return { text: `[${author}] said: ${part.text}` };
  if (part.functionCall) return { text: `[${author}] called tool \`${part.functionCall.name}\` with parameters: ${JSON.stringify(part.functionCall.args ?? {})}` };
  if (part.functionResponse) return { text: `[${author}] tool \`${part.functionResponse.name}\` returned result: ${JSON.stringify(part.functionResponse.response)}` };
  return part;
}
