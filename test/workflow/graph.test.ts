import { describe, expect, it } from "vitest";
import { DEFAULT_ROUTE, Edge, FunctionNode, FunctionTool, Graph, JoinNode, node, START, ToolsmithError, Workflow, type BaseNode, type EdgeItem, type NodeContext, type NodeLike, type RouteValue } from "toolsmith";

type Handler = (ctx: NodeContext, input: unknown) => unknown;

/** A function node's handler with a real name (the node takes the function's name). */
function step(name: string): Handler {
  const handlers: Record<string, Handler> = { [name]: (_ctx, input) => `${name}(${String(input)})` };
  return handlers[name]!;
}

/** Handlers named as given, one per name. */
function steps<const N extends readonly string[]>(...names: N): { [K in keyof N]: Handler } {
  return names.map(step) as { [K in keyof N]: Handler };
}

/** Function nodes named as given, one per name. */
function nodes<const N extends readonly string[]>(...names: N): { [K in keyof N]: BaseNode } {
  return names.map((name) => node(step(name))) as { [K in keyof N]: BaseNode };
}

/** An explicit Edge between any two node-likes (a string, a function, a node, an agent), as ADK's takes them. */
const edge = (from: NodeLike, to: NodeLike, route: RouteValue | RouteValue[] | null = null) => new Edge(from, to, route);

const graphOf = (edges: EdgeItem[]): Graph => new Workflow({ name: "wf", edges }).graph!;

/** Each edge as `from -route-> to`, in the graph's order. */
const edgesOf = (graph: Graph) => graph.edges.map((edge) => `${edge.fromNode.name} -${edge.route === null ? "" : JSON.stringify(edge.route)}-> ${edge.toNode.name}`);

/** What building a workflow from `edges` throws: its class, code and message. */
function refusal(edges: unknown[]): { code: string; message: string } {
  try {
    new Workflow({ name: "wf", edges: edges as EdgeItem[] });
  } catch (error) {
    expect(error).toBeInstanceOf(ToolsmithError);
    return { code: (error as ToolsmithError).code, message: (error as Error).message };
  }
  throw new Error("The workflow was built; a refusal was expected.");
}

const invalid = (problem: string) => ({ code: "INVALID_WORKFLOW", message: `The workflow's graph is invalid: ${problem}` });

