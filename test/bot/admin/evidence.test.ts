import { describe, expect, it } from "vitest";
import { formatDateTime, formatDecimal } from "../../../src/bot/format.js";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import { ADMIN, ADMIN2, adminWorld, BUYER, sentTexts } from "../../helpers/admin-bot.js";
import { username } from "../../helpers/username.js";
import { runSql } from "../../helpers/store-sql.js";

const MINUTE = 60_000;

describe("reconciliation evidence", () => {
  it("shows when each balance was read and the other purchases sent since the 'before' figure", async () => {
    // A quota in demand (10 requests a minute, half of them used by the time Ada buys): no
    // balance is read after her purchase, so Bea's "before" figure stays her summary's.
    const { h, features } = await adminWorld({ clientQuota: { limit: 10, windowMs: 60_000 } });
    const boris = chatPerson(h, ADMIN2);
    await boris.command("language");
    await boris.pressButton("Русский");

    // Bea reads her summary (and with it the balance) ...
    const bea = chatPerson(h, BUYER);
    await bea.starsSummary("bob_gifts", "⭐ 100");
    const summaryAt = h.clock();

    // ... Ada buys in between, and it succeeds ...
    h.clock.advance(2 * MINUTE);
    const ada = chatPerson(h, ADMIN);
    await ada.giftStars("carl_gifts", "⭐ 100");
    expect(ada.lastMessage().text).toMatch(/^✅ Delivered: 100 Telegram Stars to @carl_gifts\./);
    const carl = (await h.records.recent({ limit: 1 }))[0];
    expect(carl?.recipient).toBe("carl_gifts");
    const carlSentAt = carl?.sentAt ?? 0;

    // ... then Bea confirms three minutes after her summary, and the outcome is unknown.
    h.clock.advance(MINUTE);
    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await bea.pressButton("✅ Confirm");
    await features.idle();
    const bob = (await h.records.unconfirmed())[0];
    expect(bob?.recipient).toBe("bob_gifts");
    const notifiedAt = h.clock();

    const text = sentTexts(h, ADMIN.id).find((t) => t.startsWith("⚠️")) ?? "";
    const lines = text.split("\n");
    expect(lines).toContain(
      `Balance before: 100 TON, 1,000 USDT, read at ${formatDateTime("en", summaryAt)} (3 min before sending)`,
    );
    // Ada's 100 stars (1.5 USDT) explain the whole drop; Bea's purchase spent nothing.
    expect(lines).toContain(
      `Balance now: 100 TON, 998.5 USDT, read at ${formatDateTime("en", notifiedAt)}`,
    );
    const heading = lines.indexOf(
      'Other purchases sent since the "before" balance was read (1): part of the drop may be theirs.',
    );
    expect(heading).toBeGreaterThan(0);
    expect(lines[heading + 1]).toBe(
      `• ${carl?.id}: 100 Telegram Stars to @carl_gifts, delivered, sent ${formatDateTime("en", carlSentAt)}`,
    );

    // The Russian admin reads the same evidence in Russian.
    const russian = sentTexts(h, ADMIN2.id).find((t) => t.startsWith("⚠️")) ?? "";
    expect(russian).toContain(
      `Баланс до: 100 TON, ${formatDecimal("ru", "1000")} USDT, прочитан ${formatDateTime("ru", summaryAt)} (за 3 мин. до отправки)`,
    );
    expect(russian).toContain(
      `• ${carl?.id}: 100 Telegram Stars для @carl_gifts, доставлен, отправлена ${formatDateTime("ru", carlSentAt)}`,
    );

    // /pending shows the same other purchase.
    const before = h.telegram.mark();
    await ada.command("pending");
    const pending = sentTexts(h, ADMIN.id, before).find((t) => t.startsWith("⏳")) ?? "";
    expect(pending).toContain(
      'Other purchases sent since the "before" balance was read (1): part of the drop may be theirs.',
    );
    expect(pending).toContain(`• ${carl?.id}: 100 Telegram Stars to @carl_gifts, delivered`);
  });

  it("says nothing of other purchases when there were none, and dates a 'before' figure of unknown age by its summary", async () => {
    const { h, features } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await bea.giftStars("bob_gifts", "⭐ 100");
    await features.idle();
    const text = sentTexts(h, ADMIN.id).find((t) => t.startsWith("⚠️")) ?? "";
    expect(text).toContain("Balance before: 100 TON, 1,000 USDT, read at ");
    expect(text).toContain("(0 min before sending)");
    expect(text).not.toContain("Other purchases");

    // A draft recorded with a balance but no read time (as an older version wrote them).
    const draft = await h.ledger.createDraft({
      kind: "stars",
      recipient: username("dora_d"),
      quantity: 50,
      paymentMethod: "ton",
      requester: { userId: BUYER.id, chatId: BUYER.id, chatType: "private" },
      balanceBefore: { ton: "7", usdt: "8" },
    });
    await runSql(
      h,
      "UPDATE purchase_intents SET status = 'sending', sent_at = ?, balance_before_at = NULL WHERE id = ?",
      [h.clock(), draft.id],
    );
    await h.desk.recoverInterrupted();
    await features.idle();
    const recovered = sentTexts(h, ADMIN.id).find((t) => t.includes("@dora_d")) ?? "";
    expect(recovered).toContain(
      `Balance before: 7 TON, 8 USDT, read with the summary, at or before ${formatDateTime("en", draft.createdAt)}`,
    );
  });
});
