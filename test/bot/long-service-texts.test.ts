/**
 * The service's own words can be any length (a proxy's HTML page, a stack trace), but a
 * Telegram message holds at most 4,096 characters: a longer one is refused, and its reader is
 * never told. Every place the service's words reach a chat cuts them, and every message fits.
 * The Telegram fake refuses an over-long text as Telegram does.
 */
import { describe, expect, it } from "vitest";
import { breakerOpenedText } from "../../src/bot/admin-notifications/breaker-views.js";
import { type DailyReport, dailyReportText } from "../../src/bot/reports/daily-report.js";
import { fitToTelegram } from "../../src/bot/telegram-limits.js";
import { chatPerson } from "../../tools/testing/chat-person.js";
import { translators } from "../helpers/translators.js";
import { ADMIN, adminWorld, BUYER } from "../helpers/admin-bot.js";

const TELEGRAM_MAX_TEXT = 4096;
/** 5,000 characters of the service's words, with a marker that must not reach a chat whole. */
const LONG_REASON = `marketplace upstream failure ${"x".repeat(5000 - 29)}`;

function textsTo(h: Awaited<ReturnType<typeof adminWorld>>["h"], chatId: number): string[] {
  return h.telegram
    .callsSince(0)
    .filter((c) => ["sendMessage", "editMessageText"].includes(c.method))
    .filter((c) => Number(c.payload.chat_id) === chatId)
    .map((c) => String(c.payload.text));
}

describe("a 5,000-character reason from the service", () => {
  it("a refused purchase: the buyer is told, the admins' detail quotes the reason cut", async () => {
    const { h, features } = await adminWorld();
    const buyer = chatPerson(h, BUYER);
    const summary = await buyer.starsSummary("bob_gifts", "⭐ 100");
    h.sandbox.injectFault(
      { type: "status", status: 400, body: { ok: false, error: "UPSTREAM", reason: LONG_REASON } },
      { path: "/buy-stars/" },
    );
    await buyer.pressButton("✅ Confirm");
    const outcome = h.telegram.message(buyer.chatId, summary.message_id)?.text ?? "";
    expect(outcome).toMatch(/Nothing was spent/);
    expect(outcome).not.toContain(summary.text);
    for (const text of textsTo(h, buyer.chatId)) {
      expect(text.length).toBeLessThanOrEqual(TELEGRAM_MAX_TEXT);
    }

    const admin = chatPerson(h, ADMIN);
    const id = (await h.records.recent({ limit: 1 }))[0]?.id ?? "";
    await admin.command("purchases", id);
    const detail = admin.lastMessage().text ?? "";
    expect(detail).toContain(`Purchase ${id}`);
    expect(detail).toContain("marketplace upstream failure xxx");
    expect(detail).toContain("…");
    expect(detail.length).toBeLessThan(1000);
    await features.idle();
    for (const text of textsTo(h, ADMIN.id)) {
      expect(text.length).toBeLessThanOrEqual(TELEGRAM_MAX_TEXT);
    }
  });

  it("a session refusal pauses purchases and the admins' alert quotes it cut", async () => {
    const { h, features } = await adminWorld();
    const buyer = chatPerson(h, BUYER);
    await buyer.starsSummary("bob_gifts", "⭐ 100");
    h.sandbox.injectFault(
      {
        type: "status",
        status: 400,
        body: { ok: false, error: "SESSION_EXPIRED", reason: LONG_REASON },
      },
      { path: "/buy-stars/" },
    );
    await buyer.pressButton("✅ Confirm");
    await features.idle();
    const alert = textsTo(h, ADMIN.id).find((text) => text.startsWith("⛔"));
    expect(alert).toContain("SESSION_EXPIRED | marketplace upstream failure xxx");
    expect(alert?.length).toBeLessThan(2000);
  });

  it("a refused recipient check: the person is asked again in a message that fits", async () => {
    const { h } = await adminWorld();
    const buyer = chatPerson(h, BUYER);
    await buyer.command("stars");
    h.sandbox.injectFault(
      { type: "status", status: 400, body: { ok: false, error: LONG_REASON } },
      { path: "/get-user-info/" },
    );
    await buyer.say("bob_gifts");
    const reply = buyer.lastMessage().text ?? "";
    expect(reply).toMatch(/@bob_gifts/);
    expect(reply.length).toBeLessThan(1000);
  });

  it("an unknown outcome: /pending shows the evidence with the reason cut", async () => {
    const { h, features } = await adminWorld();
    const buyer = chatPerson(h, BUYER);
    await buyer.starsSummary("bob_gifts", "⭐ 100");
    h.sandbox.injectFault(
      {
        type: "status",
        status: 400,
        body: { ok: false, error: LONG_REASON, unconfirmed: true },
      },
      { path: "/buy-stars/" },
    );
    await buyer.pressButton("✅ Confirm");
    await features.idle();
    const admin = chatPerson(h, ADMIN);
    await admin.command("pending");
    const evidence = admin.lastMessage().text ?? "";
    expect(evidence).toContain("marketplace upstream failure xxx");
    expect(evidence.length).toBeLessThan(2000);
    for (const text of textsTo(h, ADMIN.id)) {
      expect(text.length).toBeLessThanOrEqual(TELEGRAM_MAX_TEXT);
    }
  });

  it("the daily report quotes ten long reasons and still fits one message", async () => {
    const { en } = await translators();
    const report: DailyReport = {
      day: "2026-11-22",
      byStatus: { rejected: 10 },
      starsBought: 0,
      premiumGifts: 0,
      premiumMonths: 0,
      spent: [],
      unmeasured: 0,
      balanceStart: undefined,
      balanceEnd: undefined,
      limitsUsed: { stars: 0, premium: 0 },
      refusals: Array.from({ length: 10 }, (_, i) => ({ reason: `${i} ${LONG_REASON}`, count: 1 })),
      breakerOpenings: 0,
      unconfirmedNow: 0,
      limits: { starsPerBotDay: 10_000, premiumPerBotDay: 5 },
    };
    const text = dailyReportText(en, "en", report);
    expect(text).toContain("• 9 marketplace upstream failure xxx");
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_MAX_TEXT);
  });
});

