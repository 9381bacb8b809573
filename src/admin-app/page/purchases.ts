/**
 * Every purchase, newest first: searched by person and recipient, filtered by status, kind and
 * date, a page at a time; a row opens its evidence.
 */
import {
  formatNumber,
  formatShortTime,
  giftText,
  type PageContext,
  text,
  textOf,
} from "./context.js";
import { h, show } from "./dom.js";
import type { PurchaseList } from "./types.js";

const STATUSES = [
  "unconfirmed",
  "succeeded",
  "delivered",
  "not_delivered",
  "rejected",
  "sending",
  "queued",
  "draft",
  "cancelled",
  "expired",
] as const;

/** Typing waits this long before the list is asked again. */
const TYPING_PAUSE_MS = 250;

export class PurchasesView {
  readonly element = h("section", { className: "purchases" });
  readonly #context: PageContext;
  readonly #fields;
  readonly #list = h("div", { className: "list", "data-field": "list" });
  #page = 0;
  #typing: number | undefined;
  /** Counts the list's loads, so only the latest one is drawn. */
  #loads = 0;

  constructor(context: PageContext) {
    this.#context = context;
    const c = context;
    const input = (name: string, label: string, type = "search") =>
      h("input", { name, type, placeholder: label, "aria-label": label, autocomplete: "off" });
    const select = (name: string, label: string, options: [string, string][]) =>
      h(
        "select",
        { name, "aria-label": label },
        h("option", { value: "" }, `${label}: ${text(c, "app-filter-any")}`),
        ...options.map(([value, shown]) => h("option", { value }, shown)),
      );
    this.#fields = {
      person: input("person", text(c, "app-search-person")),
      recipient: input("recipient", text(c, "app-search-recipient")),
      status: select(
        "status",
        text(c, "app-filter-status"),
        STATUSES.map((status) => [status, textOf(c, `status-${status}`, status)]),
      ),
      kind: select("kind", text(c, "app-filter-kind"), [
        ["stars", text(c, "app-kind-stars")],
        ["premium", text(c, "app-kind-premium")],
      ]),
      from: input("from", text(c, "app-filter-from"), "date"),
      to: input("to", text(c, "app-filter-to"), "date"),
    };
    const form = h(
      "form",
      { className: "filters", on: { submit: (event) => event.preventDefault() } },
      this.#fields.person,
      this.#fields.recipient,
      this.#fields.status,
      this.#fields.kind,
      h("label", {}, text(c, "app-filter-from"), this.#fields.from),
      h("label", {}, text(c, "app-filter-to"), this.#fields.to),
    );
    form.addEventListener("input", () => this.#typed());
    form.addEventListener("change", () => this.#typed());
    show(this.element, form, this.#list);
  }

  /** Loads the current page of the list as the filters say. */
  async load(): Promise<void> {
    const load = ++this.#loads;
    this.#list.setAttribute("aria-busy", "true");
    const query = new URLSearchParams();
    for (const [name, field] of Object.entries(this.#fields)) {
      if (field.value.trim() !== "") query.set(name, field.value.trim());
    }
    query.set("page", String(this.#page));
    const list = await this.#context.api.get<PurchaseList>("purchases", query);
    if (load !== this.#loads) return;
    this.#draw(list);
    this.#list.removeAttribute("aria-busy");
    this.#list.dataset.loads = String(load);
  }

  #typed(): void {
    window.clearTimeout(this.#typing);
    this.#typing = window.setTimeout(() => {
      this.#page = 0;
      void this.load();
    }, TYPING_PAUSE_MS);
  }

  #draw(list: PurchaseList): void {
    const c = this.#context;
    const last = Math.max(0, Math.ceil(list.total / list.pageSize) - 1);
    const go = (page: number) => () => {
      this.#page = page;
      void this.load();
    };
    show(
      this.#list,
      h(
        "div",
        { className: "hint", "data-field": "total" },
        `${text(c, "app-list-found")}: ${formatNumber(c.locale, list.total)}`,
      ),
      list.items.length === 0
        ? h("p", { className: "hint" }, text(c, "app-list-empty"))
        : h(
            "table",
            {},
            h(
              "tbody",
              {},
              ...list.items.map((p) =>
                h(
                  "tr",
                  { "data-purchase": p.id, on: { click: () => c.openPurchase(p.id) } },
                  h("td", { className: "when" }, formatShortTime(c.locale, p.createdAt)),
                  h(
                    "td",
                    {},
                    giftText(c, p.kind, p.quantity),
                    " → ",
                    h("span", { "data-field": "recipient" }, `@${p.recipient}`),
                    h(
                      "div",
                      { className: "hint", "data-field": "requester" },
                      p.requester.name ?? String(p.requester.id),
                    ),
                  ),
                  h("td", { "data-status": p.status }, textOf(c, `status-${p.status}`, p.status)),
                ),
              ),
            ),
          ),
      h(
        "div",
        { className: "actions" },
        h(
          "button",
          { disabled: list.page === 0, on: { click: go(list.page - 1) } },
          text(c, "app-page-newer"),
        ),
        h("span", { className: "hint" }, `${list.page + 1} / ${last + 1}`),
        h(
          "button",
          { disabled: list.page >= last, on: { click: go(list.page + 1) } },
          text(c, "app-page-older"),
        ),
      ),
    );
  }
}
