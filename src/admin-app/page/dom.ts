/**
 * Building the page's elements: text only through `textContent` (never HTML from data), so
 * nothing a recipient's name or the service's answer holds can run as markup.
 */
type Child = Node | string | number | undefined | false;

/** Attributes by name, and `on`: listeners by event name. */
type Attributes = {
  [name: string]: string | number | boolean | undefined | Record<string, (event: Event) => void>;
  on?: Record<string, (event: Event) => void>;
};

/** An element with attributes (`on…` keys are listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  const { on, ...rest } = attributes;
  for (const [name, value] of Object.entries(rest)) {
    if (value === undefined || value === false || typeof value === "object") continue;
    if (name === "className") element.className = String(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const [event, listener] of Object.entries(on ?? {})) {
    element.addEventListener(event, listener);
  }
  for (const child of children) {
    if (child === undefined || child === false) continue;
    element.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return element;
}

/** Replaces what `parent` shows. */
export function show(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(
    ...children
      .filter((c): c is Node | string | number => c !== undefined && c !== false)
      .map((c) => (typeof c === "number" ? String(c) : c)),
  );
}
