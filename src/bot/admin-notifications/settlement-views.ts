/**
 * What admins read once an unknown outcome is settled: the alert or /pending message turned
 * into its settled state (the title says how, the evidence stays, the hold's hint goes, the
 * last line says who settled it), the news that the service's late answer settled one, and
 * the alarm when a late answer contradicts an admin's settlement.
 */
import type { PurchaseIntent } from "../../ledger/types.js";
import type { DefiniteAnswer, Settlement } from "../../purchases/types.js";
import type { Translate } from "../context.js";
import { giftName, requesterLine, who } from "../admin-views.js";
import { formatDateTime } from "../format.js";
import { answerText } from "../outcome-detail.js";
import type { NameLookup } from "../people.js";
import { transactionLine } from "../purchase-views.js";
import { provedByLine } from "../stars-views.js";

/**
 * How an unknown outcome ended up settled, as its messages say it: by whom, and which way
 * (`telegram`: proved delivered by the bot's Star transactions).
 */
export type SettledAs =
  | { by: "admin"; adminId: number; delivered: boolean }
  | { by: "service"; delivered: boolean }
  | { by: "telegram"; delivered: true };

/** What a settlement event says, as its messages say it. */
export function settledAs(settlement: Settlement): SettledAs {
  if (settlement.by === "admin") return settlement;
  if (settlement.by === "telegram") return { by: "telegram", delivered: true };
  return { by: "service", delivered: settlement.answer.kind === "success" };
}

/**
 * How the ledger row of a settled intent says it was settled: by an admin (delivered or not
 * delivered, with who), or by the service's late answer (succeeded or rejected, settled with no
 * admin). Undefined for an intent no settlement moved.
 */
export function settledAsOf(intent: PurchaseIntent): SettledAs | undefined {
  if (intent.resolvedAt === undefined) return undefined;
  switch (intent.status) {
    case "delivered":
    case "not_delivered":
      if (intent.resolvedBy !== undefined) {
        return {
          by: "admin",
          adminId: intent.resolvedBy,
          delivered: intent.status === "delivered",
        };
      }
      // Delivered with no admin: a gift through Telegram its Star transactions proved.
      return intent.status === "delivered" && intent.paidVia === "telegram"
        ? { by: "telegram", delivered: true }
        : undefined;
    case "succeeded":
    case "rejected":
      return { by: "service", delivered: intent.status === "succeeded" };
    default:
      return undefined;
  }
}

/** "✅ Settled as delivered: 100 Telegram Stars to @bob_gifts." and its kin. */
function settledTitle(t: Translate, intent: PurchaseIntent, settled: SettledAs): string {
  const way =
    settled.by === "telegram"
      ? "proved"
      : settled.by === "admin"
        ? settled.delivered
          ? "delivered"
          : "not-delivered"
        : settled.delivered
          ? "succeeded"
          : "rejected";
  return t(`admin-settled-title-${way}`, {
    gift: giftName(t, intent),
    recipient: intent.recipient,
  });
}

/** "Settled as delivered by @ada_admin (1001)." or "Settled by the service's late answer…". */
export function settledByLine(
  t: Translate,
  settled: SettledAs,
  names: NameLookup,
  intent?: PurchaseIntent,
): string {
  if (settled.by === "telegram") return intent === undefined ? "" : provedByLine(t, intent);
  if (settled.by === "service") {
    return t("admin-resolved-late", {
      outcome: t(settled.delivered ? "status-succeeded" : "status-rejected"),
    });
  }
  return t(settled.delivered ? "admin-resolved-delivered" : "admin-resolved-not-delivered", {
    admin: who(t, settled.adminId, names),
  });
}

/** An alert or /pending message in its settled state: `body` is its evidence (evidenceBody). */
export function settledAlertText(
  t: Translate,
  intent: PurchaseIntent,
  settled: SettledAs,
  body: string,
  names: NameLookup,
): string {
  return [
    settledTitle(t, intent, settled),
    "",
    body,
    "",
    settledByLine(t, settled, names, intent),
  ].join("\n");
}

/**
 * The evidence of a message shown before its text was remembered (an older alert, a message
 * pressed after a restart of an older version): its text without the title and the hold's hint.
 */
export function bodyOfShownAlert(t: Translate, shown: string): string {
  const hints = new Set([t("admin-evidence-hint"), t("admin-evidence-hint-stars")]);
  const lines = shown.split("\n").slice(1);
  while (lines[0] === "") lines.shift();
  const body = lines.filter((line) => !hints.has(line));
  while (body.at(-1) === "") body.pop();
  return body.join("\n");
}

/** Lines every settlement message shares: the purchase's id, who asked, and the service's answer. */
function answerLines(
  t: Translate,
  intent: PurchaseIntent,
  answer: DefiniteAnswer,
  explorer: string | undefined,
  names: NameLookup,
): string[] {
  const txHash = answer.kind === "success" ? (answer.value.txHash ?? intent.txHash) : undefined;
  return [
    t("admin-intent-id", { id: intent.id }),
    requesterLine(t, intent, names),
    t("admin-late-answer", { answer: answerText(t, answer) }),
    ...(txHash === undefined ? [] : [transactionLine(t, txHash, explorer)]),
  ];
}

/** The admins' news that the service's late answer settled an unknown outcome. */
export function lateSettledText(
  t: Translate,
  intent: PurchaseIntent,
  answer: DefiniteAnswer,
  explorer: string | undefined,
  names: NameLookup,
): string {
  return [
    t(answer.kind === "success" ? "admin-late-settled-delivered" : "admin-late-settled-refused", {
      gift: giftName(t, intent),
      recipient: intent.recipient,
    }),
    "",
    ...answerLines(t, intent, answer, explorer, names),
    "",
    t("admin-late-settled-hint"),
  ].join("\n");
}

/**
 * The alarm: an admin settled the outcome one way and the service's answer, arriving late,
 * says the other. The ledger keeps the admin's settlement; what to check next depends on which
 * way it went (a gift delivered twice, or a requester told "delivered" of a refused gift).
 */
export function contradictionText(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  answer: DefiniteAnswer,
  explorer: string | undefined,
  names: NameLookup,
): string {
  const delivered = answer.kind === "success";
  const settledBy =
    intent.resolvedBy === undefined ? t("unknown-value") : who(t, intent.resolvedBy, names);
  return [
    t("admin-late-contradiction-title", { gift: giftName(t, intent), recipient: intent.recipient }),
    "",
    ...answerLines(t, intent, answer, explorer, names),
    t(delivered ? "admin-late-contradiction-was-not" : "admin-late-contradiction-was", {
      admin: settledBy,
      date:
        intent.resolvedAt === undefined
          ? t("unknown-value")
          : formatDateTime(locale, intent.resolvedAt),
    }),
    "",
    t(delivered ? "admin-late-contradiction-delivered" : "admin-late-contradiction-refused"),
  ].join("\n");
}
