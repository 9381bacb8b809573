/**
 * Premium through Telegram in the built process (issue #39), against the emulator's Stars: a
 * group administrator's gift goes out as one `giftPremiumSubscription` at Telegram's price and the
 * service is never asked; `telegram-first` falls back to the service for an unseen username; a
 * lost answer of a gift Telegram made settles itself from the bot's Star transactions, one it
 * did not make waits for an admin, and neither is sent again; not enough Stars is refused before
 * any call; a top-up invoice paid in the emulator raises the balance and is in the books. The
 * wallet's phrase and the cookie never travel with any of it.
 */
import { describe, expect, it } from "vitest";
import { openSqliteStorage } from "../../src/storage/sqlite/open.js";
import {
  buttons,
  DEMO_ADMIN,
  DEMO_GROUP,
  DEMO_USER,
  Person,
  startBot,
  startWorld,
  secretsIn,
  WAIT_MS,
} from "../helpers/built-process.js";

const TELEGRAM_FIRST = { PREMIUM_VIA: "telegram-first" };

async function telegramWorld(balance: number) {
  const world = await startWorld();
  world.emulator.state.stars.balance = balance;
  const bot = await startBot(world, TELEGRAM_FIRST);
  const secrets = await world.env();
  return { world, bot, secrets };
}

/** Neither the wallet's phrase nor the cookie in any call the bot made to Telegram. */
function expectNoSecretOnTheWire(
  calls: readonly { payload: unknown }[],
  secrets: Record<string, string>,
): void {
  const wire = JSON.stringify(calls.map((call) => call.payload));
  // Two consecutive words of the phrase, not one: a single word of the demo's random phrase
  // ("old") can be part of any text ("on hold until").
  expect(secretsIn(wire, secrets)).toEqual([]);
}

