import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEvent, DEFAULT_ROUTE, Edge, FunctionNode, InMemoryRunner, JoinNode, START, ToolsmithError, Workflow, type BaseNode, type EdgeItem, type Event, type NodeContext, type RouteValue } from "toolsmith";
import { userMessage } from "toolsmith/testing";

// ---------------------------------------------------------------------------------------------------------------
// A value as stable text: sorted keys, `undefined` kept (a join's input keeps a predecessor that gave no output).

function canon(value: unknown): string {
  if (value === undefined) return "~u";
  if (Array.isArray(value)) return `[${value.map(canon).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canon((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

// ---------------------------------------------------------------------------------------------------------------
// Random DAGs of function nodes and joins, as a plain description the reference model and the workflow both read.

type Route = RouteValue | RouteValue[] | undefined;
const ROUTE_POOL: RouteValue[] = ["a", "b", 1, 2, true, false, "1", "true", "__proto__"];

interface NodeSpec {
  name: string;
  join: boolean;
  /** Gives no output (its route, if any, set on ctx.route). */
  silent: boolean;
  /** The routes it may take; which one is picked by a hash of its input. */
  routes: Route[];
  /** How a node with output sets its route: on its output event, or on ctx.route. */
  routeOnEvent: boolean;
  writesState: boolean;
  /** setImmediate hops before it answers, to shuffle completion order. */
  delay: number;
}

/** An edge: from -1 (START) or a node index, to a later node. */
interface EdgeSpec {
  from: number;
  to: number;
  route: null | RouteValue | RouteValue[] | typeof DEFAULT_ROUTE;
}

interface GraphSpec {
  nodes: NodeSpec[];
  edges: EdgeSpec[];
  maxConcurrency: number | undefined;
  nested: boolean;
  /** Per source (index + 1; 0 is START): written as explicit Edge objects, or as chains and routing maps. */
  explicit: boolean[];
  startAsString: boolean;
}

const rawNode = fc.record({
  preds: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
  edgeKinds: fc.array(fc.nat({ max: 11 }), { minLength: 3, maxLength: 3 }),
  routePicks: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
  join: fc.nat({ max: 3 }),
  silent: fc.nat({ max: 5 }),
  routes: fc.array(fc.oneof(fc.constant(undefined), fc.nat(), fc.tuple(fc.nat(), fc.nat())), { minLength: 1, maxLength: 4 }),
  routeOnEvent: fc.boolean(),
  writesState: fc.boolean(),
  delay: fc.nat({ max: 3 }),
  explicit: fc.boolean(),
});

const rawGraph = fc.record({
  nodes: fc.array(rawNode, { minLength: 1, maxLength: 8 }),
  maxConcurrency: fc.oneof(fc.constant(undefined), fc.integer({ min: 1, max: 3 })),
  nested: fc.nat({ max: 3 }),
  startExplicit: fc.boolean(),
  startAsString: fc.boolean(),
});

const pick = (index: number): RouteValue => ROUTE_POOL[index % ROUTE_POOL.length]!;

/** Two routes of one edge must differ as text (routes compare as text, so `1` and `"1"` would be one edge twice). */
function routeList(a: number, b: number): RouteValue | RouteValue[] {
  const first = pick(a);
  const second = pick(b);
  return String(first) === String(second) ? first : [first, second];
}

type RawGraph = typeof rawGraph extends fc.Arbitrary<infer T> ? T : never;

function buildSpec(raw: RawGraph): GraphSpec {
  const nodes: NodeSpec[] = [];
  const edges: EdgeSpec[] = [];
  /** The most runs a node can have: START once, a node the sum over its in-edges, a join once. */
  const bound: number[] = [];
  const hasDefault = new Set<number>();
  raw.nodes.forEach((rawNodeSpec, index) => {
    // A would-be join draws its predecessors among the nodes only (a join after START never fires).
    const wantsJoin = rawNodeSpec.join === 0 && index >= 2;
    const drawn = wantsJoin ? [...rawNodeSpec.preds, rawNodeSpec.preds[0]! + 1].map((p) => p % index) : rawNodeSpec.preds.map((p) => (p % (index + 1)) - 1);
    const preds = [...new Set(drawn)];
    // A join whose predecessors may run more than once would fire a number of times that depends on their order.
    const join = wantsJoin && preds.length >= 2 && preds.every((p) => bound[p] === 1);
    preds.forEach((from, k) => {
      const kind = rawNodeSpec.edgeKinds[k]!;
      let route: EdgeSpec["route"] = null;
      if (from !== -1 && !join) {
        if (kind >= 6 && kind <= 8) route = pick(rawNodeSpec.routePicks[k]!);
        else if (kind === 9) route = routeList(rawNodeSpec.routePicks[k]!, rawNodeSpec.routePicks[3]!);
        else if (kind >= 10 && !hasDefault.has(from)) {
          route = DEFAULT_ROUTE;
          hasDefault.add(from);
        }
      }
      edges.push({ from, to: index, route });
    });
    bound[index] = join ? 1 : preds.reduce((sum, p) => sum + (p === -1 ? 1 : bound[p]!), 0);
    nodes.push({
      name: `n${index}`,
      join,
      silent: !join && rawNodeSpec.silent === 0,
      routes: rawNodeSpec.routes.map((r) => (r === undefined ? undefined : Array.isArray(r) ? routeList(r[0], r[1]) : pick(r))),
      routeOnEvent: rawNodeSpec.routeOnEvent,
      writesState: !join && rawNodeSpec.writesState,
      delay: rawNodeSpec.delay,
    });
  });
  return {
    nodes,
    edges,
    maxConcurrency: raw.maxConcurrency,
    nested: raw.nested === 0,
    explicit: [raw.startExplicit, ...raw.nodes.map((n) => n.explicit)],
    startAsString: raw.startAsString,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The reference model: what must run, with which inputs, how many times. Written from ADK's rules, not the code.

/** What a node outputs and which route it takes for an input: a pure function of its name and input. */
function behaviour(spec: NodeSpec, input: unknown): { output: unknown; route: Route } {
  const h = hash(`${spec.name}|${canon(input)}`);
  if (spec.join) return { output: input, route: undefined };
  return { output: spec.silent ? undefined : `${spec.name}:${h.toString(36)}`, route: spec.routes[h % spec.routes.length] };
}

/** ADK's edge rule: unconditional edges always; routed ones whose route matches as text; DEFAULT_ROUTE when none matched. */
function targetsOf(graph: GraphSpec, from: number, route: Route): number[] {
  const taken = (route === undefined ? [] : Array.isArray(route) ? route : [route]).map(String);
  const next: number[] = [];
  let matched = false;
  let fallback: number | undefined;
  for (const edge of graph.edges) {
    if (edge.from !== from) continue;
    if (edge.route === null) next.push(edge.to);
    else if (edge.route === DEFAULT_ROUTE) fallback = edge.to;
    else if ((Array.isArray(edge.route) ? edge.route : [edge.route]).some((r) => taken.includes(String(r)))) {
      next.push(edge.to);
      matched = true;
    }
  }
  if (!matched && fallback !== undefined) next.push(fallback);
  return next;
}

interface ReferenceRun {
  node: number;
  input: unknown;
  output: unknown;
}

function referenceRuns(graph: GraphSpec, input: unknown): ReferenceRun[] {
  const runs: ReferenceRun[] = [];
  const queue: Array<{ node: number; input: unknown }> = targetsOf(graph, -1, undefined).map((node) => ({ node, input }));
  const completed = new Set<number>();
  const lastOutput = new Map<number, unknown>();
  const predecessors = (node: number) => [...new Set(graph.edges.filter((edge) => edge.to === node).map((edge) => edge.from))];
  while (queue.length > 0) {
    const trigger = queue.shift()!;
    const spec = graph.nodes[trigger.node]!;
    const { output, route } = behaviour(spec, trigger.input);
    runs.push({ node: trigger.node, input: trigger.input, output });
    completed.add(trigger.node);
    if (output !== undefined) lastOutput.set(trigger.node, output);
    for (const target of targetsOf(graph, trigger.node, route)) {
      if (!graph.nodes[target]!.join) {
        queue.push({ node: target, input: output });
        continue;
      }
      const before = predecessors(target);
      if (!before.every((p) => completed.has(p))) continue;
      queue.push({ node: target, input: Object.fromEntries(before.map((p) => [graph.nodes[p]!.name, lastOutput.get(p)])) });
    }
  }
  return runs;
}

// ---------------------------------------------------------------------------------------------------------------
// The workflow the description makes, with probes in every node.

interface Probe {
  log: Array<{ name: string; input: string }>;
  live: number;
  peak: number;
}

class ProbedJoin extends JoinNode {
  constructor(
    name: string,
    readonly probe: Probe,
  ) {
    super({ name });
  }

  protected override async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<unknown, void, void> {
    this.probe.log.push({ name: this.name, input: canon(input) });
    this.probe.live += 1;
    this.probe.peak = Math.max(this.probe.peak, this.probe.live);
    try {
      yield* super.runImpl(ctx, input);
    } finally {
      this.probe.live -= 1;
    }
  }
}

const hop = () => new Promise<void>((resolve) => setImmediate(resolve));

function probedNode(spec: NodeSpec, probe: Probe): BaseNode {
  if (spec.join) return new ProbedJoin(spec.name, probe);
  return new FunctionNode(spec.name, async function* (ctx: NodeContext, input: unknown) {
    probe.log.push({ name: spec.name, input: canon(input) });
    probe.live += 1;
    probe.peak = Math.max(probe.peak, probe.live);
    try {
      for (let i = 0; i < spec.delay; i++) await hop();
      const { output, route } = behaviour(spec, input);
      if (spec.writesState) ctx.state.set(`ran_${spec.name}`, true);
      if (output === undefined || !spec.routeOnEvent) {
        if (route !== undefined) ctx.route = route;
        if (output !== undefined) yield output;
      } else {
        yield createEvent({ invocationId: ctx.invocationId, output, route, content: { role: "model", parts: [{ text: String(output) }] } });
      }
    } finally {
      probe.live -= 1;
    }
  });
}

/** The description as edge items: per source, explicit Edge objects, or chains with fan-out arrays and routing maps. */
function edgeItems(graph: GraphSpec, built: BaseNode[]): EdgeItem[] {
  const items: EdgeItem[] = [];
  const start = graph.startAsString ? "START" : START;
  const nodeOf = (index: number) => (index === -1 ? start : built[index]!);
  for (let from = -1; from < graph.nodes.length; from++) {
    const outgoing = graph.edges.filter((edge) => edge.from === from);
    if (outgoing.length === 0) continue;
    if (graph.explicit[from + 1]) {
      for (const edge of outgoing) items.push(new Edge(nodeOf(edge.from), nodeOf(edge.to), edge.route));
      continue;
    }
    const plain = outgoing.filter((edge) => edge.route === null).map((edge) => nodeOf(edge.to));
    if (plain.length === 1) items.push([nodeOf(from), plain[0]!]);
    else if (plain.length > 1) items.push([nodeOf(from), plain]);
    const map: Record<string, BaseNode[]> = {};
    for (const edge of outgoing) {
      if (edge.route === null) continue;
      if (Array.isArray(edge.route)) {
        items.push(new Edge(nodeOf(edge.from), nodeOf(edge.to), edge.route));
        continue;
      }
      const key = String(edge.route);
      if (!Object.hasOwn(map, key)) Object.defineProperty(map, key, { value: [], enumerable: true, writable: true });
      map[key]!.push(nodeOf(edge.to) as BaseNode);
    }
    if (Object.keys(map).length > 0) items.push([nodeOf(from), map as never]);
  }
  return items;
}

// ---------------------------------------------------------------------------------------------------------------

describe("random graph workflows against a reference model", () => {
  it("runs exactly the nodes the reference model runs, stores every event once in order, marks each with its path, and keeps to maxConcurrency", async () => {
    const figures = { graphs: 0, nodes: 0, nodeRuns: 0, joinRuns: 0, events: 0, routedEdges: 0, defaultEdges: 0, ambiguous: 0, nested: 0, limited: 0, peakAtLimit: 0, workflowOutputEvents: 0 };
    await fc.assert(
      fc.asyncProperty(rawGraph, async (raw) => {
        const graph = buildSpec(raw);
        const probe: Probe = { log: [], live: 0, peak: 0 };
        const built = graph.nodes.map((spec) => probedNode(spec, probe));
        const inner = new Workflow({ name: "wf", edges: edgeItems(graph, built), maxConcurrency: graph.maxConcurrency });
        const root = graph.nested ? new Workflow({ name: "outer", edges: [["START", inner]] }) : inner;
        const prefix = graph.nested ? "outer.wf." : "wf.";

        const runner = new InMemoryRunner({ agent: root, appName: "fuzz" });
        const session = await runner.sessionService.createSession({ appName: "fuzz", userId: "u" });
        const events: Event[] = [];
        for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") })) events.push(event);
        const stored = (await runner.sessionService.getSession({ appName: "fuzz", userId: "u", sessionId: session.id }))!;

        const expected = referenceRuns(graph, "go");
        const name = (node: number) => graph.nodes[node]!.name;

        // Exactly the expected runs: each node as many times as the model says, with the model's inputs.
        expect(probe.log.map((run) => `${run.name}<${run.input}`).sort()).toEqual(expected.map((run) => `${name(run.node)}<${canon(run.input)}`).sort());

        // Each event stored exactly once, in the order it was yielded, after the user's message.
        expect(stored.events[0]!.author).toBe("user");
        expect(stored.events.slice(1).map((event) => event.id)).toEqual(events.map((event) => event.id));
        expect(new Set(stored.events.map((event) => event.id)).size).toBe(stored.events.length);

        // Every event of a node carries the node's path; the only others are the workflow's output or its refusal.
        const nodeNames = new Set(graph.nodes.map((spec) => spec.name));
        const nodeEvents = events.filter((event) => nodeNames.has(event.author));
        for (const event of nodeEvents) expect(event.nodeInfo?.path).toBe(`${prefix}${event.author}`);
        const others = events.filter((event) => !nodeNames.has(event.author));
        expect(others.length).toBeLessThanOrEqual(1);

        // Each run with output sent it once; nothing else sent output.
        expect(nodeEvents.filter((event) => event.output !== undefined).map((event) => `${event.author}=${canon(event.output)}`).sort()).toEqual(
          expected.filter((run) => run.output !== undefined).map((run) => `${name(run.node)}=${canon(run.output)}`).sort(),
        );
        for (const event of nodeEvents.filter((each) => each.output !== undefined)) expect(event.nodeInfo!.outputFor![0]).toBe(`${prefix}${event.author}`);

        // The workflow's output: the one terminal node's, or a refusal when several terminal nodes answered.
        const terminal = new Set(graph.nodes.map((_, index) => index).filter((index) => !graph.edges.some((edge) => edge.from === index)));
        const answered = [...new Set(expected.filter((run) => terminal.has(run.node) && run.output !== undefined).map((run) => run.node))];
        const errors = events.filter((event) => event.errorCode);
        if (answered.length > 1) {
          expect(errors.map((event) => event.errorCode)).toEqual(["WORKFLOW_OUTPUT_AMBIGUOUS"]);
          expect(events.at(-1)).toBe(errors[0]);
          figures.ambiguous += 1;
        } else {
          expect(errors).toEqual([]);
          if (answered.length === 0) {
            expect(others).toEqual([]);
          } else {
            const outputs = expected.filter((run) => run.node === answered[0]).map((run) => canon(run.output));
            const final = others[0] ?? [...events].reverse().find((event) => event.output !== undefined)!;
            if (others[0]) {
              expect(others[0]).toBe(events.at(-1));
              expect(others[0].author).toBe(root.name);
              figures.workflowOutputEvents += 1;
            }
            expect(outputs).toContain(canon(final.output));
          }
        }

        // State a node wrote is in the session exactly when the node ran.
        const ran = new Set(expected.map((run) => name(run.node)));
        for (const spec of graph.nodes) expect(stored.state[`ran_${spec.name}`]).toBe(spec.writesState && ran.has(spec.name) ? true : undefined);

        if (graph.maxConcurrency !== undefined) {
          expect(probe.peak).toBeLessThanOrEqual(graph.maxConcurrency);
          figures.limited += 1;
          if (probe.peak === graph.maxConcurrency) figures.peakAtLimit += 1;
        }
        expect(probe.live).toBe(0);

        figures.graphs += 1;
        figures.nodes += graph.nodes.length;
        figures.nodeRuns += expected.length;
        figures.joinRuns += expected.filter((run) => graph.nodes[run.node]!.join).length;
        figures.events += events.length;
        figures.routedEdges += graph.edges.filter((edge) => edge.route !== null && edge.route !== DEFAULT_ROUTE).length;
        figures.defaultEdges += graph.edges.filter((edge) => edge.route === DEFAULT_ROUTE).length;
        if (graph.nested) figures.nested += 1;
      }),
      { numRuns: 500 },
    );
    console.log(
      `checked ${figures.graphs} random graphs (${figures.nodes.toLocaleString("en")} nodes, ${figures.routedEdges} routed and ${figures.defaultEdges} DEFAULT_ROUTE edges, ${figures.nested} nested in another workflow): ` +
        `${figures.nodeRuns.toLocaleString("en")} node runs (${figures.joinRuns} joins), ${figures.events.toLocaleString("en")} events each stored once in order; ` +
        `${figures.ambiguous} ended WORKFLOW_OUTPUT_AMBIGUOUS, ${figures.workflowOutputEvents} with an output event of the workflow's own; ` +
        `${figures.limited} ran under maxConcurrency, ${figures.peakAtLimit} of them reaching the limit and none passing it`,
    );
    expect(figures.joinRuns).toBeGreaterThan(0);
    expect(figures.ambiguous).toBeGreaterThan(0);
    expect(figures.peakAtLimit).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Hostile edge lists: whatever is given, the workflow is built as a reference parser and validator say, or refused
