/** Attributes and event handlers of an element made by {@link h}. */
export type Props = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;
type Child = Node | string | number | false | null | undefined | Child[];

/** Makes an element: `h("button", { onclick: save, class: "primary" }, "Save")`. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.slice(2), value as EventListener);
    else if (name === "value" && "value" in element) (element as HTMLInputElement).value = String(value);
    else if (name === "checked" && element instanceof HTMLInputElement) element.checked = value === true;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.textContent = "";
  append(parent, children);
}

/** JSON for people: indented, in a `<pre>`. */
export function json(value: unknown): HTMLPreElement {
  return h("pre", { class: "json" }, JSON.stringify(value, null, 2));
}
