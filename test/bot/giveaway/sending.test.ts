/**
 * Sending a confirmed giveaway through the real bot, the sandbox service and a real ledger:
 * one request per recipient, in the admin's order, through the purchase lane; Pause, Resume
 * and Cancel; an unknown outcome that stops the batch until it is settled; a buyer's Confirm
 * that goes before the batch's next recipient; a restart that goes on without a duplicate; the
 * summary and the CSV at the end.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it, vi } from "vitest";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import { ADMIN, adminWorld, BUYER } from "../../helpers/admin-bot.js";
import { answersSince } from "../../helpers/bot.js";
import type { PurchaseSlot } from "../../../src/service/types.js";

const FIVE = ["alice_friend", "bob_gifts", "carol_star", "dave_user", "erin_user"];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function confirmedGiveaway(
  recipients: string[] = FIVE,
  options: Parameters<typeof adminWorld>[0] = {},
) {
  const { h } = await adminWorld(options);
  const admin = chatPerson(h, ADMIN);
  await admin.command("giveaway");
  await admin.pressButton("⭐ Stars");
  await admin.pressButton("⭐ 50");
  await admin.say(recipients.join(" "));
  const before = h.telegram.mark();
  const confirm = admin.findButton("✅ Confirm");
  return { h, admin, before, confirm };
}

/** Waits for the batch and what it shows, as the admin would see them once it settles. */
async function settled(h: Awaited<ReturnType<typeof adminWorld>>["h"]): Promise<void> {
  await h.app.giveaways.runner.idle();
  await h.app.giveaways.idle();
}

function progressId(admin: ReturnType<typeof chatPerson>, since: number): number {
  const call = admin
    .callsSince(since)
    .find((c) => c.method === "sendMessage" && String(c.payload.text).startsWith("🎁 Giveaway"));
  if (call === undefined) throw new Error("no progress message");
  return (call.result as { message_id: number }).message_id;
}

function bought(h: Awaited<ReturnType<typeof adminWorld>>["h"]): string[] {
  return h.sandbox.purchaseRequests().map((r) => String(r.form?.username));
}

/** Takes every free slot of the client's quota, as other requests would; returned to give back. */
async function fillQuota(h: Awaited<ReturnType<typeof adminWorld>>["h"]): Promise<PurchaseSlot[]> {
  const slots: PurchaseSlot[] = [];
  for (let i = 0; i < 100 && h.client.estimateWait("purchase") === 0; i++) {
    slots.push(await h.client.reservePurchase());
  }
  return slots;
}

/** Purchases waiting for the client's quota now (a person's or a giveaway's). */
function purchasesWaiting(h: Awaited<ReturnType<typeof adminWorld>>["h"]): number {
  const queued = h.desk.fairShare().quota?.queued;
  return (queued?.purchase ?? 0) + (queued?.bulk ?? 0);
}

const WAIT = { timeout: 5_000, interval: 10 };

