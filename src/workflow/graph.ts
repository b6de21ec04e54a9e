import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { RouteValue } from "../events/event.js";
import { buildNode, isNodeLike, isRoutingMap, type NodeLike } from "./build-node.js";
import { isBaseNode, START, type BaseNode } from "./node.js";

/** The route of an edge taken when none of its node's other routes matched (ADK's `DEFAULT_ROUTE`). */
export const DEFAULT_ROUTE = "__DEFAULT__";

/** Routes to targets: `{ yes: nodeA, no: [nodeB, nodeC] }` (ADK's `RoutingMap`). */
export type RoutingMap = Record<string | number, NodeLike | readonly NodeLike[]>;

/** One element of a chain: a node, several nodes run together, or a routing map (ADK's `ChainElement`). */
export type ChainElement = NodeLike | readonly NodeLike[] | RoutingMap;

/** An edge, or a chain of elements each leading to the next (ADK's `EdgeItem`). */
export type EdgeItem = Edge | ChainElement[];

const EDGE_BRAND = Symbol.for("toolsmith.workflow.edge");

/**
 * A connection from one node to another, taken always (no route) or when the first node took one of its routes.
 * The ends are kept as given; a workflow makes them nodes, so a function given to two edges is one node.
 */
export class Edge {
  readonly [EDGE_BRAND] = true;
  readonly fromNode: NodeLike;
  readonly toNode: NodeLike;
  readonly route: RouteValue | RouteValue[] | null;

  constructor(fromNode: NodeLike, toNode: NodeLike, route: RouteValue | RouteValue[] | null = null) {
    this.fromNode = fromNode;
    this.toNode = toNode;
    this.route = route;
  }
}

/** An edge of a {@link Graph}: its ends made nodes. */
export type GraphEdge = Edge & { readonly fromNode: BaseNode; readonly toNode: BaseNode };

/** Whether a value is an {@link Edge}. */
export function isEdge(value: unknown): value is Edge {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[EDGE_BRAND] === true;
}

/** A workflow's nodes and edges, checked when made (ADK's `Graph`, validated as `createGraphFromEdgeItems` does). */
export class Graph {
  readonly nodes: readonly BaseNode[];
  readonly edges: readonly GraphEdge[];
  /** Names of the nodes no edge leaves: the workflow's output is theirs. */
  readonly terminalNodeNames: ReadonlySet<string>;
  readonly #byName: ReadonlyMap<string, BaseNode>;
  readonly #outgoing: ReadonlyMap<string, readonly GraphEdge[]>;
  readonly #predecessors: ReadonlyMap<string, readonly string[]>;

  /** Edges whose ends are node-likes: each made a node once (the same function in two edges is one node). */
  constructor(edges: readonly Edge[]) {
    const built = withNodes(edges);
    this.edges = built;
    const nodes: BaseNode[] = [];
    const seen = new Set<BaseNode>();
    for (const edge of built) {
      for (const node of [edge.fromNode, edge.toNode]) {
        if (!seen.has(node)) {
          seen.add(node);
          nodes.push(node);
        }
      }
    }
    this.nodes = nodes;
    this.terminalNodeNames = validateGraph(nodes, built);
    this.#byName = new Map(nodes.map((node) => [node.name, node]));
    const outgoing = new Map<string, GraphEdge[]>();
    const predecessors = new Map<string, string[]>();
    for (const edge of built) {
      outgoing.set(edge.fromNode.name, [...(outgoing.get(edge.fromNode.name) ?? []), edge]);
      const before = predecessors.get(edge.toNode.name) ?? [];
      if (!before.includes(edge.fromNode.name)) predecessors.set(edge.toNode.name, [...before, edge.fromNode.name]);
    }
    this.#outgoing = outgoing;
    this.#predecessors = predecessors;
  }

  /** Checks the graph again (ADK's `validate`; a graph is checked when made, so this finds what changed since). */
  validate(): void {
    validateGraph(this.nodes, this.edges);
  }

  /** The node of a name. */
  node(name: string): BaseNode {
    const node = this.#byName.get(name);
    if (!node) throw new ConfigurationError("INVALID_WORKFLOW", `Node "${name}" is not in the graph. Add an edge to it.`);
    return node;
  }

  /** The names of the nodes with an edge into `name`. */
  predecessorsOf(name: string): readonly string[] {
    return this.#predecessors.get(name) ?? [];
  }