describe("the breaker's alert", () => {
  it("quotes the latest five of a hundred refusals and counts the rest", async () => {
    const { en } = await translators();
    const refusals = Array.from({ length: 100 }, (_, i) => ({
      intentId: `intent-${i}`,
      at: Date.UTC(2026, 10, 22, 12, i % 60),
      status: 400,
      reason: `${i} ${LONG_REASON}`,
      kind: "unknown" as const,
    }));
    const text = breakerOpenedText(en, "en", { cause: "unknown", refusals, at: 0 }, undefined);
    expect(text).toContain("• 95 earlier refusals (see /purchases), then:");
    expect(text).toContain('purchase intent-99: "99 marketplace upstream failure xxx');
    expect(text).not.toContain("intent-94");
    expect(text.length).toBeLessThan(2000);
  });
});

describe("the last guard before Telegram", () => {
  it("cuts a text over 4,096 and a caption over 1,024 characters, never inside an emoji", async () => {
    const seen: Record<string, unknown>[] = [];
    const prev = (_method: string, payload: Record<string, unknown>) => {
      seen.push(payload);
      return Promise.resolve({ ok: true as const, result: true });
    };
    const call = fitToTelegram as unknown as (
      prev: unknown,
      method: string,
      payload: Record<string, unknown>,
    ) => Promise<unknown>;
    await call(prev, "sendMessage", { chat_id: 1, text: `${"a".repeat(4094)}😀😀` });
    await call(prev, "sendDocument", { chat_id: 1, caption: "c".repeat(2000) });
    await call(prev, "sendMessage", { chat_id: 1, text: "short" });
    expect(seen[0]?.text).toBe(`${"a".repeat(4094)}…`);
    expect(seen[1]?.caption).toBe(`${"c".repeat(1023)}…`);
    expect(seen[2]?.text).toBe("short");
  });
});