describe("reading edge items", () => {
  it("reads a chain as one unconditional edge per neighbouring pair, START first", () => {
    const [a, b, c] = [step("a"), step("b"), step("c")];
    const graph = graphOf([["START", a, b, c]]);
    expect(edgesOf(graph)).toEqual(["__START__ --> a", "a --> b", "b --> c"]);
    expect(graph.nodes.map((each) => each.name)).toEqual(["__START__", "a", "b", "c"]);
    expect(graph.nodes[0]).toBe(START);
  });

  it("reads an array in a chain as a fan-out from each source to each target", () => {
    const [a, b, c, d, e] = steps("a", "b", "c", "d", "e");
    const graph = graphOf([["START", a, [b, c], [d, e]]]);
    expect(edgesOf(graph)).toEqual(["__START__ --> a", "a --> b", "a --> c", "b --> d", "b --> e", "c --> d", "c --> e"]);
  });

  it("reads a routing map's keys as routes: digits become numbers, true/false booleans, anything else stays text", () => {
    const [a, one, minus, yes, no, text, padded, decimal] = steps("a", "one", "minus", "yes", "no", "text", "padded", "decimal");
    const graph = graphOf([["START", a, { "1": one, "-2": minus, true: yes, false: no, maybe: text, "007": padded, "1.5": decimal }]]);
    const routes = Object.fromEntries(graph.edges.filter((edge) => edge.fromNode.name === "a").map((edge) => [edge.toNode.name, edge.route]));
    expect(routes).toEqual({ one: 1, minus: -2, yes: true, no: false, text: "maybe", padded: 7, decimal: "1.5" });
    expect(typeof routes.one).toBe("number");
    expect(typeof routes.yes).toBe("boolean");
  });

  it("reads a routing map target that is an array as one routed edge to each node, and routes from every source of a fan-out", () => {
    const [a, b, c, d] = steps("a", "b", "c", "d");
    const graph = graphOf([["START", [a, b], { go: [c, d] }]]);
    expect(edgesOf(graph)).toEqual(["__START__ --> a", "__START__ --> b", 'a -"go"-> c', 'a -"go"-> d', 'b -"go"-> c', 'b -"go"-> d']);
  });

  it("takes explicit Edge objects as they are, with single, listed and DEFAULT routes", () => {
    const [a, b, c, d] = nodes("a", "b", "c", "d");
    const graph = graphOf([edge("START", a), new Edge(a, b, "x"), new Edge(a, c, ["y", 2]), new Edge(a, d, DEFAULT_ROUTE)]);
    expect(edgesOf(graph)).toEqual(["__START__ --> a", 'a -"x"-> b', 'a -["y",2]-> c', 'a -"__DEFAULT__"-> d']);
  });

  it("makes one node of a function object used in several edge items, and of an Edge's node used again in a chain", () => {
    const [a, b, c] = [step("a"), step("b"), step("c")];
    const graph = graphOf([["START", a, b], [a, c]]);
    expect(graph.nodes.map((each) => each.name)).toEqual(["__START__", "a", "b", "c"]);
    const shared = node(step("s"));
    const other = node(step("o"));
    const mixed = graphOf([edge("START", shared), [shared, other]]);
    expect(mixed.nodes.map((each) => each.name)).toEqual(["__START__", "s", "o"]);
  });

  // ADK builds the nodes of an explicit Edge in parseEdgeItems, cached by the function object, so
  // `[new Edge("START", f), new Edge(f, g)]` has one node f (checked on @google/adk 2.0.0: nodes __START__, f, g).
  it("makes one node of a function object given to several explicit Edge objects, as ADK does", () => {
    const [f, g] = [step("f"), step("g")];
    const graph = graphOf([edge("START", f), new Edge(f, g)]);
    expect(graph.nodes.map((each) => each.name)).toEqual(["__START__", "f", "g"]);
  });

  it("makes one node of a function object given to a chain and to an explicit Edge, as ADK does", () => {
    const [f, g] = [step("f"), step("g")];
    const graph = graphOf([["START", f], new Edge(f, g)]);
    expect(graph.nodes.map((each) => each.name)).toEqual(["__START__", "f", "g"]);
  });

  it("takes the string \"START\" and the START node as the same node", () => {
    const [a, b] = [step("a"), step("b")];
    const graph = graphOf([["START", a], [START, b], edge("START", step("c"))]);
    expect(graph.nodes.filter((each) => each.name === "__START__")).toEqual([START]);
    expect(graph.getNextPendingNodes("__START__", null)).toEqual(["a", "b", "c"]);
  });

  it("takes hostile node names and route keys (prototype members) as plain names", () => {
    const names = ["constructor", "toString", "hasOwnProperty", "__proto__", "valueOf"];
    const hub = step("hub");
    const targets = names.map(step);
    const map: Record<string, unknown> = {};
    for (const [index, name] of names.entries()) Object.defineProperty(map, name, { value: targets[index], enumerable: true });
    const graph = graphOf([["START", hub, map as never]]);
    expect(graph.nodes.map((each) => each.name)).toEqual(["__START__", "hub", ...names]);
    expect(graph.getNextPendingNodes("hub", "__proto__")).toEqual(["__proto__"]);
    expect(graph.getNextPendingNodes("hub", ["constructor", "valueOf"])).toEqual(["constructor", "valueOf"]);
    expect(graph.getNextPendingNodes("hub", "nothing")).toEqual([]);
    expect([...graph.terminalNodeNames].sort()).toEqual([...names].sort());
  });
});

