import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { buttonsOf, chatPerson } from "../../../tools/testing/chat-person.js";
import { testUser } from "../../../tools/testing/updates.js";
import { answersSince } from "../../helpers/bot.js";
import {
  ADMIN,
  adminWorld,
  BUYER,
  forwardedMessage,
  GROUP_ID,
  groupMessage,
  OTHER_GROUP_ID,
  privateMessage,
  STRANGER,
  WALLET,
} from "../../helpers/admin-bot.js";

const ADMIN_COMMANDS = [
  "balance",
  "purchases",
  "pending",
  "pause",
  "resume",
  "allow",
  "deny",
  "allowed",
  "limits",
  "allowchat",
  "denychat",
];

describe("admin commands are refused to everyone else", () => {
  it("a stranger and a buyer get exactly what an unknown command gets, and nothing changes", async () => {
    const { h, access } = await adminWorld();
    for (const user of [STRANGER, BUYER]) {
      const unknownMark = h.telegram.mark();
      await h.send(privateMessage(user, "/frobnicate"));
      const unknown = h.telegram.callsSince(unknownMark).map((c) => [c.method, c.payload]);
      for (const command of ADMIN_COMMANDS) {
        const mark = h.telegram.mark();
        await h.send(privateMessage(user, `/${command} 424242`));
        expect(
          h.telegram.callsSince(mark).map((c) => [c.method, c.payload]),
          `/${command}`,
        ).toEqual(unknown);
      }
    }
    expect(await h.records.status()).toEqual({ paused: false, unconfirmed: 0 });
    expect(await access.mayBuy(424242)).toBe(false);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("admin buttons pressed by a non-admin, and forged admin data, are answered and do nothing", async () => {
    const { h } = await adminWorld();
    const sam = chatPerson(h, STRANGER);
    const ada = chatPerson(h, ADMIN);
    const before = h.telegram.mark();
    await sam.press("adm:who:allow:3001", 1);
    await sam.press("adm:page:5", 1);
    await ada.press("adm:res:y:not an id", 1);
    await ada.press("adm:page:3", 1);
    await ada.press("adm:who:maybe:3001", 1);
    expect(answersSince(h, before)).toEqual(Array(5).fill("This button is not valid."));
    const sam2 = chatPerson(h, STRANGER);
    await sam2.command("stars");
    expect(sam2.lastMessage().text).toMatch(/^Purchases are not open to you/);
  });
});

describe("/balance and /limits", () => {
  it("shows the balances, the paying wallet, today's purchases and whether buying is open", async () => {
    const { h } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    await bea.giftStars("bob_gifts", "⭐ 100");
    const ada = chatPerson(h, ADMIN);
    await ada.command("balance");
    expect(ada.lastMessage().text).toBe(
      [
        "💰 Wallet",
        "",
        "TON: 100",
        "USDT: 998.5",
        `Address: ${WALLET.address}`,
        "Wallet version: v5r1",
        "",
        "Today (UTC): one purchase sent; 100 stars and 0 Premium gifts counted against the limits",
        "Purchases: open",
      ].join("\n"),
    );
    await ada.command("pause");
    await ada.command("balance");
    expect(ada.lastMessage().text).toMatch(/\nPurchases: ⏸ paused \(\/resume to reopen\)$/);
  });

  it("/limits shows the limits in force and today's use", async () => {
    const { h } = await adminWorld({
      limits: { starsPerPurchase: 5000, starsPerBotDay: 20000, premiumPerBotDay: 3 },
    });
    await chatPerson(h, BUYER).giftStars("bob_gifts", "⭐ 250");
    const ada = chatPerson(h, ADMIN);
    await ada.command("limits");
    const text = ada.lastMessage().text ?? "";
    expect(text).toMatch(/^Spending limits \(today's use resets on .+ UTC\):\n\n/);
    expect(text).toContain("Stars in one purchase: up to 5,000");
    expect(text).toContain("Stars per day for everyone: 250 of 20,000 used");
    expect(text).toContain("Premium gifts per day for everyone: 0 of 3 used");
  });
});

describe("/purchases", () => {
  it("lists recent intents in pages with buttons, and shows one by id", async () => {
    const { h } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    for (let i = 0; i < 6; i++) await bea.giftStars(`bob_gifts${i}`, "⭐ 50");
    const ada = chatPerson(h, ADMIN);
    await ada.command("purchases");
    const first = ada.lastMessage();
    const lines = (first.text ?? "").split("\n");
    expect(lines[0]).toBe("Recent purchases (1–5), newest first:");
    expect(lines[2]).toMatch(
      new RegExp(
        `^1\\. .+: 50 Telegram Stars to @bob_gifts5, delivered, by @bea_buyer \\(${BUYER.id}\\)$`,
      ),
    );
    expect(lines.at(-1)).toBe(
      "Press a number to open that purchase. Any purchase by its id: /purchases <id>",
    );
    expect(buttonsOf(first)).toEqual([["1", "2", "3", "4", "5"], ["Older ▶"]]);

    await ada.pressButton("Older ▶");
    const second = h.telegram.message(ada.chatId, first.message_id);
    expect(second?.text?.split("\n")[0]).toBe("Recent purchases (6–6), newest first:");
    expect(second?.text).toContain("@bob_gifts0");
    expect(buttonsOf(second)).toEqual([["6"], ["◀ Newer"]]);

    const id = (await h.records.recent({ limit: 1, offset: 0 }))[0]?.id ?? "";
    await ada.command("purchases", id);
    const details = ada.lastMessage().text ?? "";
    expect(details.split("\n").slice(0, 6)).toEqual([
      `Purchase ${id}`,
      "",
      "Gift: 50 Telegram Stars to @bob_gifts5",
      "Status: delivered",
      "Payment: USDT on TON",
      `Asked by @bea_buyer (${BUYER.id}) in a private chat`,
    ]);
    expect(details).toMatch(/\nTransaction: https:\/\/tonviewer\.com\/transaction\/\S+/);

    await ada.command("purchases", "nope_123");
    expect(ada.lastMessage().text).toBe("There is no purchase with id nope_123.");
  });
});

describe("the kill switch", () => {
  it("/pause stops every purchase and /resume reopens them", async () => {
    const { h } = await adminWorld();
    const ada = chatPerson(h, ADMIN);
    const bea = chatPerson(h, BUYER);
    await bea.starsSummary("bob_gifts", "⭐ 50");
    const confirm = bea.findButton("✅ Confirm");

    await ada.command("pause");
    expect(ada.lastMessage().text).toBe("⏸ Purchases are paused. Nobody can buy until /resume.");
    const before = h.telegram.mark();
    await bea.press(confirm.data, confirm.messageId);
    expect(answersSince(h, before)).toEqual(["Purchases are paused by the admins for now."]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);

    await ada.command("resume");
    expect(ada.lastMessage().text).toBe("▶ Purchases are open again.");
    await bea.press(confirm.data, confirm.messageId);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("the breaker's Resume button lifts only the breaker's pause, never an admin's", async () => {
    const { h } = await adminWorld();
    const ada = chatPerson(h, ADMIN);
    await ada.command("help");
    const alert = ada.lastMessage().message_id;

    // An old alert pressed after an admin paused on purpose: still paused, and said why.
    await ada.command("pause");
    let before = h.telegram.mark();
    await ada.press("adm:resume", alert);
    expect(answersSince(h, before)).toEqual([
      "Purchases are now paused by an admin, not by the breaker: /resume reopens them.",
    ]);
    expect((await h.records.status()).paused).toBe(true);

    // The breaker's own pause is what the button lifts.
    await ada.command("resume");
    await h.desk.pauseByBreaker({ cause: "session" });
    await ada.command("balance");
    expect(ada.lastMessage().text).toContain(
      "Purchases: ⛔ paused by themselves after refusals from the service (/resume to reopen)",
    );
    before = h.telegram.mark();
    await ada.press("adm:resume", alert);
    expect(answersSince(h, before)).toEqual(["▶ Purchases are open again."]);
    expect((await h.records.status()).paused).toBe(false);

    // Pressed again once open: nothing changes.
    before = h.telegram.mark();
    await ada.press("adm:resume", alert);
    expect(answersSince(h, before)).toEqual([
      "The breaker's pause is already lifted: purchases are open.",
    ]);
  });
});

describe("who may buy: /allow, /deny, /allowed", () => {
  it("by user id", async () => {
    const { h, access } = await adminWorld();
    const ada = chatPerson(h, ADMIN);
    await ada.command("allow", String(STRANGER.id));
    expect(ada.lastMessage().text).toBe(`✅ ${STRANGER.id} may buy now.`);
    expect(await access.mayBuy(STRANGER.id)).toBe(true);
    const sam = chatPerson(h, STRANGER);
    await sam.command("stars");
    expect(sam.lastMessage().text).toBe(
      "Who should get the stars? Send their @username or a t.me link.",
    );
    await sam.command("cancel");

    await ada.command("allowed");
    const list = ada.lastMessage().text ?? "";
    expect(list).toContain(`Admins: @ada_admin (${ADMIN.id}), 1002`);
    expect(list).toContain(`• ${BUYER.id}: from the settings`);
    expect(list).toMatch(
      new RegExp(`• Sam \\(${STRANGER.id}\\): added by @ada_admin \\(${ADMIN.id}\\) on .+ UTC`),
    );
    expect(list).toContain(`• ${GROUP_ID}: from the settings`);

    await ada.command("deny", String(STRANGER.id));
    expect(ada.lastMessage().text).toBe(`${STRANGER.id} may no longer buy.`);
    await sam.command("stars");
    expect(sam.lastMessage().text).toMatch(/^Purchases are not open to you/);

    await ada.command("deny", String(BUYER.id));
    expect(ada.lastMessage().text).toBe(
      `${BUYER.id} is allowed by ALLOWED_USER_IDS: remove them there and restart the bot.`,
    );
    await ada.command("deny", String(ADMIN.id));
    expect(ada.lastMessage().text).toBe(
      `${ADMIN.id} is an admin (ADMIN_IDS); that cannot be changed in the bot.`,
    );
    await ada.command("allow", "someone");
    expect(ada.lastMessage().text).toMatch(/^Tell me who: \/allow 123456789/);
  });

  it("by replying to a forwarded message, by forwarding one, and a hidden sender is explained", async () => {
    const { h, access } = await adminWorld();
    const ada = chatPerson(h, ADMIN);
    const dora = testUser(4001, { first_name: "Dora", username: "dora_d" });
    const forwarded = forwardedMessage(ADMIN, { type: "user", date: 1, sender_user: dora });
    await h.send(privateMessage(ADMIN, "/allow", forwarded));
    expect(ada.lastMessage().text).toBe("✅ @dora_d (4001) may buy now.");
    expect(await access.mayBuy(dora.id)).toBe(true);

    const hidden = forwardedMessage(ADMIN, {
      type: "hidden_user",
      date: 1,
      sender_user_name: "Eve Hidden",
    });
    await h.send(privateMessage(ADMIN, "/allow", hidden));
    expect(ada.lastMessage().text).toMatch(
      /^Eve Hidden hides their account in forwarded messages, so I cannot see who they are\./,
    );

    // A message forwarded on its own: the bot offers both buttons.
    const fred = testUser(4002, { first_name: "Fred" });
    await h.send({
      update_id: 900_001,
      message: forwardedMessage(ADMIN, { type: "user", date: 1, sender_user: fred }),
    } as Update);
    expect(ada.lastMessage().text).toBe("This message is from Fred (4002). May they buy?");
    expect(buttonsOf(ada.lastMessage())).toEqual([["✅ Allow", "🚫 Deny"]]);
    await ada.pressButton("✅ Allow");
    expect(await access.mayBuy(fred.id)).toBe(true);
    await h.send(privateMessage(ADMIN, "/deny", forwarded));
    expect(ada.lastMessage().text).toBe("@dora_d (4001) may no longer buy.");
    expect(await access.mayBuy(dora.id)).toBe(false);
  });

  it("/allowchat and /denychat inside a group, by an admin only", async () => {
    const { h, access } = await adminWorld();
    const sam = groupMessage(STRANGER, OTHER_GROUP_ID, "/allowchat");
    const before = h.telegram.mark();
    await h.send(sam.update);
    expect(h.telegram.callsSince(before)).toEqual([]);
    expect(await access.isChatAllowed(OTHER_GROUP_ID)).toBe(false);

    await h.send(groupMessage(ADMIN, OTHER_GROUP_ID, "/allowchat").update);
    expect(await access.isChatAllowed(OTHER_GROUP_ID)).toBe(true);
    expect(h.telegram.messagesIn(OTHER_GROUP_ID).at(-1)?.text).toBe(
      "✅ This group's administrators can now gift Telegram Premium with /premium.",
    );
    await h.send(groupMessage(ADMIN, OTHER_GROUP_ID, "/denychat").update);
    expect(await access.isChatAllowed(OTHER_GROUP_ID)).toBe(false);
    await h.send(groupMessage(ADMIN, GROUP_ID, "/denychat").update);
    expect(h.telegram.messagesIn(GROUP_ID).at(-1)?.text).toBe(
      "This group is allowed by ALLOWED_CHAT_IDS: remove it there and restart the bot.",
    );

    const ada = chatPerson(h, ADMIN);
    await ada.command("allowchat");
    expect(ada.lastMessage().text).toBe("Send this command inside the group you mean.");
  });
});
