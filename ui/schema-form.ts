import type { JsonSchema } from "./api.js";
import { h } from "./dom.js";

/** A form for a JSON Schema object, and how to read the arguments back from it. */
export interface SchemaForm {
  element: HTMLElement;
  /** The arguments entered, or an error message naming the field to fix. */
  read(): { args: Record<string, unknown> } | { error: string };
}

/**
 * Builds inputs for each property of an object schema: text (a list for an
 * `enum`), number, checkbox, and JSON text for objects, arrays and anything
 * else. Required fields are marked.
 */
export function schemaForm(schema: JsonSchema | undefined, idPrefix: string): SchemaForm {
  const properties = Object.entries(schema?.properties ?? {});
  const required = new Set(schema?.required ?? []);
  const readers: (() => { value?: unknown; error?: string; skip?: boolean })[] = [];
  const rows = properties.map(([name, property]) => {
    const id = `${idPrefix}-${name}`;
    const type = Array.isArray(property.type) ? property.type.find((entry) => entry !== "null") : property.type;
    let input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    if (property.enum) {
      input = h("select", { id, name }, required.has(name) ? null : h("option", { value: "" }, "—"), property.enum.map((option) => h("option", { value: JSON.stringify(option) }, String(option))));
      readers.push(() => (input.value === "" ? { skip: true } : { value: JSON.parse(input.value) }));
    } else if (type === "boolean") {
      const checkbox = h("input", { id, name, type: "checkbox", checked: property.default === true });
      input = checkbox;
      readers.push(() => ({ value: checkbox.checked }));
    } else if (type === "number" || type === "integer") {
      input = h("input", { id, name, type: "number", step: type === "integer" ? "1" : "any", value: typeof property.default === "number" ? property.default : undefined });
      readers.push(() => (input.value === "" ? { skip: true } : { value: Number(input.value) }));
    } else if (type === "string") {
      input = h("input", { id, name, type: "text", value: typeof property.default === "string" ? property.default : undefined });
      readers.push(() => (input.value === "" && !required.has(name) ? { skip: true } : { value: input.value }));
    } else {
      input = h("textarea", { id, name, rows: 3, placeholder: type === "array" ? "[ ]" : "{ }" });
      readers.push(() => {
        if (input.value.trim() === "") return { skip: true };
        try {
          return { value: JSON.parse(input.value) };
        } catch {
          return { error: `"${name}" must be JSON.` };
        }
      });
    }
    return h(
      "div",
      { class: "field" },
      h("label", { for: id }, name, required.has(name) ? h("span", { class: "required", title: "required" }, " *") : null, h("span", { class: "type" }, ` ${type ?? "any"}`)),
      input,
      property.description ? h("div", { class: "hint" }, property.description) : null,
    );
  });
  const element = h("div", { class: "schema-form" }, rows.length ? rows : h("div", { class: "hint" }, "This tool takes no arguments."));
  return {
    element,
    read() {
      const args: Record<string, unknown> = {};
      for (const [index, [name]] of properties.entries()) {
        const result = readers[index]!();
        if (result.error) return { error: result.error };
        if (!result.skip) args[name] = result.value;
      }
      return { args };
    },
  };
}