describe("refusing invalid graphs, with the message a user sees (INVALID_WORKFLOW)", () => {
  const [a, b, c] = [step("a"), step("b"), step("c")];

  it("refuses two different nodes with one name", () => {
    const twin = step("a");
    expect(refusal([["START", a, twin]])).toEqual(invalid('two different nodes are named ["a"]. Pass the same node object to reuse a node, or give distinct nodes distinct names.'));
    // node() makes a new node each call: two calls are two nodes.
    expect(refusal([["START", node(b), node(b)]])).toEqual(invalid('two different nodes are named ["b"]. Pass the same node object to reuse a node, or give distinct nodes distinct names.'));
    // A node of its own named like START clashes with START.
    expect(refusal([["START", node(a, { name: "__START__" })]])).toEqual(invalid('two different nodes are named ["__START__"]. Pass the same node object to reuse a node, or give distinct nodes distinct names.'));
  });

  it("refuses a graph no edge of which starts at START", () => {
    expect(refusal([[a, b, c]])).toEqual(invalid('no edge starts at START. Begin a chain with START (or "START").'));
  });

  it("refuses a route on an edge from START, from a routing map or an Edge", () => {
    expect(refusal([["START", { go: a }]])).toEqual(invalid('the edge from START to "a" has a route ("go"). Edges from START take no route.'));
    expect(refusal([edge("START", node(a), [1, "x"])])).toEqual(invalid('the edge from START to "a" has a route ([1,"x"]). Edges from START take no route.'));
  });

  it("refuses an edge into START", () => {
    expect(refusal([["START", a, "START"]])).toEqual(invalid('an edge leads into START (from "a"). START only begins edges.'));
  });

  it("refuses nodes START cannot reach, naming them sorted", () => {
    expect(refusal([["START", a], [c, b]])).toEqual(invalid('["b","c"] cannot be reached from START. Connect them, or leave them out.'));
  });

  it("refuses an edge given twice, unconditional or with the same route (routes compared as text)", () => {
    expect(refusal([["START", a, b], [a, b]])).toEqual(invalid('the edge from "a" to "b" is given twice, so "b" would run twice. Give it once.'));
    const [na, nb] = [node(a), node(b)];
    expect(refusal([["START", na, { 1: nb }], new Edge(na, nb, ["x", "1"])])).toEqual(invalid('the edge from "a" to "b" with route "1" is given twice, so "b" would run twice. Give it once.'));
  });

  it("refuses DEFAULT_ROUTE listed with other routes", () => {
    const [na, nb] = [node(a), node(b)];
    expect(refusal([["START", na], new Edge(na, nb, ["x", DEFAULT_ROUTE])])).toEqual(invalid('the edge from "a" to "b" lists DEFAULT_ROUTE with other routes. Give DEFAULT_ROUTE an edge of its own.'));
  });

  it("refuses two DEFAULT_ROUTE edges from one node", () => {
    expect(refusal([["START", a, { [DEFAULT_ROUTE]: b }], [a, { [DEFAULT_ROUTE]: c }]])).toEqual(invalid('"a" has two DEFAULT_ROUTE edges (to "b" and "c"). Give it one.'));
  });

  it("refuses a cycle of unconditional edges, naming it, and takes one with a routed edge", () => {
    expect(refusal([["START", a, b, c, a]])).toEqual(invalid("the unconditional edges a -> b -> c -> a make a cycle with no way out. Give one of them a route, so a node can leave the cycle by not taking it."));
    expect(refusal([["START", a, a]])).toEqual(invalid("the unconditional edges a -> a make a cycle with no way out. Give one of them a route, so a node can leave the cycle by not taking it."));
    expect(edgesOf(graphOf([["START", a, b, { again: a, done: c }]]))).toEqual(["__START__ --> a", "a --> b", 'b -"again"-> a', 'b -"done"-> c']);
  });

  it("refuses an empty routing map", () => {
    expect(refusal([["START", a, {}]])).toEqual(invalid("a routing map is empty. Map at least one route to a node."));
  });

  it("refuses a routing map value that is not a node, naming the route and what it found", () => {
    // The advice after "which is not a node." is left out here: see the test of a tool in a routing map.
    const found = (value: unknown) => {
      const { code, message } = refusal([["START", a, { go: value }]]);
      return [code, message.slice(0, message.indexOf(" which is not a node.") + " which is not a node.".length)];
    };
    expect(found(42)).toEqual(["INVALID_WORKFLOW", 'The workflow\'s graph is invalid: the routing map\'s route "go" leads to number, which is not a node.']);
    expect(found([])).toEqual(["INVALID_WORKFLOW", 'The workflow\'s graph is invalid: the routing map\'s route "go" leads to Array, which is not a node.']);
    expect(found([b, null])).toEqual(["INVALID_WORKFLOW", 'The workflow\'s graph is invalid: the routing map\'s route "go" leads to Array, which is not a node.']);
    expect(found(null)).toEqual(["INVALID_WORKFLOW", 'The workflow\'s graph is invalid: the routing map\'s route "go" leads to null, which is not a node.']);
    expect(found("b")).toEqual(["INVALID_WORKFLOW", 'The workflow\'s graph is invalid: the routing map\'s route "go" leads to string, which is not a node.']);
  });

  // build-node.ts: "tools are not nodes here"; a tool put in an edge is refused with "A tool runs as a node inside
  // a function node". The routing map's refusal should not send the user to map the route to a tool.
  it("takes a tool in a routing map as a node (a ToolNode named after the tool), and refuses a plain value there", () => {
    const tool = new FunctionTool({ name: "lookup", description: "Looks up.", parameters: { type: "object", properties: {} }, execute: () => ({}) });
    expect(graphOf([["START", a, { go: tool }]]).nodes.map((node) => `${node.constructor.name} ${node.name}`)).toEqual(["StartNode __START__", "FunctionNode a", "ToolNode lookup"]);
    const { code, message } = refusal([["START", a, { go: 7 as never }]]);
    expect(code).toBe("INVALID_WORKFLOW");
    expect(message).toBe('The workflow\'s graph is invalid: the routing map\'s route "go" leads to number, which is not a node. Map it to a node, an agent, a tool or a function.');
  });

  it("refuses a plain value where a chain wants a node, naming what it takes", () => {
    expect(refusal([["START", 7]])).toEqual({ code: "INVALID_WORKFLOW", message: "A number cannot be a node: give a node, an agent, a tool or a function." });
  });

  it("refuses a function without a name", () => {
    expect(refusal([["START", [(() => 1) as never][0]]])).toEqual({ code: "INVALID_WORKFLOW", message: "node(): the function has no name. Pass { name } with it." });
  });

  it("refuses two routing maps in a row", () => {
    expect(refusal([["START", a, { x: b }, { y: c }]])).toEqual(invalid("two routing maps follow each other in a chain. Split them into separate edge items."));
  });

  it("refuses an edge item that is neither an Edge nor an array", () => {
    expect(refusal([a])).toEqual(invalid("an edge item must be an Edge or an array (a chain), not function."));
    expect(refusal(["START"])).toEqual(invalid("an edge item must be an Edge or an array (a chain), not string."));
    expect(refusal([null])).toEqual(invalid("an edge item must be an Edge or an array (a chain), not null."));
    expect(refusal([{ fromNode: a, toNode: b }])).toEqual(invalid("an edge item must be an Edge or an array (a chain), not Object."));
  });

  it("refuses a workflow with both edges and dynamicEntry, with neither, or with a maxConcurrency that is not a positive integer", () => {
    const made = (config: unknown) => {
      try {
        new Workflow(config as never);
      } catch (error) {
        return [(error as ToolsmithError).code, (error as Error).message];
      }
      return "built";
    };
    expect(made({ name: "wf", edges: [["START", a]], dynamicEntry: () => 1 })).toEqual(["INVALID_WORKFLOW", 'Workflow "wf": edges and dynamicEntry cannot go together. Give one.']);
    expect(made({ name: "wf" })).toEqual(["INVALID_WORKFLOW", 'Workflow "wf" needs edges (a graph) or a dynamicEntry (a function). Give one.']);
    expect(made({ name: "wf", edges: [] })).toEqual(["INVALID_WORKFLOW", 'Workflow "wf" needs edges (a graph) or a dynamicEntry (a function). Give one.']);
    for (const bad of [0, -1, 1.5, "2", Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(made({ name: "wf", edges: [["START", a]], maxConcurrency: bad })).toEqual(["INVALID_WORKFLOW", `Workflow "wf": maxConcurrency must be a positive integer, not ${JSON.stringify(bad)}.`]);
    }
    expect(made({ name: "wf", edges: [["START", a]], maxConcurrency: 1 })).toBe("built");
  });

  it("refuses a node without a usable name", () => {
    for (const name of ["", "   ", undefined, 5]) {
      expect(() => new FunctionNode(name as never, () => 1)).toThrow(expect.objectContaining({ code: "INVALID_WORKFLOW", message: `A node's name must be a non-empty string, not ${JSON.stringify(name)}. Give the node a name.` }));
    }
    expect(new FunctionNode("  padded  ", () => 1).name).toBe("padded");
  });
});

describe("getNextPendingNodes: which nodes a route leads to", () => {
  const [a, one, x, yes, fallback, always, listed, listedTwo] = nodes("a", "one", "x", "yes", "fallback", "always", "listed", "listedTwo");
  const graph = new Graph([
    new Edge(START, a!),
    new Edge(a, one, 1),
    new Edge(a, x, "x"),
    new Edge(a, yes, true),
    new Edge(a, fallback, DEFAULT_ROUTE),
    new Edge(a, always),
    new Edge(a, listed, ["p", 2]),
    new Edge(a, listedTwo, [false, "q"]),
  ]);

  it("takes every unconditional edge, whatever the route", () => {
    for (const route of [null, undefined, "x", 1, [], ["x", 1]]) expect(graph.getNextPendingNodes("a", route as never)).toContain("always");
  });

  it("matches routes as text: a number matches its digits, a boolean its word", () => {
    expect(graph.getNextPendingNodes("a", 1)).toEqual(["one", "always"]);
    expect(graph.getNextPendingNodes("a", "1")).toEqual(["one", "always"]);
    expect(graph.getNextPendingNodes("a", true)).toEqual(["yes", "always"]);
    expect(graph.getNextPendingNodes("a", "true")).toEqual(["yes", "always"]);
    expect(graph.getNextPendingNodes("a", "2")).toEqual(["always", "listed"]);
    expect(graph.getNextPendingNodes("a", false)).toEqual(["always", "listedTwo"]);
    expect(graph.getNextPendingNodes("a", "X")).toEqual(["always", "fallback"]);
  });

  it("takes every edge one of several routes matches, in edge order", () => {
    expect(graph.getNextPendingNodes("a", ["x", 1])).toEqual(["one", "x", "always"]);
    expect(graph.getNextPendingNodes("a", ["q", "p", "nothing"])).toEqual(["always", "listed", "listedTwo"]);
  });

  it("takes the DEFAULT_ROUTE edge only when no routed edge matched, last", () => {
    expect(graph.getNextPendingNodes("a", "nothing")).toEqual(["always", "fallback"]);
    expect(graph.getNextPendingNodes("a", null)).toEqual(["always", "fallback"]);
    expect(graph.getNextPendingNodes("a", undefined)).toEqual(["always", "fallback"]);
    expect(graph.getNextPendingNodes("a", [])).toEqual(["always", "fallback"]);
    // Emitting DEFAULT_ROUTE itself matches nothing, so the fallback runs.
    expect(graph.getNextPendingNodes("a", DEFAULT_ROUTE)).toEqual(["always", "fallback"]);
    expect(graph.getNextPendingNodes("a", [DEFAULT_ROUTE, "x"])).toEqual(["x", "always"]);
  });

  it("leads nowhere from a node without edges, or one not in the graph", () => {
    expect(graph.getNextPendingNodes("one", "x")).toEqual([]);
    expect(graph.getNextPendingNodes("nobody", null)).toEqual([]);
    expect(() => graph.node("nobody")).toThrow(expect.objectContaining({ code: "INVALID_WORKFLOW", message: 'Node "nobody" is not in the graph. Add an edge to it.' }));
  });

  it("names the predecessors of a node once each", () => {
    const [p, q] = nodes("p", "q");
    const j = new JoinNode({ name: "j" });
    const joined = new Graph([new Edge(START, p), new Edge(START, q), new Edge(p, j), new Edge(q, j, "r"), new Edge(q, j, "s")]);
    expect(joined.predecessorsOf("j")).toEqual(["p", "q"]);
    expect(joined.predecessorsOf("__START__")).toEqual([]);
  });
});

describe("terminalNodeNames", () => {
  it("names the nodes no edge leaves, routed or not, and never START", () => {
    const [a, b, c, d, e] = steps("a", "b", "c", "d", "e");
    expect([...graphOf([["START", a, [b, c]], [c, d]]).terminalNodeNames].sort()).toEqual(["b", "d"]);
    // A node whose only edges are routed is not terminal, even if it takes none of them.
    expect([...graphOf([["START", a, { go: b }]]).terminalNodeNames]).toEqual(["b"]);
    // A routed loop: the node that leaves it is the terminal one.
    expect([...graphOf([["START", a, { again: a, done: e }]]).terminalNodeNames]).toEqual(["e"]);
    expect([...graphOf([["START", a]]).terminalNodeNames]).toEqual(["a"]);
  });
});
