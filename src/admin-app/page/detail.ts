/**
 * One purchase's evidence, as /pending shows it in the chat: balances before and now, the
 * transaction, the service's answer, who settled it; with Delivered / Not delivered while its
 * outcome is unknown.
 */
import {
  balanceText,
  formatNumber,
  formatTime,
  giftText,
  type PageContext,
  text,
  textOf,
} from "./context.js";
import { h, show } from "./dom.js";
import type { PurchaseDetail } from "./types.js";

export class DetailView {
  readonly element = h("section", { className: "detail" });
  readonly #context: PageContext;
  readonly #back: () => void;

  constructor(context: PageContext, back: () => void) {
    this.#context = context;
    this.#back = back;
  }

  async open(id: string): Promise<void> {
    show(this.element, text(this.#context, "app-loading"));
    const detail = await this.#context.api.get<PurchaseDetail>(
      `purchases/${encodeURIComponent(id)}`,
    );
    this.#draw(detail);
  }

  #draw(p: PurchaseDetail): void {
    const c = this.#context;
    const status = textOf(c, `status-${p.status}`, p.status);
    const fields: [string, Node | string][] = [
      [text(c, "app-detail-id"), p.id],
      [text(c, "app-detail-gift"), giftText(c, p.kind, p.quantity)],
      [text(c, "app-detail-recipient"), `@${p.recipient}`],
      [text(c, "app-detail-requester"), `${p.requester.name ?? ""} (${p.requester.id})`.trim()],
      [text(c, "app-detail-status"), status],
      [text(c, "app-detail-created"), formatTime(c.locale, p.createdAt)],
      [text(c, "app-detail-sent"), formatTime(c.locale, p.sentAt)],
      [text(c, "app-detail-finished"), formatTime(c.locale, p.finishedAt)],
      [
        text(c, "app-detail-balance-before"),
        `${balanceText(c.locale, p.balanceBefore)} (${formatTime(c.locale, p.balanceBeforeAt)})`,
      ],
    ];
    if (p.balanceNow !== undefined) {
      fields.push([
        text(c, "app-detail-balance-now"),
        `${balanceText(c.locale, p.balanceNow)} (${formatTime(c.locale, p.balanceNowAt)})`,
      ]);
    }
    if (p.sentMeanwhile.length > 0)
      fields.push([text(c, "app-detail-meanwhile"), p.sentMeanwhile.join(", ")]);
    if (p.cost !== undefined) {
      fields.push([
        text(c, "app-detail-cost"),
        `${formatNumber(c.locale, p.cost.amount)} ${p.cost.currency.toUpperCase()}`,
      ]);
    }
    if (p.txHash !== undefined) {
      fields.push([
        text(c, "app-detail-tx"),
        p.transactionUrl === undefined
          ? p.txHash
          : h(
              "a",
              { href: p.transactionUrl, target: "_blank", rel: "noopener noreferrer" },
              p.txHash,
            ),
      ]);
    }
    if (p.outcomeDetail !== undefined)
      fields.push([text(c, "app-detail-outcome"), p.outcomeDetail]);
    if (p.settledBy !== undefined) {
      fields.push([
        text(c, "app-detail-settled"),
        `${p.settledBy.name ?? p.settledBy.id} · ${formatTime(c.locale, p.settledAt)}`,
      ]);
    }
    if (p.batchId !== undefined) fields.push([text(c, "app-detail-giveaway"), p.batchId]);
    show(
      this.element,
      h("button", { className: "link", on: { click: this.#back } }, text(c, "app-detail-back")),
      h("dl", {}, ...fields.flatMap(([label, value]) => [h("dt", {}, label), h("dd", {}, value)])),
      p.settleable &&
        h(
          "div",
          { className: "actions" },
          this.#settleButton(p.id, true),
          this.#settleButton(p.id, false),
        ),
      h("h3", {}, text(c, "app-detail-history")),
      h(
        "ol",
        {},
        ...p.history.map((move) =>
          h(
            "li",
            {},
            `${formatTime(c.locale, move.at)}: ${textOf(c, `status-${move.to}`, move.to)}`,
          ),
        ),
      ),
      p.serviceAnswer !== undefined && h("h3", {}, text(c, "app-detail-answer")),
      p.serviceAnswer !== undefined && h("pre", {}, JSON.stringify(p.serviceAnswer, null, 2)),
    );
  }

  #settleButton(id: string, delivered: boolean): HTMLElement {
    const c = this.#context;
    return h(
      "button",
      {
        "data-settle": delivered ? "delivered" : "not-delivered",
        on: {
          click: () =>
            void (async () => {
              const answer = await c.api.post(`purchases/${encodeURIComponent(id)}/settle`, {
                delivered,
              });
              c.say(answer.message, answer.ok);
              await this.open(id);
            })(),
        },
      },
      text(c, delivered ? "app-settle-delivered" : "app-settle-not-delivered"),
    );
  }
}
