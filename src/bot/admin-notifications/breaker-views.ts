/**
 * The texts of the admin messages about what blocks purchases without anyone's update: the
 * breaker opening (with the service's reasons quoted and the likely fix), the service's reads
 * failing and recovering, a settings reload that refused new values, and an outcome the
 * database refused to record.
 */
import { type BreakerOpening, MAX_QUOTED_REASON } from "../../purchases/breaker.js";
import type { ReadHealthEvent } from "../../purchases/read-health.js";
import { quoteServiceText } from "../../service/quote.js";
import type { PurchaseIntent } from "../../ledger/types.js";
import type { PurchaseOutcome } from "../../service/types.js";
import { giftName } from "../admin-views.js";
import type { Translate } from "../context.js";
import { answerText } from "../outcome-detail.js";
import { transactionLine } from "../purchase-views.js";
import { formatDateTime } from "../format.js";

/**
 * The latest refusals quoted in the alert; the rest are counted. BREAKER_REFUSALS may be up to
 * 100, and a hundred quotes would not fit one Telegram message.
 */
const MAX_REFUSALS_QUOTED = 5;

/**
 * One message per opening: what happened, each refusal quoted (the service's words, already
 * scrubbed of secrets by the client), and what most likely needs doing.
 */
export function breakerOpenedText(
  t: Translate,
  locale: string,
  opening: BreakerOpening,
  walletAddress: string | undefined,
): string {
  const lines = [t("admin-breaker-opened", { count: opening.refusals.length })];
  const quoted = opening.refusals.slice(-MAX_REFUSALS_QUOTED);
  const unquoted = opening.refusals.length - quoted.length;
  if (unquoted > 0) lines.push(t("admin-breaker-refusals-earlier", { count: unquoted }));
  for (const refusal of quoted) {
    lines.push(
      t("admin-breaker-refusal", {
        date: formatDateTime(locale, refusal.at),
        id: refusal.intentId,
        // Quoted again: a pause persisted by an older version may hold a longer reason.
        reason: quoteServiceText(refusal.reason, MAX_QUOTED_REASON),
      }),
    );
  }
  lines.push("");
  lines.push(
    opening.cause === "wallet"
      ? t("admin-breaker-cause-wallet", { address: walletAddress ?? "" })
      : t(`admin-breaker-cause-${opening.cause}`),
  );
  lines.push(t("admin-breaker-hint"));
  return lines.join("\n");
}

/** Minutes, rounded up and at least one: "unreachable for 0 min" reads like a bug. */
function minutes(ms: number): number {
  return Math.max(1, Math.ceil(ms / 60_000));
}

/** The read-outage alert, or the message that reads work again. */
export function readHealthText(t: Translate, event: ReadHealthEvent, now: number): string {
  if (event.kind === "outage") {
    return t("admin-read-outage", {
      minutes: minutes(now - event.since),
      failures: event.failures,
    });
  }
  return t("admin-read-recovered", { minutes: minutes(event.downForMs) });
}

/** A reload refused these variables (names only; the log says why). */
export function reloadRefusedText(t: Translate, variables: readonly string[]): string {
  return t("admin-reload-refused", { variables: variables.join(", ") });
}

/**
 * A purchase's outcome the database refused to record after the request went out: what is
 * known (the intent and the service's answer), and that purchases wait until it is written.
 */
export function unrecordedText(
  t: Translate,
  intent: PurchaseIntent,
  answer: PurchaseOutcome,
  explorerUrl: string | undefined,
): string {
  return [
    t("admin-unrecorded-title", { gift: giftName(t, intent), recipient: intent.recipient }),
    "",
    t("admin-intent-id", { id: intent.id }),
    t("admin-unrecorded-answer", { answer: answerText(t, answer) }),
    ...(answer.kind === "success" && answer.value.txHash !== undefined
      ? [transactionLine(t, answer.value.txHash, explorerUrl)]
      : []),
    t("admin-unrecorded-hold"),
  ].join("\n");
}
