import { ToolsmithError } from "../errors/toolsmith-error.js";
import { State } from "../sessions/state.js";
import type { NodeSchema } from "./node-schema.js";

/**
 * A node wrote a state key its `stateSchema` does not declare, or a value of the wrong type (ADK's
 * `StateSchemaError`). The node fails with it: its workflow ends with the node's error event, code
 * `STATE_SCHEMA_MISMATCH`, and nothing it wrote is stored.
 */
export class StateSchemaError extends ToolsmithError {
  constructor(message: string) {
    super("STATE_SCHEMA_MISMATCH", message);
    this.name = "StateSchemaError";
  }
}

/** Whether an error is a {@link StateSchemaError} (by name, as ADK's check, so across copies of the package). */
export function isStateSchemaError(error: unknown): error is StateSchemaError {
  return error instanceof Error && error.name === "StateSchemaError";
}

/** A zod object schema's fields, each with its own check; undefined for a schema that is not an object. */
function fieldsOf(schema: NodeSchema): Readonly<Record<string, NodeSchema>> | undefined {
  const shape = (schema as { shape?: unknown }).shape;
  return typeof shape === "object" && shape !== null ? (shape as Record<string, NodeSchema>) : undefined;
}

/**
 * Checks one write against a node's state schema, as ADK does: a key with a prefix (`app:`, `user:`, `temp:`, any
 * `x:`) belongs to a wider scope and is not checked; any other key must be a field of the schema, its value of the
 * field's type.
 */
export function checkStateWrite(schema: NodeSchema | undefined, key: string, value: unknown): void {
  if (schema === undefined || key.includes(":")) return;
  const fields = fieldsOf(schema);
  if (!fields) return;
  const field = fields[key];
  if (!field) {
    throw new StateSchemaError(`Key '${key}' is not declared in the state schema. Declared fields: ${JSON.stringify(Object.keys(fields).sort())}. Declare it in the node's stateSchema, or give it a prefix (app:, user:, temp:) for a wider scope.`);
  }
  const parsed = field.safeParse(value);
  if (!parsed.success) {
    throw new StateSchemaError(`Value for '${key}' does not match the type declared in the state schema: ${(parsed as { error?: { message?: string } }).error?.message ?? "it does not match"}.`);
  }
}

/** Checks every key of a delta (an event a node yields with its own `stateDelta`). */
export function checkStateDelta(schema: NodeSchema | undefined, delta: Readonly<Record<string, unknown>>): void {
  if (schema === undefined) return;
  for (const [key, value] of Object.entries(delta)) checkStateWrite(schema, key, value);
}

/** A node's view of the state whose writes are checked against its `stateSchema` before they are recorded. */
export class SchemaCheckedState extends State {
  readonly #schema: NodeSchema;

  constructor(value: Readonly<Record<string, unknown>>, delta: Record<string, unknown>, schema: NodeSchema) {
    super(value, delta);
    this.#schema = schema;
  }

  override set(key: string, value: unknown): void {
    checkStateWrite(this.#schema, key, value);
    super.set(key, value);
  }
}