describe("the bot process: Premium through Telegram", () => {
  it("a group administrator's gift by reply: one call, the right star_count, the service never asked; an unseen username goes through the service", async () => {
    const { world, secrets } = await telegramWorld(3000);
    const inGroup = new Person(world.emulator, DEMO_ADMIN.id, DEMO_GROUP.id);
    const hello = world.emulator.sendText(DEMO_USER.id, DEMO_GROUP.id, "hi all");
    const prompt = await inGroup.say("/premium", { replyTo: hello.messageId });
    const summary = await inGroup.pressForMessage(prompt, "6 months");
    expect(summary.text).toContain(
      "Payment: 1,500 Telegram Stars from the bot's own balance (through Telegram, no wallet)",
    );
    const serviceBefore = world.sandbox.requests.length;
    await inGroup.press(summary, "✅ Confirm");
    await inGroup.waitForText(
      summary.id,
      /^✅ Delivered: Telegram Premium for 6 months to @uma_user\./,
    );
    expect(world.emulator.state.stars.giftCalls).toEqual([
      { userId: DEMO_USER.id, months: 6, starCount: 1500 },
    ]);
    expect(world.emulator.state.stars.balance).toBe(1500);
    expect(world.sandbox.requests.length).toBe(serviceBefore);
    expect(world.sandbox.purchaseRequests()).toHaveLength(0);
    expectNoSecretOnTheWire(world.emulator.calls, secrets);

    // A username the bot has never seen: through the service, never guessed.
    const ask = await inGroup.say("/premium @carol_p");
    expect(ask.text).toBe("Telegram Premium for @carol_p: for how long?");
    const viaService = await inGroup.pressForMessage(ask, "3 months");
    expect(viaService.text).toContain("Payment: USDT on TON");
    await inGroup.press(viaService, "✅ Confirm");
    await inGroup.waitForText(viaService.id, /^✅ Delivered/);
    expect(world.sandbox.purchaseRequests().map((r) => r.form)).toEqual([
      expect.objectContaining({ username: "carol_p", duration: "3" }),
    ]);
    expect(world.emulator.state.stars.giftCalls).toHaveLength(1);
  });

  it("a lost answer of a gift made settles itself; one not made waits for an admin; neither is resent", async () => {
    const { world, secrets } = await telegramWorld(5000);
    const uma = new Person(world.emulator, DEMO_USER.id);
    await uma.say("/start");
    const ada = new Person(world.emulator, DEMO_ADMIN.id);

    world.emulator.state.stars.fault("lost");
    await ada.say("/premium");
    const months = await ada.say("@uma_user");
    const summary = await ada.pressForMessage(months, "3 months");
    await ada.press(summary, "✅ Confirm");
    await ada.waitForText(
      summary.id,
      /^✅ Delivered: Telegram Premium for 3 months to @uma_user\.\nTelegram's answer was lost, but the bot's Telegram Star transactions show the gift was made\./,
    );
    await ada.waitForMessage(/^📒 Telegram's answer to a Premium gift was lost/);
    expect(world.emulator.state.stars.balance).toBe(4000);

    world.emulator.state.stars.fault("error");
    await ada.say("/premium");
    const again = await ada.say("@uma_user");
    const second = await ada.pressForMessage(again, "3 months");
    await ada.press(second, "✅ Confirm");
    await ada.waitForMessage(
      /^⚠️ A purchase ended with an unknown outcome: Telegram Premium for 3 months to @uma_user\./,
    );
    const alert = await ada.waitForMessage(/^⚠️ A purchase ended with an unknown outcome/);
    expect(alert.text).toContain(
      "Paid through Telegram from the bot's Telegram Stars: 1,000 Stars",
    );
    // The first gift's transaction matches too, and is explained by it: no proof for this one.
    expect(alert.text).toContain(
      "1 Premium gift(s) to this user for this duration since the request, 1 of them explained by other gifts. No proof",
    );
    expect(alert.text).toContain("The bot's Stars before the gift: 4,000; now: 4,000.");
    expect(alert.text).toContain("Check whether the recipient has Premium from this gift");
    expect(world.emulator.state.stars.giftCalls).toHaveLength(2);
    expect(world.emulator.state.stars.balance).toBe(4000);
    expect(world.sandbox.purchaseRequests()).toHaveLength(0);
    expectNoSecretOnTheWire(world.emulator.calls, secrets);
  });

  it(
    "not enough Stars is refused before any call; a top-up invoice paid raises the balance and is in the books",
    async () => {
      const { world, bot } = await telegramWorld(500);
      const uma = new Person(world.emulator, DEMO_USER.id);
      await uma.say("/start");
      const ada = new Person(world.emulator, DEMO_ADMIN.id);
      await ada.say("/premium");
      const months = await ada.say("@uma_user");
      const summary = await ada.pressForMessage(months, "3 months");
      expect(summary.text).toContain("The bot's Telegram Stars: 500");
      await ada.press(summary, "✅ Confirm");
      await ada.waitForText(
        summary.id,
        /the bot holds 500 Telegram Stars and this gift costs 1,000/,
      );
      expect(world.emulator.state.stars.giftCalls).toHaveLength(0);

      const invoice = await ada.say("/topup 1000");
      expect(buttons(invoice)).toEqual([["Pay ⭐️1000"]]);
      world.emulator.pressButtonLabeled(DEMO_ADMIN.id, DEMO_ADMIN.id, invoice.id, "Pay ⭐️1000");
      await ada.waitForMessage(
        /^⭐ Thank you: 1,000 Telegram Stars were added to the bot's balance .*The bot now holds 1,500 Stars\.$/,
      );
      expect(world.emulator.state.stars.balance).toBe(1500);

      await ada.press(summary, "✅ Confirm");
      await ada.waitForText(
        summary.id,
        /^✅ Delivered: Telegram Premium for 3 months to @uma_user\./,
      );
      expect(world.emulator.state.stars.giftCalls).toHaveLength(1);

      bot.child.kill("SIGTERM");
      await bot.exited;
      const storage = await openSqliteStorage(world.databasePath);
      try {
        expect(await storage.starTopUps.recentTopUps(5)).toEqual([
          expect.objectContaining({ userId: DEMO_ADMIN.id, stars: 1000 }),
        ]);
      } finally {
        await storage.close();
      }
    },
    4 * WAIT_MS,
  );
});