describe("a giveaway being sent", () => {
  it("sends each recipient once, in order, and ends with the summary and every outcome as CSV", async () => {
    const { h, admin, before, confirm } = await confirmedGiveaway();
    await admin.press(confirm.data, confirm.messageId);
    await settled(h);

    expect(bought(h)).toEqual(FIVE);
    const progress = h.telegram.message(ADMIN.id, progressId(admin, before));
    expect(progress?.text).toContain("Sent 5/5 ▓▓▓▓▓▓▓▓▓▓");
    expect(progress?.text).toContain("✅ Delivered: 5 · ❌ Refused: 0 · ❓ Unknown: 0");
    expect(progress?.text).toContain("✅ Finished.");
    expect(progress?.reply_markup?.inline_keyboard ?? []).toEqual([]);
    const summary = admin
      .callsSince(before)
      .filter((c) => c.method === "sendMessage")
      .at(-1);
    expect(String(summary?.payload.text)).toBe(
      [
        "🎁 Giveaway over: 5 delivered, 0 refused, 0 unknown, 0 not sent, of 5. Every recipient's outcome is in the list below.",
        "💸 Spent: 3.75 USDT",
      ].join("\n"),
    );
    const document = h.telegram.callsOf("sendDocument").at(-1);
    const file = Object.values(document?.payload ?? {}).find(
      (v): v is { filename: string; text: string } =>
        typeof v === "object" && v !== null && "filename" in v,
    );
    expect(file?.filename).toMatch(/^giveaway-[A-Za-z0-9_-]{12}\.csv$/);
    const rows = parse<Record<string, string>>(file?.text ?? "", { columns: true });
    expect(rows.map((row) => [row.recipient_username, row.status])).toEqual(
      FIVE.map((name) => [name, "succeeded"]),
    );
    // The batch's gifts are purchases like any other: the admins' list counts them.
    await admin.command("purchases");
    expect(admin.lastMessage().text).toContain("Recent purchases (1–5)");
  });

  it("the daily report counts the giveaway's gifts (they are purchases like any other)", async () => {
    const { h, admin, confirm } = await confirmedGiveaway(["win_a", "win_b", "win_c"], {
      reports: { reportHourUtc: 7 },
    });
    await admin.press(confirm.data, confirm.messageId);
    await settled(h);
    const day = new Date(h.clock()).toISOString().slice(0, 10);
    const tomorrow = Math.floor(h.clock() / DAY) * DAY + DAY;
    h.clock.advance(tomorrow + 7 * HOUR - h.clock());
    const mark = h.telegram.mark();
    expect(await h.app.sendDueReports()).toBeGreaterThan(0);
    const report = h.telegram
      .callsSince(mark)
      .filter((c) => c.method === "sendMessage" && Number(c.payload.chat_id) === ADMIN.id)
      .map((c) => String(c.payload.text))
      .find((text) => text.startsWith("📊"));
    expect(report).toContain(`Daily report for ${day} (UTC)`);
    expect(report).toContain("Bought: 150 stars");
  });

  it("Pause keeps the rest for later, Resume goes on from the next recipient, Cancel drops what is left", async () => {
    const { h, admin, before, confirm } = await confirmedGiveaway();
    // The first request is held, so Pause comes while it is out.
    h.sandbox.injectFault({ type: "delay", ms: 300 }, { path: "/buy-stars/", times: 1 });
    const pressing = admin.press(confirm.data, confirm.messageId);
    await h.sandbox.waitForRequests(1, "/buy-stars/");
    const id = progressId(admin, before);
    const pauseMark = h.telegram.mark();
    await admin.press(admin.findButton("⏸ Pause").data, id);
    await pressing;
    await settled(h);
    expect(answersSince(h, pauseMark)).toContain("Paused after the recipient being sent now.");
    expect(bought(h)).toEqual(["alice_friend"]);
    expect(h.telegram.message(ADMIN.id, id)?.text).toContain("⏸ Paused.");

    const resume = admin.findButton("▶️ Resume").data;
    await admin.press(resume, id);
    // Paused again after the next one: Resume went on from bob, not from alice. (The message's
    // buttons change at its next edit, up to 2 s later: the same Pause is pressed by its data.)
    await h.sandbox.waitForRequests(2, "/buy-stars/");
    await admin.press(resume.replace(":resume:", ":pause:"), id);
    await settled(h);
    const sentBeforeCancel = bought(h);
    expect(sentBeforeCancel.slice(0, 2)).toEqual(["alice_friend", "bob_gifts"]);

    const cancelMark = h.telegram.mark();
    const cancel = admin.findButton("✖️ Cancel the rest").data;
    await admin.press(cancel, id);
    await settled(h);
    expect(answersSince(h, cancelMark)).toContain("Cancelled: nothing more will be sent.");
    expect(bought(h)).toEqual(sentBeforeCancel);
    expect(h.telegram.message(ADMIN.id, id)?.text).toContain("✖️ Cancelled");
    const left = 5 - sentBeforeCancel.length;
    // The progress counts the same whole as the summary: sent of all five, the rest not sent.
    const shownAfter = h.telegram.message(ADMIN.id, id)?.text ?? "";
    expect(shownAfter).toContain(`Sent ${String(sentBeforeCancel.length)}/5 `);
    expect(shownAfter).toContain(`✖️ Not sent: ${String(left)}`);
    expect(
      admin
        .callsSince(cancelMark)
        .some((c) => String(c.payload.text).includes(`${left} not sent, of 5`)),
    ).toBe(true);
    // A second Cancel, or a Resume of the cancelled batch, acts no more.
    const again = h.telegram.mark();
    await admin.press(cancel, id);
    await admin.press(cancel.replace(":cancel:", ":resume:"), id);
    expect(answersSince(h, again)).toEqual([
      "This button is no longer active.",
      "This button is no longer active.",
    ]);
    expect(bought(h)).toEqual(sentBeforeCancel);
  });

  it("stops at an unknown outcome, tells the admins, and after settling goes on without resending", async () => {
    const { h, admin, before, confirm } = await confirmedGiveaway();
    // The first request is held while the second one's 503 (ambiguous) is set up.
    h.sandbox.injectFault({ type: "delay", ms: 300 }, { path: "/buy-stars/" });
    const pressing = admin.press(confirm.data, confirm.messageId);
    await h.sandbox.waitForRequests(1, "/buy-stars/");
    h.sandbox.injectFault({ type: "status", status: 503 }, { path: "/buy-stars/" });
    await pressing;
    await settled(h);
    expect(bought(h)).toEqual(["alice_friend", "bob_gifts"]);
    const id = progressId(admin, before);
    expect(h.telegram.message(ADMIN.id, id)?.text).toContain(
      "Stopped: a purchase's outcome is unknown",
    );
    await h.app.notifier.idle();
    expect(
      admin
        .messages()
        .some((m) => /unknown outcome: 50 Telegram Stars to @bob_gifts/.test(m.text ?? "")),
    ).toBe(true);

    // Resume is refused while the outcome is unknown.
    const early = h.telegram.mark();
    await admin.press(admin.findButton("▶️ Resume").data, id);
    expect(answersSince(h, early).at(-1)).toContain("Purchases are paused or on hold");
    expect(bought(h)).toHaveLength(2);

    const [unknown] = await h.records.unconfirmed();
    if (unknown === undefined) throw new Error("nothing unconfirmed");
    await h.desk.admin.resolve(unknown.id, ADMIN.id, true);
    await admin.press(admin.findButton("▶️ Resume").data, id);
    await settled(h);
    expect(bought(h)).toEqual(FIVE);
    expect(h.telegram.message(ADMIN.id, id)?.text).toContain("✅ Delivered: 5");
  });

  it("a buyer's Confirm during the giveaway goes before the giveaway's next recipient", async () => {
    const { h, admin, confirm } = await confirmedGiveaway();
    const buyer = chatPerson(h, BUYER);
    const summary = await buyer.starsSummary("zed_friend", "⭐ 50");
    // The giveaway's first request is held while the buyer confirms.
    h.sandbox.injectFault({ type: "delay", ms: 2_000 }, { path: "/buy-stars/", times: 1 });
    const pressing = admin.press(confirm.data, confirm.messageId);
    await h.sandbox.waitForRequests(1, "/buy-stars/");
    const buyerConfirm = buyer.press(buyer.findButton("✅ Confirm").data, summary.message_id);
    await vi.waitFor(
      async () =>
        expect((await h.records.recent({ limit: 20 })).some((i) => i.status === "queued")).toBe(
          true,
        ),
      { timeout: 1_500, interval: 20 },
    );
    await Promise.all([pressing, buyerConfirm]);
    await settled(h);
    expect(bought(h)).toEqual(["alice_friend", "zed_friend", ...FIVE.slice(1)]);
  });

  it("a buyer's Confirm goes before the giveaway's recipient that waits for the quota", async () => {
    const { h, admin, confirm } = await confirmedGiveaway(FIVE, { sandbox: { quota: false } });
    const buyer = chatPerson(h, BUYER);
    const summary = await buyer.starsSummary("zed_friend", "⭐ 50");
    const others = await fillQuota(h);
    await admin.press(confirm.data, confirm.messageId);
    // The giveaway's first recipient waits for a slot.
    await vi.waitFor(() => expect(purchasesWaiting(h)).toBe(1), WAIT);
    const buyerConfirm = buyer.press(buyer.findButton("✅ Confirm").data, summary.message_id);
    await vi.waitFor(
      async () =>
        expect((await h.records.recent({ limit: 20 })).some((i) => i.status === "queued")).toBe(
          true,
        ),
      WAIT,
    );
    // One slot frees: it is the buyer's, though the giveaway's recipient waited longer.
    others.pop()?.giveBack();
    await h.sandbox.waitForRequests(1, "/buy-stars/");
    expect(bought(h)).toEqual(["zed_friend"]);
    await buyerConfirm;
    for (const slot of others) slot.giveBack();
    await settled(h);
    expect(bought(h)).toEqual(["zed_friend", ...FIVE]);
  });

  it("a stop while the giveaway's recipient waits for the quota claims nothing; the restart sends it", async () => {
    const { h, admin, confirm } = await confirmedGiveaway(FIVE, { sandbox: { quota: false } });
    await fillQuota(h);
    await admin.press(confirm.data, confirm.messageId);
    await vi.waitFor(() => expect(purchasesWaiting(h)).toBe(1), WAIT);
    const batchId = (await h.app.giveaways.runner.runningBatches())[0]?.id ?? "";
    await h.restart();
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
    const left = await h.app.giveaways.runner.intents(batchId);
    expect(left.map((intent) => intent.status)).toEqual(FIVE.map(() => "draft"));
    expect(await h.app.giveaways.resumeRunning()).toBe(1);
    await settled(h);
    expect(bought(h)).toEqual(FIVE);
  });

  it("a restart goes on where the batch was, with no recipient sent twice", async () => {
    const { h, admin, before, confirm } = await confirmedGiveaway();
    const pressing = admin.press(confirm.data, confirm.messageId);
    await h.sandbox.waitForRequests(2, "/buy-stars/");
    await pressing;
    // A new process on the same database (its stop lets the recipient being sent finish).
    await h.restart();
    expect(await h.app.giveaways.resumeRunning()).toBe(1);
    await settled(h);
    expect(bought(h)).toEqual(FIVE);
    const id = progressId(admin, before);
    expect(h.telegram.message(ADMIN.id, id)?.text).toContain("✅ Finished.");
  });
});