  /**
   * The nodes to run after `nodeName` took `routes`: every edge without a route, every edge with a matching route
   * (routes compare as text, as in ADK: `1` matches `"1"`), and the `DEFAULT_ROUTE` edge when no route matched.
   */
  getNextPendingNodes(nodeName: string, routes: RouteValue | RouteValue[] | null | undefined): string[] {
    const next: string[] = [];
    const taken = routes === null || routes === undefined ? [] : (Array.isArray(routes) ? routes : [routes]).map(String);
    let matched = false;
    let fallback: string | undefined;
    for (const edge of this.#outgoing.get(nodeName) ?? []) {
      if (edge.route === null || edge.route === undefined) {
        next.push(edge.toNode.name);
      } else if (edge.route === DEFAULT_ROUTE) {
        fallback = edge.toNode.name;
      } else if ((Array.isArray(edge.route) ? edge.route : [edge.route]).some((route) => taken.includes(String(route)))) {
        next.push(edge.toNode.name);
        matched = true;
      }
    }
    if (!matched && fallback !== undefined) next.push(fallback);
    return next;
  }
}

/** A graph from edge items: chains, fan-outs (arrays) and routing maps, as ADK reads them. */
export function createGraphFromEdgeItems(items: readonly EdgeItem[]): Graph {
  const edges: Edge[] = [];
  const connect = (from: NodeLike, to: NodeLike, route: RouteValue | RouteValue[] | null) => edges.push(new Edge(from, to, route));
  for (const item of items) {
    if (isEdge(item)) {
      edges.push(item);
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length - 1; i++) {
        const from = item[i] as ChainElement;
        const to = item[i + 1] as ChainElement;
        if (isRoutingMap(to)) {
          if (isRoutingMap(from)) throw invalid("two routing maps follow each other in a chain. Split them into separate edge items.");
          for (const [key, targets] of routingEntries(to)) for (const source of elementNodes(from)) for (const target of elementNodes(targets)) connect(source, target, routeOfKey(key));
        } else {
          for (const source of elementNodes(from)) for (const target of elementNodes(to)) connect(source, target, null);
        }
      }
    } else {
      throw invalid(`an edge item must be an Edge or an array (a chain), not ${describe(item)}.`);
    }
  }
  return new Graph(edges);
}

/** Edges with their ends made nodes, each node-like once: a function or agent given twice is one node. */
function withNodes(edges: readonly Edge[]): GraphEdge[] {
  const built = new Map<unknown, BaseNode>();
  const nodeOf = (nodeLike: NodeLike): BaseNode => {
    if (typeof nodeLike !== "object" && typeof nodeLike !== "function") return buildNode(nodeLike);
    let node = built.get(nodeLike);
    if (!node) built.set(nodeLike, (node = buildNode(nodeLike)));
    return node;
  };
  return edges.map((edge) => (isBaseNode(edge.fromNode) && isBaseNode(edge.toNode) ? edge : new Edge(nodeOf(edge.fromNode), nodeOf(edge.toNode), edge.route)) as GraphEdge);
}

/** A routing map's key as the route it stands for: digits are a number, `true`/`false` a boolean (as in ADK). */
function routeOfKey(key: string): RouteValue {
  if (/^-?\d+$/.test(key)) return Number(key);
  if (key === "true" || key === "false") return key === "true";
  return key;
}

function routingEntries(map: RoutingMap): Array<[string, ChainElement]> {
  const entries = Object.entries(map);
  if (entries.length === 0) throw invalid("a routing map is empty. Map at least one route to a node.");
  for (const [key, target] of entries) {
    const targets = Array.isArray(target) ? target : [target];
    if (targets.length === 0 || !targets.every(isNodeLike)) throw invalid(`the routing map's route ${JSON.stringify(key)} leads to ${describe(target)}, which is not a node. Map it to a node, an agent, a tool or a function.`);
  }
  return entries as Array<[string, ChainElement]>;
}

function elementNodes(element: ChainElement): NodeLike[] {
  if (isRoutingMap(element)) return Object.values(element).flatMap((target) => (Array.isArray(target) ? [...target] : [target as NodeLike]));
  if (Array.isArray(element)) return [...(element as NodeLike[])];
  return [element as NodeLike];
}

