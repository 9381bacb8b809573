/**
 * The low-balance warnings: every balance the desk reads is compared with LOW_BALANCE_TON and
 * LOW_BALANCE_USDT, and each threshold crossed downwards is told to the admins once, until the
 * balance is above it again. Which side of each threshold the balance was on is kept in the
 * store, so a restart does not warn again about a balance already told.
 */
import type { BalanceSnapshot } from "../../ledger/types.js";
import type { Logger } from "../../shared/logger.js";
import type { KeyValue } from "../../storage/types.js";
import type { Translate } from "../context.js";
import { formatDecimal } from "../format.js";
import { isBelow } from "./decimal.js";

type Currency = "ton" | "usdt";
/** Per currency: whether the balance was below its threshold at the last read. */
export type LowState = Partial<Record<Currency | "stars", boolean>>;

const LOW_STATE_KEY = "low-balance";
/** Whether the bot's own Star balance was below LOW_BALANCE_STARS at the last read. */
const LOW_STARS_KEY = "low-balance-stars";

type Render = (t: Translate, locale: string) => { text: string };

interface LowBalanceParts {
  store: KeyValue<LowState | true>;
  alerts: () =>
    | {
        lowBalanceTon?: string | undefined;
        lowBalanceUsdt?: string | undefined;
        lowBalanceStars?: number | undefined;
      }
    | undefined;
  logger: Logger;
  /** Sends a warning to every admin. */
  warn: (render: Render) => void;
  /** Keeps work for the notifier's idle(). */
  track: (work: Promise<unknown>) => void;
}

export class LowBalanceWatch {
  /** The checks, in order: each reads, compares and writes the state the previous one left. */
  #checks: Promise<void> = Promise.resolve();
  readonly #parts: LowBalanceParts;

  constructor(parts: LowBalanceParts) {
    this.#parts = parts;
  }

  check(balance: BalanceSnapshot): void {
    if (this.#parts.alerts() === undefined) return;
    const check = this.#checks.then(() => this.#check(balance));
    this.#checks = check.catch((err: unknown) =>
      this.#parts.logger.warn({ err }, "could not check the balance against the thresholds"),
    );
    this.#parts.track(this.#checks);
  }

  /** The bot's own Star balance against LOW_BALANCE_STARS: told once per crossing downwards. */
  checkStars(stars: number): void {
    if (this.#parts.alerts()?.lowBalanceStars === undefined) return;
    const check = this.#checks.then(() => this.#checkStars(stars));
    this.#checks = check.catch((err: unknown) =>
      this.#parts.logger.warn({ err }, "could not check the Star balance against its threshold"),
    );
    this.#parts.track(this.#checks);
  }

  async #checkStars(stars: number): Promise<void> {
    const threshold = this.#parts.alerts()?.lowBalanceStars;
    if (threshold === undefined) return;
    const below = stars < threshold;
    const saved = await this.#parts.store.read(LOW_STARS_KEY);
    const wasBelow = saved !== undefined && saved !== true && saved.stars === true;
    if (below !== wasBelow) await this.#parts.store.write(LOW_STARS_KEY, { stars: below });
    if (!below || wasBelow) return;
    this.#parts.warn((t) => ({
      text: t("admin-low-balance-stars", { value: stars, threshold }),
    }));
  }

  async #check(balance: BalanceSnapshot): Promise<void> {
    const alerts = this.#parts.alerts();
    if (alerts === undefined) return;
    const saved = await this.#parts.store.read(LOW_STATE_KEY);
    const before: LowState = saved === undefined || saved === true ? {} : saved;
    const state: LowState = { ...before };
    const crossed: { currency: Currency; value: string; threshold: string }[] = [];
    const pairs: [Currency, string | undefined, string | undefined][] = [
      ["ton", balance.ton, alerts.lowBalanceTon],
      ["usdt", balance.usdt, alerts.lowBalanceUsdt],
    ];
    for (const [currency, current, threshold] of pairs) {
      if (current === undefined || threshold === undefined) continue;
      const below = isBelow(current, threshold);
      if (below === undefined) continue;
      if (below && state[currency] !== true) crossed.push({ currency, value: current, threshold });
      state[currency] = below;
    }
    // Written only when a side of a threshold changed: every balance read comes through here.
    if (state.ton !== before.ton || state.usdt !== before.usdt) {
      await this.#parts.store.write(LOW_STATE_KEY, state);
    }
    if (crossed.length === 0) return;
    this.#parts.warn((t, locale) => ({
      text: crossed
        .map((c) =>
          t(`admin-low-balance-${c.currency}`, {
            value: formatDecimal(locale, c.value) ?? c.value,
            threshold: formatDecimal(locale, c.threshold) ?? c.threshold,
          }),
        )
        .join("\n"),
    }));
  }
}
