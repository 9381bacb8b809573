/**
 * The first screen: the wallet, today's purchases against the daily limits, whether purchases
 * are open (with Pause or Resume), what waits for a decision, the breaker, the replica that
 * sends, the last backup, the running giveaways (their progress followed live) and the chart.
 */
import {
  balanceText,
  formatAge,
  formatNumber,
  giftText,
  type PageContext,
  text,
  textOf,
} from "./context.js";
import { drawSpending } from "./chart.js";
import { h, show } from "./dom.js";
import type { Balance, Day, Giveaway, Overview } from "./types.js";

/** How often running giveaways are read again while the overview is shown. */
const GIVEAWAY_POLL_MS = 2000;

export class OverviewView {
  readonly element = h("section", { className: "overview" });
  readonly #context: PageContext;
  readonly #balance = h("div", { className: "value", "data-field": "balance" });
  readonly #giveaways = h("div", { className: "giveaways" });
  #poll: number | undefined;

  constructor(context: PageContext) {
    this.#context = context;
    this.#balance.textContent = text(context, "app-loading");
  }

  /** Draws the overview and its chart from the answers (the balance follows when read). */
  draw(overview: Overview, days: Day[]): void {
    const c = this.#context;
    const chart = h("div", { className: "charts" });
    show(
      this.element,
      card(text(c, "app-overview-balance"), this.#balance),
      this.#statusCard(overview),
      card(
        text(c, "app-overview-today"),
        h(
          "div",
          { className: "value" },
          `${text(c, "app-overview-stars-today")}: ${formatNumber(c.locale, overview.today.stars)} / ${formatNumber(c.locale, overview.today.starsLimit)}`,
        ),
        h(
          "div",
          { className: "value" },
          `${text(c, "app-overview-premium-today")}: ${overview.today.premium} / ${overview.today.premiumLimit}`,
        ),
      ),
      this.#pendingCard(overview),
      this.#systemCard(overview),
      card(text(c, "app-giveaways"), this.#giveaways),
      card(text(c, "app-chart-title"), chart),
    );
    this.#drawGiveaways(overview.giveaways);
    drawSpending(c, chart, days);
  }

  showBalance(read: { live: boolean; balance: Balance | undefined }): void {
    const c = this.#context;
    show(
      this.#balance,
      read.balance === undefined
        ? text(c, "app-overview-balance-unknown")
        : balanceText(c.locale, read.balance),
      !read.live && h("div", { className: "hint" }, text(c, "app-overview-balance-kept")),
    );
  }

  /** Reads the giveaways again every few seconds while any is being sent. */
  followGiveaways(active: boolean): void {
    window.clearTimeout(this.#poll);
    if (!active) return;
    this.#poll = window.setTimeout(() => {
      void this.#context.api
        .get<{ giveaways: Giveaway[] }>("giveaways")
        .then(({ giveaways }) => this.#drawGiveaways(giveaways))
        .catch(() => this.followGiveaways(true));
    }, GIVEAWAY_POLL_MS);
  }

  #statusCard(overview: Overview): HTMLElement {
    const c = this.#context;
    const { status } = overview;
    const state = status.paused
      ? text(
          c,
          status.pausedBy === "breaker" ? "app-state-paused-breaker" : "app-state-paused-admin",
        )
      : status.unconfirmed > 0
        ? text(c, "app-state-on-hold")
        : text(c, "app-state-open");
    const action = status.paused ? "resume" : "pause";
    return card(
      text(c, "app-overview-purchases"),
      h("div", { className: "value", "data-field": "state" }, state),
      h(
        "button",
        { "data-action": action, on: { click: () => void this.#act(action) } },
        text(c, status.paused ? "app-action-resume" : "app-action-pause"),
      ),
    );
  }

  #pendingCard(overview: Overview): HTMLElement {
    const c = this.#context;
    const list = overview.pending.shown.map((purchase) =>
      h(
        "li",
        {},
        h(
          "button",
          { className: "link", on: { click: () => c.openPurchase(purchase.id) } },
          `${giftText(c, purchase.kind, purchase.quantity)} → @${purchase.recipient}`,
        ),
      ),
    );
    return card(
      `${text(c, "app-overview-pending")}: ${overview.pending.total}`,
      list.length === 0
        ? h("div", { className: "hint" }, text(c, "app-overview-pending-none"))
        : h("ul", { "data-field": "pending" }, ...list),
    );
  }

  #systemCard(overview: Overview): HTMLElement {
    const c = this.#context;
    const lease =
      overview.lease.holder === undefined
        ? text(c, "app-lease-none")
        : `${overview.lease.holder} (${text(c, overview.lease.here ? "app-lease-here" : "app-lease-other")})`;
    const backup = !overview.backup.kept
      ? text(c, "app-backup-not-kept")
      : overview.backup.lastAt === undefined
        ? text(c, "app-backup-none")
        : formatAge(c.locale, overview.backup.lastAt);
    return h(
      "div",
      { className: "card" },
      row(
        text(c, "app-overview-breaker"),
        text(c, overview.breakerOpen ? "app-breaker-open" : "app-breaker-closed"),
      ),
      row(text(c, "app-overview-lease"), lease),
      row(text(c, "app-overview-backup"), backup),
    );
  }

  #drawGiveaways(giveaways: Giveaway[]): void {
    const c = this.#context;
    show(
      this.#giveaways,
      giveaways.length === 0
        ? h("div", { className: "hint" }, text(c, "app-giveaways-none"))
        : h("ul", {}, ...giveaways.map((g) => this.#giveaway(g))),
    );
    this.followGiveaways(giveaways.some((g) => g.status === "running"));
  }

  #giveaway(giveaway: Giveaway): HTMLElement {
    const c = this.#context;
    const { counts } = giveaway;
    const done = counts.delivered + counts.refused + counts.unknown + counts.dropped;
    const state =
      giveaway.status === "stopped"
        ? `giveaway-state-stopped-${giveaway.stopReason ?? "storage"}`
        : `giveaway-state-${giveaway.status}`;
    const button = (action: "pause" | "resume" | "cancel", key: Parameters<typeof text>[1]) =>
      h(
        "button",
        { on: { click: () => void this.#act(`giveaways/${giveaway.id}/${action}`) } },
        text(c, key),
      );
    return h(
      "li",
      { className: "giveaway", "data-giveaway": giveaway.id },
      h("div", {}, `${giftText(c, giveaway.kind, giveaway.quantity)} × ${counts.total}`),
      h("progress", { max: counts.total, value: done }),
      h(
        "div",
        { className: "hint" },
        `${text(c, "app-count-delivered")} ${counts.delivered} · ${text(c, "app-count-refused")} ${counts.refused} · ${text(c, "app-count-unknown")} ${counts.unknown} · ${text(c, "app-count-waiting")} ${counts.waiting}`,
      ),
      h("div", {}, textOf(c, state, giveaway.status)),
      h(
        "div",
        { className: "actions" },
        giveaway.status === "running"
          ? button("pause", "giveaway-button-pause")
          : button("resume", "giveaway-button-resume"),
        button("cancel", "giveaway-button-cancel-rest"),
      ),
    );
  }

  async #act(path: string): Promise<void> {
    const answer = await this.#context.api.post(path);
    this.#context.say(answer.message, answer.ok);
    this.element.dispatchEvent(new CustomEvent("changed", { bubbles: true }));
  }
}

function card(title: string, ...children: (Node | string | false)[]): HTMLElement {
  return h("div", { className: "card" }, h("h2", {}, title), ...children);
}

function row(label: string, value: string): HTMLElement {
  return h(
    "div",
    { className: "row" },
    h("span", { className: "label" }, label),
    h("span", {}, value),
  );
}
