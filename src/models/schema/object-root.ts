import type { JsonSchema } from "../function-declaration.js";
import type { SchemaFinding } from "./schema-finding.js";
import { asSchema, derefShallow, isObject, typeList } from "./schema-node.js";

/**
 * The root of a tool's parameters as one `type: "object"` schema, which every
 * provider requires. A root `anyOf`/`oneOf` of objects (a zod union of
 * objects, say) becomes one object with every branch's properties and only the
 * fields all branches require; `$defs` stay at the root.
 */
export function objectRoot(schema: JsonSchema, findings: SchemaFinding[]): JsonSchema {
  const { $schema: _dialect, ...root } = derefShallow(schema, schema);
  const alternatives = (root.anyOf ?? root.oneOf) as unknown;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    const keyword = root.anyOf ? "anyOf" : "oneOf";
    const branches = alternatives.map((branch) => derefShallow(asSchema(branch), schema));
    const properties: Record<string, unknown> = { ...(isObject(root.properties) ? root.properties : {}) };
    let required: string[] | undefined;
    for (const branch of branches) {
      if (isObject(branch.properties)) for (const [name, property] of Object.entries(branch.properties)) properties[name] ??= property;
      const branchRequired = Array.isArray(branch.required) ? (branch.required as string[]) : [];
      required = required === undefined ? branchRequired : required.filter((name) => branchRequired.includes(name));
    }
    const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = root;
    findings.push({
      path: "",
      keyword,
      effect: "rejected",
      message: `providers require the parameters to be one object, not a ${keyword} at the root: the ${branches.length} alternatives were merged into one object whose fields are optional unless every alternative requires them`,
    });
    return { ...rest, type: "object", properties, ...(required?.length ? { required } : {}) };
  }
  const types = typeList(root);
  if (types.length === 0) return { ...root, type: "object", ...(root.properties === undefined ? { properties: {} } : {}) };
  if (types.length !== 1 || types[0] !== "object") {
    findings.push({ path: "", keyword: "type", effect: "rejected", message: `tool parameters must be an object, not ${JSON.stringify(root.type)}: the tool was declared without parameters` });
    return { type: "object", properties: {} };
  }
  return root;
}
