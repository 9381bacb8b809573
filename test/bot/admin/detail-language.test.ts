/**
 * Admins read every outcome detail in their own language: the ledger's English detail strings
 * are shown through the locale files, and the service's own words are quoted as they came.
 * Intents come from a real ledger on a SQLite file, texts from the real locale files.
 */
import { describe, expect, it } from "vitest";
import { evidenceText, purchaseDetails } from "../../../src/bot/admin-views.js";
import type { PurchaseIntent } from "../../../src/ledger/types.js";
import type { PurchaseOutcome } from "../../../src/service/types.js";
import { ledgerFixture } from "../../helpers/ledger.js";
import { translators } from "../../helpers/translators.js";

/** One intent per way a purchase can end with a detail, written by the real ledger. */
async function intents(): Promise<Record<string, PurchaseIntent>> {
  const { ledger, draft } = await ledgerFixture();
  const finish = async (outcome: PurchaseOutcome): Promise<PurchaseIntent> => {
    const intent = await draft();
    await ledger.claim(intent.id, 1);
    const recorded = (await ledger.recordOutcome(intent.id, outcome)).intent;
    if (recorded.status === "unconfirmed") await ledger.resolve(intent.id, 9, false);
    return (await ledger.get(intent.id)) ?? recorded;
  };
  const busy = await finish({
    kind: "ambiguous",
    cause: "rate_limited",
    status: 429,
    body: { ok: false, error: "FLOOD_WAIT_30" },
    retryAfterSeconds: 30,
    detail: "HTTP 429: the purchase may not have happened",
  });
  const refused = await finish({
    kind: "rejected",
    status: 400,
    body: { ok: false, error: "USERNAME_NOT_OCCUPIED" },
    detail: "USERNAME_NOT_OCCUPIED",
  });
  const notSent = await draft();
  await ledger.claim(notSent.id, 1);
  await ledger.recordNotSent(notSent.id, "not sent: cancelled at shutdown");
  const interrupted = await draft();
  await ledger.claim(interrupted.id, 1);
  await ledger.recoverInterrupted();
  return {
    busy,
    refused,
    notSent: (await ledger.get(notSent.id)) ?? notSent,
    interrupted: (await ledger.get(interrupted.id)) ?? interrupted,
  };
}

describe("outcome details in the admin's language", () => {
  it("Russian: every detail line is Russian, the service's reason quoted as it came", async () => {
    const t = (await translators()).ru;
    const all = await intents();
    const detailLine = (intent: PurchaseIntent): string | undefined =>
      purchaseDetails(t, "ru", intent, undefined)
        .split("\n")
        .find((line) => line.startsWith("Подробности:"));

    expect(detailLine(all.busy!)).toBe(
      "Подробности: сервис ответил HTTP 429 (занят): покупка могла как состояться, так и нет " +
        "Ответ сервиса: «FLOOD_WAIT_30».",
    );
    expect(detailLine(all.refused!)).toBe(
      "Подробности: сервис отказал (HTTP 400): «USERNAME_NOT_OCCUPIED»",
    );
    expect(detailLine(all.notSent!)).toBe("Подробности: не отправлено: отменено при остановке");
    const alert = evidenceText(t, "ru", all.interrupted!, undefined, "notification", undefined);
    expect(alert).toContain(
      "Подробности: прервано: процесс остановился, пока запрос покупки был в пути",
    );
    // None of the ledger's English detail strings reaches a Russian-speaking admin.
    for (const intent of Object.values(all)) {
      const text = purchaseDetails(t, "ru", intent, undefined);
      expect(text).not.toMatch(/may not have happened|cancelled at shutdown|interrupted:/);
    }
  });

  it("English keeps the same words the admins read before", async () => {
    const t = (await translators()).en;
    const all = await intents();
    expect(purchaseDetails(t, "en", all.notSent!, undefined)).toContain(
      "Detail: not sent: cancelled at shutdown",
    );
    expect(purchaseDetails(t, "en", all.refused!, undefined)).toContain(
      'Detail: the service refused it (HTTP 400): "USERNAME_NOT_OCCUPIED"',
    );
    expect(evidenceText(t, "en", all.interrupted!, undefined, "notification", undefined)).toContain(
      "Detail: interrupted: the process stopped while the purchase request was in flight",
    );
  });
});