// with INVALID_WORKFLOW, never another error.

type Identity = object | typeof START;

function namedHandler(name: string) {
  const holder: Record<string, () => string> = { [name]: () => name };
  return holder[name]!;
}

const NODE_POOL: unknown[] = [
  namedHandler("a"),
  namedHandler("b"),
  namedHandler("c"),
  new FunctionNode("d", () => "d"),
  new FunctionNode("e", () => "e"),
  // A second, different node named "a": using it with the first one is a clash.
  new FunctionNode("a", () => "a2"),
  new JoinNode({ name: "j" }),
  "START",
  START,
];
const JUNK_POOL: unknown[] = [null, 42, "b", undefined, true];
const KEY_POOL = ["x", "y", "1", "-3", "007", "true", "false", "__proto__", "constructor", DEFAULT_ROUTE];

const element: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom(...NODE_POOL.filter((value) => value !== "START" && value !== START)) },
    { weight: 1, arbitrary: fc.constantFrom("START", START) },
    { weight: 1, arbitrary: fc.constantFrom(...JUNK_POOL, {}) },
  ),
  fan: fc.array(tie("node"), { maxLength: 3 }),
  map: fc.array(fc.tuple(fc.constantFrom(...KEY_POOL), fc.oneof({ weight: 3, arbitrary: tie("node") }, { weight: 1, arbitrary: tie("fan") })), { minLength: 1, maxLength: 3 }).map((entries) => {
    const map: Record<string, unknown> = {};
    for (const [key, value] of entries) Object.defineProperty(map, key, { value, enumerable: true, configurable: true, writable: true });
    return map;
  }),
  element: fc.oneof({ weight: 6, arbitrary: tie("node") }, { weight: 2, arbitrary: tie("fan") }, { weight: 2, arbitrary: tie("map") }),
})).element;

