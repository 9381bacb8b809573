/**
 * Giveaways through the built bot process, as an admin runs one in Telegram (the emulator) with
 * the sandbox as the service: a 30-entry list with duplicates, names that are not usernames,
 * Premium holders and unknown names; a SIGKILL in the middle and a restart; Pause and Cancel;
 * an unknown outcome that stops the batch until an admin settles it; and a buyer's gift sent
 * while a giveaway runs, all within one window of the service's quota.
 */
import { describe, expect, it, onTestFailed } from "vitest";
import type { ChatViewMessage } from "../../tools/telegram-emulator/types.js";
import {
  buttons,
  DEMO_ADMIN,
  DEMO_USER,
  Person,
  startBot,
  starsSummary,
  startWorld,
  WAIT_MS,
  type World,
} from "../helpers/built-process.js";

const STARS = "/buy-stars/";

/** 30 entries: 22 people once (3 with Premium, 3 unknown), 4 written again, 4 not usernames. */
const THIRTY = [
  ...Array.from({ length: 16 }, (_, i) => `@winner_${String(i).padStart(2, "0")}`),
  "premium_pat, premium_pia; t.me/premium_poe",
  "nobody_one nobody_two https://t.me/nobody_three",
  "WINNER_00 @winner_01 t.me/Winner_02 https://t.me/winner_03",
  "12345 a-b @@x https://example.com/x",
].join("\n");

/** Generous enough limits that only what a test sets stops a giveaway. */
const ROOMY = { LIMIT_STARS_PER_USER_DAY: "100000", LIMIT_STARS_PER_DAY: "1000000" };

/** /giveaway, stars, 50 each, the list: resolves with the card. */
async function giveawayCard(ada: Person, list: string): Promise<ChatViewMessage> {
  const kind = await ada.say("/giveaway");
  const amount = await ada.pressForMessage(kind, "⭐ Stars");
  await ada.pressForMessage(amount, "⭐ 50");
  await ada.say(list);
  return ada.waitForMessage(/^🎁 Giveaway: 50 Telegram Stars for each recipient\n/);
}

/** Confirm on the card: resolves with the progress message of the batch. */
async function confirm(ada: Person, card: ChatViewMessage): Promise<ChatViewMessage> {
  const after = ada.lastMessageId();
  await ada.press(card, "✅ Confirm");
  return ada.emulator.waitFor(
    (e) => e.chat(ada.chatId).find((m) => m.id > after && m.text.startsWith("🎁 Giveaway:")),
    { timeoutMs: WAIT_MS },
  );
}

/** On failure, the admin's chat as it stands (what the test waited for and did not see). */
function showChatOnFailure(world: World): void {
  onTestFailed(() => {
    const chat = world.emulator.chat(DEMO_ADMIN.id).slice(-5);
    console.log(chat.map((m) => `#${m.id} ${m.text} ${JSON.stringify(buttons(m))}`).join("\n"));
  });
}

/** Message `id` once it carries a button labelled `label` (buttons change at the next edit). */
function withButton(ada: Person, id: number, label: string): Promise<ChatViewMessage> {
  return ada.emulator.waitFor(
    (e) => e.chat(ada.chatId).find((m) => m.id === id && buttons(m).flat().includes(label)),
    { timeoutMs: WAIT_MS },
  );
}

