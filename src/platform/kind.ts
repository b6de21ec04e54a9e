/**
 * Kinds of toolsmith's classes that hold across copies of toolsmith. A program can load two: a globally installed
 * `toolsmith` command serving agents whose `import "toolsmith"` finds the project's own, or a bundler that inlined one.
 * Each copy's `LlmAgent` is another class, so `instanceof` says no to the other copy's agents, plugins and tools; the
 * kind, a mark on the class's prototype under a registry symbol (`Symbol.for`), is the same in every copy.
 */
export type Kind = "BaseAgent" | "LlmAgent" | "SequentialAgent" | "ParallelAgent" | "LoopAgent" | "BaseTool" | "FunctionTool" | "AgentTool" | "BaseToolset" | "BasePlugin";

// A class of any constructor signature, abstract ones included.
type AnyClass = abstract new (...args: never[]) => unknown;

function kindSymbol(kind: Kind): symbol {
  return Symbol.for(`toolsmith.kind.${kind}`);
}

/** Marks the instances of `constructor` (and of its subclasses) as of `kind`. */
export function markKind(constructor: AnyClass, kind: Kind): void {
  Object.defineProperty(constructor.prototype, kindSymbol(kind), { value: true });
}

/** Whether `value` is an instance of `constructor`, or of the class of the same kind in another copy of toolsmith. */
export function isOfKind<T>(value: unknown, constructor: abstract new (...args: never[]) => T, kind: Kind): value is T {
  return value instanceof constructor || (typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[kindSymbol(kind)] === true);
}
