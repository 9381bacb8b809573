/**
 * The admins' side through the real process: /balance in a private chat, and a group
 * administrator gifting premium to a member by replying to their message.
 */
import { describe, expect, it } from "vitest";
import {
  buttons,
  DEMO_ADMIN,
  DEMO_GROUP,
  DEMO_USER,
  Person,
  startBot,
  startWorld,
  WAIT_MS,
} from "../helpers/built-process.js";

describe("the bot process: admins", () => {
  it("an admin's /balance shows the wallet, today's purchases and that buying is open", async () => {
    const world = await startWorld();
    await startBot(world);
    const ada = new Person(world.emulator, DEMO_ADMIN.id);

    const balance = await ada.say("/balance");
    const lines = balance.text.split("\n");
    expect(lines[0]).toBe("💰 Wallet");
    expect(balance.text).toMatch(/^TON: 100$/m);
    expect(balance.text).toMatch(/^USDT: 1,?000$/m);
    expect(balance.text).toMatch(/^Address: UQ\S{46}$/m);
    expect(balance.text).toMatch(/^Purchases: open$/m);

    // From someone who is not an admin it is not a command at all: nothing about the wallet.
    // (Updates of one chat are handled in order, so /history's answer comes after /balance's.)
    const uma = new Person(world.emulator, DEMO_USER.id);
    const asked = world.emulator.sendText(DEMO_USER.id, DEMO_USER.id, "/balance");
    const history = await uma.say("/history");
    const after = world.emulator
      .chat(DEMO_USER.id)
      .filter((m) => m.fromBot && m.id > asked.messageId);
    expect(after.map((m) => m.id)).toEqual([history.id]);
    expect(after.map((m) => m.text).join("\n")).not.toMatch(/Wallet|\d TON|\d USDT/);
  });

  it("a group administrator gifts premium to a member by replying to their message", async () => {
    const world = await startWorld();
    await startBot(world);
    const inGroup = new Person(world.emulator, DEMO_ADMIN.id, DEMO_GROUP.id);

    // Uma writes in the group; the bot (privacy mode) does not see it, but Ada can reply to it.
    const hello = world.emulator.sendText(DEMO_USER.id, DEMO_GROUP.id, "hi all");
    const prompt = await inGroup.say("/premium", { replyTo: hello.messageId });
    expect(prompt.text).toBe("Telegram Premium for @uma_user: for how long?");
    expect(buttons(prompt)).toEqual([["3 months", "6 months", "12 months"], ["✖️ Cancel"]]);

    const summary = await inGroup.pressForMessage(prompt, "6 months");
    expect(summary.text).toContain("Recipient: @uma_user\nGift: Telegram Premium for 6 months");
    // Operator figures never appear in a group.
    expect(summary.text).not.toMatch(/balance|\d TON|\d USDT/i);
    await world.emulator.waitFor((e) => !e.chat(DEMO_GROUP.id).some((m) => m.id === prompt.id), {
      timeoutMs: WAIT_MS,
    });

    // Only the administrator who started it may confirm: Uma's press buys nothing.
    const other = world.emulator.pressButtonLabeled(
      DEMO_USER.id,
      DEMO_GROUP.id,
      summary.id,
      "✅ Confirm",
    );
    await world.emulator.waitFor(
      (e) => e.callbackAnswers.find((a) => a.callbackQueryId === other.callbackQueryId),
      { timeoutMs: WAIT_MS },
    );
    expect(world.sandbox.purchaseRequests()).toHaveLength(0);

    await inGroup.press(summary, "✅ Confirm");
    await inGroup.waitForText(
      summary.id,
      /^✅ Delivered: Telegram Premium for 6 months to @uma_user\./,
    );
    const purchases = world.sandbox.purchaseRequests();
    expect(purchases).toHaveLength(1);
    expect(purchases[0]?.form).toMatchObject({ username: "uma_user", duration: "6" });
  });
});