/**
 * ADK's checks of a graph, each refused with `INVALID_WORKFLOW`: unique names, START present, no route from START,
 * every node reachable, nothing into START, no edge twice, one `DEFAULT_ROUTE` per node and never in a list, no
 * cycle of unconditional edges. Returns the terminal nodes' names.
 */
function validateGraph(nodes: readonly BaseNode[], edges: readonly GraphEdge[]): ReadonlySet<string> {
  const names = new Map<string, number>();
  for (const node of nodes) names.set(node.name, (names.get(node.name) ?? 0) + 1);
  const duplicates = [...names].filter(([, count]) => count > 1).map(([name]) => name).sort();
  if (duplicates.length > 0) throw invalid(`two different nodes are named ${JSON.stringify(duplicates)}. Pass the same node object to reuse a node, or give distinct nodes distinct names.`);
  if (!names.has(START.name)) throw invalid("no edge starts at START. Begin a chain with START (or \"START\").");
  const adjacent = new Map<string, Set<string>>([...names.keys()].map((name) => [name, new Set<string>()]));
  const seenEdges = new Set<string>();
  const defaults = new Map<string, string>();
  for (const edge of edges) {
    const from = edge.fromNode.name;
    const to = edge.toNode.name;
    if (to === START.name) throw invalid(`an edge leads into START (from "${from}"). START only begins edges.`);
    if (from === START.name && edge.route !== null) throw invalid(`the edge from START to "${to}" has a route (${JSON.stringify(edge.route)}). Edges from START take no route.`);
    adjacent.get(from)!.add(to);
    const routes = edge.route === null ? [null] : (Array.isArray(edge.route) ? edge.route : [edge.route]).map(String);
    if (Array.isArray(edge.route) && edge.route.includes(DEFAULT_ROUTE)) throw invalid(`the edge from "${from}" to "${to}" lists DEFAULT_ROUTE with other routes. Give DEFAULT_ROUTE an edge of its own.`);
    for (const route of routes) {
      const key = JSON.stringify([from, to, route]);
      if (seenEdges.has(key)) throw invalid(`the edge from "${from}" to "${to}"${route === null ? "" : ` with route ${JSON.stringify(route)}`} is given twice, so "${to}" would run twice. Give it once.`);
      seenEdges.add(key);
    }
    if (edge.route === DEFAULT_ROUTE) {
      if (defaults.has(from)) throw invalid(`"${from}" has two DEFAULT_ROUTE edges (to "${defaults.get(from)}" and "${to}"). Give it one.`);
      defaults.set(from, to);
    }
  }
  const reachable = new Set<string>();
  const stack = [START.name];
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (reachable.has(name)) continue;
    reachable.add(name);
    stack.push(...adjacent.get(name)!);
  }
  const unreachable = [...names.keys()].filter((name) => !reachable.has(name)).sort();
  if (unreachable.length > 0) throw invalid(`${JSON.stringify(unreachable)} cannot be reached from START. Connect them, or leave them out.`);
  const cycle = unconditionalCycle(names.keys(), edges);
  if (cycle) throw invalid(`the unconditional edges ${cycle.join(" -> ")} make a cycle with no way out. Give one of them a route, so a node can leave the cycle by not taking it.`);
  const sources = new Set(edges.map((edge) => edge.fromNode.name));
  return new Set(nodes.filter((node) => node !== START && !sources.has(node.name)).map((node) => node.name));
}

function unconditionalCycle(names: Iterable<string>, edges: readonly GraphEdge[]): string[] | undefined {
  const next = new Map<string, string[]>();
  for (const edge of edges) if (edge.route === null) next.set(edge.fromNode.name, [...(next.get(edge.fromNode.name) ?? []), edge.toNode.name]);
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (name: string): string[] | undefined => {
    path.push(name);
    for (const to of next.get(name) ?? []) {
      const at = path.indexOf(to);
      if (at >= 0) return [...path.slice(at), to];
      if (!done.has(to)) {
        const found = visit(to);
        if (found) return found;
      }
    }
    path.pop();
    done.add(name);
    return undefined;
  };
  for (const name of names) {
    if (done.has(name)) continue;
    const found = visit(name);
    if (found) return found;
  }
  return undefined;
}

function invalid(problem: string): ConfigurationError {
  return new ConfigurationError("INVALID_WORKFLOW", `The workflow's graph is invalid: ${problem}`);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return (value as object).constructor?.name ?? "an object";
  return typeof value;
}
