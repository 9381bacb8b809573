/**
 * What a giveaway has spent: its recipients' measured costs summed exactly per currency (the
 * wallet's TON and USDT), and how many delivered gifts have no figure (not measured yet, or the
 * stated reason why not is in the list). Shown on its progress message and in its summary.
 */
import { type Currency, formatMoney, parseMoney, sumMoney } from "../../../costs/money.js";
import type { PurchaseIntent } from "../../../ledger/types.js";
import type { Translate } from "../../context.js";
import { formatDecimal } from "../../format.js";

export interface GiveawaySpent {
  /** Per currency, in the wallet's order (TON, USDT), only those with a measured cost. */
  totals: { currency: Currency; amount: string }[];
  /** Delivered gifts without a measured cost. */
  unmeasured: number;
}

const CURRENCIES: readonly Currency[] = ["ton", "usdt"];

/** The batch's spending, from its intents as the ledger holds them now. */
export function giveawaySpent(intents: readonly PurchaseIntent[]): GiveawaySpent {
  const delivered = intents.filter((i) => i.status === "succeeded" || i.status === "delivered");
  const totals = CURRENCIES.flatMap((currency) => {
    const amounts = delivered.flatMap((intent) => {
      const cost = intent.cost;
      if (cost?.measured !== true || cost.currency !== currency) return [];
      const money = parseMoney(currency, cost.amount);
      return money === undefined ? [] : [money];
    });
    return amounts.length === 0
      ? []
      : [{ currency, amount: formatMoney(sumMoney(currency, amounts)) }];
  });
  const measured = delivered.filter((i) => i.cost?.measured === true).length;
  return { totals, unmeasured: delivered.length - measured };
}

/**
 * "💸 Spent: 3.75 USDT", with how many gifts it leaves out when some have no figure;
 * undefined while nothing was delivered.
 */
export function spentLine(t: Translate, locale: string, spent: GiveawaySpent): string | undefined {
  const amounts = spent.totals
    .map(
      ({ currency, amount }) =>
        `${formatDecimal(locale, amount) ?? amount} ${currency.toUpperCase()}`,
    )
    .join(", ");
  const unmeasured =
    spent.unmeasured === 0 ? "" : t("giveaway-spent-unmeasured", { count: spent.unmeasured });
  if (amounts === "") {
    return unmeasured === "" ? undefined : t("giveaway-spent-unknown", { unmeasured });
  }
  return unmeasured === ""
    ? t("giveaway-spent", { amounts })
    : t("giveaway-spent-partly", { amounts, unmeasured });
}
