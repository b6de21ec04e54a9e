/**
 * Valid arguments for a JSON Schema, made from the schema itself: `minimal`
 * fills only required fields, `full` every field (to a bounded depth).
 */
type Schema = Record<string, any>;

export function sampleArguments(schema: Schema, mode: "minimal" | "full"): Record<string, unknown> {
  return sample(schema, schema, mode, 0) as Record<string, unknown>;
}

function deref(schema: Schema, root: Schema): Schema {
  let current = schema;
  for (let hops = 0; hops < 16 && typeof current?.$ref === "string"; hops++) {
    const path = current.$ref === "#" ? [] : current.$ref.slice(2).split("/");
    let target: any = root;
    for (const segment of path) target = target?.[segment];
    const { $ref: _ref, ...rest } = current;
    current = { ...target, ...rest };
  }
  return current ?? {};
}

function sample(node: unknown, root: Schema, mode: "minimal" | "full", depth: number): unknown {
  const schema = deref(node === true || node === undefined ? {} : (node as Schema), root);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((value: unknown) => value !== null) ?? null;
  if (schema.default !== undefined && mode === "minimal") return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    const branch = branches.find((entry: Schema) => deref(entry, root).type !== "null") ?? branches[0];
    const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = schema;
    return sample({ ...rest, ...deref(branch, root) }, root, mode, depth);
  }
  if (Array.isArray(schema.allOf)) {
    const merged: Schema = { ...schema, allOf: undefined, properties: { ...schema.properties }, required: [...(schema.required ?? [])] };
    for (const part of schema.allOf) {
      const resolved = deref(part, root);
      Object.assign(merged.properties, resolved.properties);
      merged.required.push(...(resolved.required ?? []));
      merged.type ??= resolved.type;
    }
    delete merged.allOf;
    return sample(merged, root, mode, depth);
  }
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ["object"] : schema.items ? ["array"] : ["string"];
  const type = types.find((entry) => entry !== "null") ?? "null";
  switch (type) {
    case "null":
      return null;
    case "boolean":
      return true;
    case "integer":
    case "number": {
      const minimum = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
      return minimum ?? (schema.maximum !== undefined ? Math.min(1, schema.maximum) : 1);
    }
    case "string":
      return sampleString(schema);
    case "array": {
      const count = Math.max(schema.minItems ?? 0, mode === "full" && depth < 4 ? 1 : 0);
      return Array.from({ length: count }, () => sample(schema.items ?? {}, root, mode, depth + 1));
    }
    default: {
      const required = new Set<string>(schema.required ?? []);
      const result: Record<string, unknown> = {};
      for (const [name, property] of Object.entries<Schema>(schema.properties ?? {})) {
        if (required.has(name) || (mode === "full" && depth < 4)) result[name] = sample(property, root, depth < 4 ? mode : "minimal", depth + 1);
      }
      return result;
    }
  }
}

function sampleString(schema: Schema): string {
  const byFormat: Record<string, string> = { "date-time": "2024-05-01T12:00:00Z", date: "2024-05-01", time: "12:00:00Z", email: "ada@example.com", uri: "https://example.com/a", url: "https://example.com/a", uuid: "123e4567-e89b-12d3-a456-426614174000", hostname: "example.com", ipv4: "127.0.0.1" };
  const base = byFormat[schema.format] ?? "sample";
  return base.padEnd(schema.minLength ?? 0, "x").slice(0, schema.maxLength ?? Number.POSITIVE_INFINITY);
}

/**
 * The arguments as a model sends them when it spells out every field: each
 * absent optional field becomes null (OpenAI strict mode requires this). With
 * `onlyWhereNullAccepted`, only fields whose schema accepts null are filled,
 * which is the value those arguments should validate to.
 */
export function fillNulls(value: unknown, schema: Schema, options: { onlyWhereNullAccepted?: boolean; everyField?: boolean }): unknown {
  return fill(value, schema, schema, options.onlyWhereNullAccepted ?? false, 0, options.everyField ?? false);
}

function fill(value: unknown, node: unknown, root: Schema, onlyNullable: boolean, depth: number, everyField = false): unknown {
  const schema = deref(node === true || node === undefined ? {} : (node as Schema), root);
  if (depth > 32) return value;
  if (Array.isArray(value)) return schema.items ? value.map((item) => fill(item, schema.items, root, onlyNullable, depth + 1, everyField)) : value;
  if (typeof value !== "object" || value === null) return value;
  const branches: Schema[] = (schema.anyOf ?? schema.oneOf ?? []).map((branch: Schema) => deref(branch, root));
  const shape = branches.find((branch) => branch.properties && Object.keys(value).every((key) => key in branch.properties)) ?? schema;
  const properties: Record<string, Schema> = { ...(schema.properties ?? {}), ...(shape.properties ?? {}) };
  const required = new Set<string>([...(schema.required ?? []), ...(shape.required ?? [])]);
  const result: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (name in value) result[name] = fill((value as Record<string, unknown>)[name], property, root, onlyNullable, depth + 1, everyField);
    else if (everyField || !required.has(name) && (!onlyNullable || acceptsNull(property, root, 0))) result[name] = null;
  }
  for (const [name, field] of Object.entries(value)) if (!(name in properties)) result[name] = field;
  return result;
}

function acceptsNull(node: unknown, root: Schema, depth: number): boolean {
  if (node === true) return true;
  const schema = deref(node as Schema, root);
  if (depth > 16) return true;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  if (schema.const !== undefined) return schema.const === null;
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return branches.some((branch: Schema) => acceptsNull(branch, root, depth + 1));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return types.length === 0 ? !schema.properties && !schema.items : types.includes("null");
}

/** Gemini's schema read back as JSON Schema, to check that what the model may send under it is accepted. */
export function geminiToJsonSchema(schema: Schema): Schema {
  const result: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "type") result.type = String(value).toLowerCase();
    else if (key === "properties") result.properties = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([name, property]) => [name, geminiToJsonSchema(property)]));
    else if (key === "items") result.items = geminiToJsonSchema(value as Schema);
    else if (key === "anyOf") result.anyOf = (value as Schema[]).map(geminiToJsonSchema);
    else if (key === "nullable" || key === "format" || key === "example") continue;
    else result[key] = value;
  }
  if (schema.enum && schema.nullable) result.enum = [...schema.enum, null];
  return schema.nullable ? { anyOf: [result, { type: "null" }] } : result;
}
