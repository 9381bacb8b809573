/**
 * After a restore from a backup, through the real bot on the same store (SQLite, or PostgreSQL
 * with GIFTBOT_TEST_STORE=postgres): a giveaway the backup showed paused and a person's open
 * summary can no longer send anything; at the next start every admin is told, in their
 * language, what was stopped, once; the giveaway's message says why and keeps no button.
 * (The built process, `npm run restore` and a real backup: test/e2e/backup-restore.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { formatDateTime } from "../../../src/bot/format.js";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import { ADMIN, ADMIN2, adminWorld, BUYER, sentTexts } from "../../helpers/admin-bot.js";
import { answersSince } from "../../helpers/bot.js";

const FIVE = ["alice_friend", "bob_gifts", "carol_star", "dave_user", "erin_user"];

describe("a giveaway and a summary the backup showed unsent", () => {
  it("stay unsent after the restore; the admins are told once, each in their language", async () => {
    const { h } = await adminWorld();
    const admin = chatPerson(h, ADMIN);
    const boris = chatPerson(h, ADMIN2);
    await boris.command("language");
    await boris.pressButton("Русский");
    const bea = chatPerson(h, BUYER);
    const summary = await bea.starsSummary("zed_friend", "⭐ 50");
    const confirmSummary = bea.findButton("✅ Confirm").data;

    await admin.command("giveaway");
    await admin.pressButton("⭐ Stars");
    await admin.pressButton("⭐ 50");
    await admin.say(FIVE.join(" "));
    const card = admin.findButton("✅ Confirm");
    // The first request is held, so Pause comes while it is out: one sent, four waiting.
    h.sandbox.injectFault({ type: "delay", ms: 300 }, { path: "/buy-stars/", times: 1 });
    const before = h.telegram.mark();
    const pressing = admin.press(card.data, card.messageId);
    await h.sandbox.waitForRequests(1, "/buy-stars/");
    const progress = admin
      .callsSince(before)
      .find((c) => c.method === "sendMessage" && String(c.payload.text).startsWith("🎁 Giveaway"));
    const progressId = (progress?.result as { message_id: number }).message_id;
    const pause = admin.findButton("⏸ Pause").data;
    await admin.press(pause, progressId);
    await pressing;
    await h.app.giveaways.runner.idle();
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);

    // The restore (npm run restore) marks the database; the next start tells the admins.
    const takenAt = Date.UTC(2030, 0, 1, 10);
    await h.ledger.markRestored(new Date(takenAt).toISOString());
    const restarted = h.telegram.mark();
    await h.restart();
    await h.app.notifier.idle();
    await h.app.giveaways.idle();
    const [english] = sentTexts(h, ADMIN.id, restarted);
    expect(english?.split("\n")).toEqual([
      `♻️ The database was restored from a backup taken ${formatDateTime("en", takenAt)}.`,
      "The backup cannot know what was sent after it was taken, so nothing it shows as not sent yet is sent without a new decision:",
      expect.stringMatching(
        /^• Giveaway of 50 Telegram Stars for each recipient, started .+ UTC: stopped for good; recipients not sent: 4\. To send them, start a new giveaway\.$/,
      ),
      "• Open purchase summaries expired: 1. Their people start again.",
    ]);
    const [russian] = sentTexts(h, ADMIN2.id, restarted);
    expect(russian).toContain(
      `♻️ База данных восстановлена из резервной копии от ${formatDateTime("ru", takenAt)}.`,
    );
    expect(russian).toContain("не отправлено получателям: 4");
    expect(russian).toContain("Открытые сводки покупок закрыты как просроченные: 1.");
    const message = h.telegram.message(ADMIN.id, progressId);
    expect(message?.text).toContain("⛔ Stopped for good: the database was restored from a backup");
    expect(message?.reply_markup?.inline_keyboard ?? []).toEqual([]);

    // Nothing the backup showed unsent goes out: Resume, Cancel, the old summary's Confirm.
    const presses = h.telegram.mark();
    await admin.press(pause.replace(":pause:", ":resume:"), progressId);
    await admin.press(pause.replace(":pause:", ":cancel:"), progressId);
    await bea.press(confirmSummary, summary.message_id);
    await h.app.giveaways.runner.idle();
    expect(answersSince(h, presses)).toEqual([
      "This giveaway was stopped by a restore from a backup: nothing more is sent from it. To send the rest, start a new giveaway.",
      "This button is no longer active.",
      expect.stringContaining("This summary has expired."),
    ]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);

    // Told once: the next start says nothing more about it.
    const again = h.telegram.mark();
    await h.restart();
    await h.app.notifier.idle();
    expect(sentTexts(h, ADMIN.id, again).filter((t) => t.startsWith("♻️"))).toEqual([]);
  });
});