const edgeItem = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.tuple(fc.nat({ max: 3 }), fc.array(element, { minLength: 1, maxLength: 4 })).map(([fromStart, chain]) => (fromStart > 0 ? [fromStart === 1 ? START : "START", ...chain] : chain)),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...NODE_POOL.filter((value) => value !== "START")), fc.constantFrom(...NODE_POOL), fc.oneof(fc.constant(null), fc.constantFrom(...KEY_POOL), fc.array(fc.constantFrom("x", 2, true, DEFAULT_ROUTE), { minLength: 1, maxLength: 2 })))
      .map(([from, to, route]) => ({ edge: [from, to, route] as const })),
  },
  { weight: 1, arbitrary: fc.constantFrom(...JUNK_POOL, namedHandler("a"), { x: namedHandler("b") }) },
);

/** What toolsmith's reference semantics make of an edge list (ADK's parseEdgeItems + validateGraph), written apart. */
function referenceGraph(items: unknown[]): { valid: false; why: string } | { valid: true; edges: string[]; terminal: string[] } {
  const isMap = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value));
  const isNode = (value: unknown) => NODE_POOL.includes(value);
  const identity = (value: unknown): Identity => (value === "START" || value === START ? START : (value as object));
  const nameOf = (id: Identity) => (id === START ? "__START__" : typeof id === "function" ? (id as { name: string }).name : (id as { name: string }).name);
  const normal = (key: string): RouteValue => (/^-?\d+$/.test(key) ? Number(key) : key === "true" || key === "false" ? key === "true" : key);
  const edges: Array<{ from: Identity; to: Identity; route: unknown }> = [];
  const flat = (value: unknown): unknown[] => (isMap(value) ? Object.values(value as object).flatMap((target) => (Array.isArray(target) ? target : [target])) : Array.isArray(value) ? value : [value]);
  const connect = (from: unknown, to: unknown, route: unknown) => {
    if (!isNode(from) || !isNode(to)) throw new Error("not a node");
    edges.push({ from: identity(from), to: identity(to), route });
  };
  try {
    for (const item of items) {
      if (item && typeof item === "object" && "edge" in item) {
        const [from, to, route] = (item as { edge: [unknown, unknown, unknown] }).edge;
        connect(from, to, route);
      } else if (Array.isArray(item)) {
        for (let i = 0; i < item.length - 1; i++) {
          const [from, to] = [item[i], item[i + 1]];
          if (isMap(to)) {
            if (isMap(from)) throw new Error("consecutive maps");
            const entries = Object.entries(to as object);
            if (entries.length === 0) throw new Error("empty map");
            for (const [, target] of entries) if ((Array.isArray(target) ? target : [target]).some((each) => !isNode(each)) || (Array.isArray(target) && target.length === 0)) throw new Error("map to a non-node");
            for (const [key, target] of entries) for (const source of flat(from)) for (const each of Array.isArray(target) ? target : [target]) connect(source, each, normal(key));
          } else {
            for (const source of flat(from)) for (const target of flat(to)) connect(source, target, null);
          }
        }
      } else {
        throw new Error("not an edge item");
      }
    }
  } catch (error) {
    return { valid: false, why: (error as Error).message };
  }
  const nodes = [...new Set(edges.flatMap((edge) => [edge.from, edge.to]))];
  const names = nodes.map(nameOf);
  if (new Set(names).size !== names.length) return { valid: false, why: "duplicate names" };
  if (!nodes.includes(START)) return { valid: false, why: "no START" };
  if (edges.some((edge) => edge.to === START)) return { valid: false, why: "into START" };
  if (edges.some((edge) => edge.from === START && edge.route !== null)) return { valid: false, why: "route from START" };
  const seen = new Set<string>();
  const defaults = new Set<Identity>();
  for (const edge of edges) {
    const routes = edge.route === null ? [null] : (Array.isArray(edge.route) ? edge.route : [edge.route]).map(String);
    if (Array.isArray(edge.route) && edge.route.includes(DEFAULT_ROUTE)) return { valid: false, why: "DEFAULT_ROUTE in a list" };
    for (const route of routes) {
      const key = JSON.stringify([nameOf(edge.from), nameOf(edge.to), route]);
      if (seen.has(key)) return { valid: false, why: "duplicate edge" };
      seen.add(key);
    }
    if (edge.route === DEFAULT_ROUTE) {
      if (defaults.has(edge.from)) return { valid: false, why: "two DEFAULT_ROUTE edges" };
      defaults.add(edge.from);
    }
  }
  const reached = new Set<Identity>([START]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const edge of edges) if (reached.has(edge.from) && !reached.has(edge.to)) reached.add(edge.to), (grew = true);
  }
  if (nodes.some((each) => !reached.has(each))) return { valid: false, why: "unreachable" };
  // Kahn's algorithm over the unconditional edges: what cannot be peeled off lies on a cycle.
  const plain = edges.filter((edge) => edge.route === null);
  let left = new Set(nodes);
  for (let peeled = true; peeled; ) {
    peeled = false;
    for (const each of left) {
      if (!plain.some((edge) => edge.to === each && left.has(edge.from))) {
        left.delete(each);
        peeled = true;
      }
    }
  }
  if (left.size > 0) return { valid: false, why: "unconditional cycle" };
  const sources = new Set(edges.map((edge) => edge.from));
  return {
    valid: true,
    edges: edges.map((edge) => `${nameOf(edge.from)} -${JSON.stringify(edge.route)}-> ${nameOf(edge.to)}`),
    terminal: nodes.filter((each) => each !== START && !sources.has(each)).map(nameOf).sort(),
  };
}