/** How many purchase requests each recipient got. */
function requestsPerRecipient(world: World): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of world.sandbox.purchaseRequests()) {
    const name = String(request.form?.username);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

const WINNERS = Array.from({ length: 16 }, (_, i) => `winner_${String(i).padStart(2, "0")}`);

describe("giveaways through the bot process", { timeout: 60_000 }, () => {
  it("a 30-entry list: the card, then a SIGKILL mid-way and a restart that goes on with no recipient bought twice", async () => {
    const world = await startWorld();
    showChatOnFailure(world);
    // 22 checks, then two requests per recipient (its purchase, and the balance read after it
    // that measures its cost): more than one minute of the default quota, which this test is
    // not about (the sandbox's own quota is off).
    const settings = { ...ROOMY, SERVICE_QUOTA_PER_MINUTE: "120" };
    let bot = await startBot(world, settings);
    const ada = new Person(world.emulator, DEMO_ADMIN.id);
    const card = await giveawayCard(ada, THIRTY);
    expect(card.text).toContain("✅ Can receive (19): @winner_00, @winner_01");
    expect(card.text).toContain("❓ Not found (3): @nobody_one, @nobody_two, @nobody_three");
    expect(card.text).toContain('✏️ Not usernames (4): "12345", "a-b", "@@x"');
    expect(buttons(card)[0]).toEqual(["✅ Confirm", "✖️ Cancel"]);
    expect(world.sandbox.requests.filter((r) => r.path === "/get-user-info/")).toHaveLength(22);

    // Each purchase takes a while, so the process is killed with the batch half sent.
    world.sandbox.injectFault({ type: "delay", ms: 150 }, { path: STARS, times: 100 });
    const progress = await confirm(ada, card);
    await world.sandbox.waitForRequests(6, STARS);
    bot.child.kill("SIGKILL");
    await bot.exited;
    const atKill = world.sandbox.purchaseRequests().length;
    expect(atKill).toBeLessThan(19);

    bot = await startBot(world, settings);
    // The recipient whose request was out at the kill is an unknown outcome now: purchases are
    // on hold and the batch stops for an admin to settle it (or, killed between two recipients,
    // it goes straight on).
    const stoppedOrDone = await ada.waitForText(progress.id, /⛔ Stopped|✅ Finished/);
    if (/Stopped/.test(stoppedOrDone.text)) {
      const alert = await ada.waitForMessage(/unknown outcome: 50 Telegram Stars/);
      await ada.press(alert, "✅ Delivered");
      await ada.press(await withButton(ada, progress.id, "▶️ Resume"), "▶️ Resume");
    }
    await ada.waitForText(progress.id, /✅ Finished\./);
    const counts = requestsPerRecipient(world);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(counts.size).toBe(19);
    await ada.waitForMessage(/^🎁 Giveaway over: /);
    expect(bot.output()).not.toContain(String((await world.env()).WALLET_MNEMONIC));
  });

  it("Pause and Resume, an unknown outcome that stops the batch until settled, and Cancel of the rest", async () => {
    const world = await startWorld();
    showChatOnFailure(world);
    await startBot(world, ROOMY);
    const ada = new Person(world.emulator, DEMO_ADMIN.id);
    const card = await giveawayCard(ada, WINNERS.slice(0, 8).join(" "));
    // The first request is held so that Pause comes while it is out.
    world.sandbox.injectFault({ type: "delay", ms: 500 }, { path: STARS });
    const progress = await confirm(ada, card);
    await world.sandbox.waitForRequests(1, STARS);
    const pause = await ada.press(await withButton(ada, progress.id, "⏸ Pause"), "⏸ Pause");
    expect(pause.text).toBe("Paused after the recipient being sent now.");
    await ada.waitForText(progress.id, /⏸ Paused\./);
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);

    // Resumed: the next request is refused ambiguously (503), which stops the batch.
    world.sandbox.injectFault({ type: "status", status: 503 }, { path: STARS });
    await ada.press(await withButton(ada, progress.id, "▶️ Resume"), "▶️ Resume");
    await ada.waitForText(progress.id, /Stopped: a purchase's outcome is unknown/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(2);
    const alert = await ada.waitForMessage(/unknown outcome: 50 Telegram Stars to @winner_01/);
    const early = await ada.press(await withButton(ada, progress.id, "▶️ Resume"), "▶️ Resume");
    expect(early.text).toMatch(/Purchases are paused or on hold/);
    await ada.press(alert, "❌ Not delivered");

    // Settled: Resume goes on from the next recipient; winner_01 is never asked again.
    world.sandbox.injectFault({ type: "delay", ms: 500 }, { path: STARS });
    await ada.press(await withButton(ada, progress.id, "▶️ Resume"), "▶️ Resume");
    await world.sandbox.waitForRequests(3, STARS);
    const cancel = await ada.press(
      await withButton(ada, progress.id, "✖️ Cancel the rest"),
      "✖️ Cancel the rest",
    );
    expect(cancel.text).toBe("Cancelled: nothing more will be sent.");
    await ada.waitForText(progress.id, /✖️ Cancelled/);
    const summary = await ada.waitForMessage(/^🎁 Giveaway over: /);
    expect(summary.text).toContain("of 8");
    const counts = requestsPerRecipient(world);
    expect(counts.get("winner_01")).toBe(1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(counts.size).toBeLessThan(8);
  });

  it("a buyer's gift during a running giveaway is sent before its next recipient, all within one quota window", async () => {
    // The service's real quota: 30 requests a minute, counted by the sandbox too.
    const world = await startWorld({ sandbox: { quota: { limit: 30, windowMs: 60_000 } } });
    await startBot(world, ROOMY);
    const ada = new Person(world.emulator, DEMO_ADMIN.id);
    const uma = new Person(world.emulator, DEMO_USER.id);
    // Six winners: a giveaway leaves the window's last 3 slots to people, so all of it fits in
    // the 27 others (checks, summaries, purchases and the reads that measure them).
    const card = await giveawayCard(ada, WINNERS.slice(0, 6).join(" "));
    const summary = await starsSummary(uma, "alice_friend");
    // The giveaway's first request is held while Uma confirms her own gift.
    world.sandbox.injectFault({ type: "delay", ms: 1_500 }, { path: STARS });
    await confirm(ada, card);
    await world.sandbox.waitForRequests(1, STARS);
    await uma.press(summary, "✅ Confirm");
    await uma.waitForText(summary.id, /Delivered: 50 Telegram Stars to @alice_friend/);
    await ada.waitForMessage(/^🎁 Giveaway over: 6 delivered/);

    const order = world.sandbox.purchaseRequests().map((r) => String(r.form?.username));
    expect(order[0]).toBe("winner_00");
    expect(order[1]).toBe("alice_friend");
    expect(order.slice(2)).toEqual(WINNERS.slice(1, 6));
    // 6 checks, Uma's check, 7 purchases and the balance reads: all in one window (a 31st
    // request would have been refused 429, and a refused purchase is not delivered).
    expect(world.sandbox.requests.length).toBeLessThanOrEqual(30);
  });
});