describe("hostile edge lists", () => {
  it("builds exactly the graphs a reference parser and validator accept, and refuses the others with INVALID_WORKFLOW", () => {
    const outcomes = new Map<string, number>();
    let built = 0;
    let edgesChecked = 0;
    fc.assert(
      fc.property(fc.array(edgeItem, { minLength: 1, maxLength: 4 }), (raw) => {
        const items = raw.map((item) => (item && typeof item === "object" && "edge" in item ? new Edge(...((item as { edge: [never, never, never] }).edge)) : item));
        const reference = referenceGraph(raw);
        let workflow: Workflow | undefined;
        let refusal: unknown;
        try {
          workflow = new Workflow({ name: "wf", edges: items as EdgeItem[] });
        } catch (error) {
          refusal = error;
        }
        if (!reference.valid) {
          expect(refusal, `the reference refuses it (${reference.why})`).toBeInstanceOf(ToolsmithError);
          expect((refusal as ToolsmithError).code).toBe("INVALID_WORKFLOW");
          outcomes.set(reference.why, (outcomes.get(reference.why) ?? 0) + 1);
          return;
        }
        expect(refusal, "the reference builds it").toBeUndefined();
        const graph = workflow!.graph!;
        expect(graph.edges.map((edge) => `${edge.fromNode.name} -${JSON.stringify(edge.route)}-> ${edge.toNode.name}`)).toEqual(reference.edges);
        expect([...graph.terminalNodeNames].sort()).toEqual(reference.terminal);
        built += 1;
        edgesChecked += graph.edges.length;
      }),
      { numRuns: 2000 },
    );
    const refused = [...outcomes].sort((a, b) => b[1] - a[1]);
    console.log(`checked 2,000 random edge lists: ${built} built (${edgesChecked.toLocaleString("en")} edges as the reference read them), ${2000 - built} refused with INVALID_WORKFLOW: ${refused.map(([why, count]) => `${why} ${count}`).join(", ")}`);
    expect(built).toBeGreaterThan(150);
  });
});
