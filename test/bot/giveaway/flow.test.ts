/**
 * /giveaway through the real bot, the sandbox service and a SQLite ledger: the kind, the
 * recipients as a message or a file, one progress message, the card, and its buttons up to
 * Confirm (the sending itself: sending.test.ts).
 */
import { parse } from "csv-parse/sync";
import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import { keyboardOf } from "../../../tools/testing/telegram-fake.js";
import { ADMIN, ADMIN2, adminWorld, BUYER } from "../../helpers/admin-bot.js";
import { answersSince } from "../../helpers/bot.js";

/**
 * 30 entries: 22 people once (3 with Premium, 3 unknown to the messenger), 4 of them written
 * again in another form, and 4 entries that are not usernames.
 */
const THIRTY = [
  ...Array.from({ length: 16 }, (_, i) => `@winner_${String(i).padStart(2, "0")}`),
  "premium_pat, premium_pia; t.me/premium_poe",
  "nobody_one nobody_two https://t.me/nobody_three",
  "WINNER_00 @winner_01 t.me/Winner_02 https://t.me/winner_03",
  "12345 a-b @@x https://example.com/x",
].join("\n");

async function world(options: Parameters<typeof adminWorld>[0] = {}) {
  const { h } = await adminWorld(options);
  return { h, admin: chatPerson(h, ADMIN) };
}

/** The data of the button labelled `label` on the newest message that has it. */
function findData(admin: ReturnType<typeof chatPerson>, label: string) {
  return admin.findButton(label);
}

describe("/giveaway", () => {
  it("checks a 30-entry list once per person, on one progress message, and shows the card", async () => {
    // 22 checks, then two requests per recipient sent: more than a giveaway may take of one
    // minute of the default quota (it leaves the last 3 slots to people), which this test is
    // not about.
    const { h, admin } = await world({ clientQuota: { limit: 120, windowMs: 60_000 } });
    await admin.command("giveaway");
    await admin.pressButton("💎 Premium");
    const duration = admin.lastMessage();
    await admin.press("flow:duration:3", duration.message_id);
    const before = h.telegram.mark();
    await admin.say(THIRTY);

    const checks = h.sandbox.requests.filter((r) => r.path === "/get-user-info/");
    expect(checks).toHaveLength(22);
    const sent = admin.callsSince(before).filter((c) => c.method === "sendMessage");
    expect(String(sent[0]?.payload.text)).toMatch(/^22 recipients read \(4 names written more/);
    expect(String(sent[0]?.payload.text)).toContain('Not usernames, left out (4): "12345", "a-b"');
    const progress = sent.filter((c) => String(c.payload.text).startsWith("Checking"));
    expect(progress).toHaveLength(1);
    expect(String(progress[0]?.payload.text)).toBe("Checking 0/22 ░░░░░░░░░░");
    expect(keyboardOf(progress[0])).toEqual([
      [["⏹ Stop checking", expect.stringMatching(/^give:stop:[A-Za-z0-9_-]{12}$/)]],
    ]);
    // Edited as it goes, never more often than the interval (the test clock does not move:
    // the first check's edit, then the final state at the end).
    const progressId = (progress[0]?.result as { message_id: number }).message_id;
    const edits = admin
      .callsSince(before)
      .filter((c) => c.method === "editMessageText" && c.payload.message_id === progressId);
    expect(edits.length).toBeLessThanOrEqual(2);
    expect(h.telegram.message(ADMIN.id, progressId)?.text).toBe("Checking 22/22 ▓▓▓▓▓▓▓▓▓▓");
    expect(h.telegram.message(ADMIN.id, progressId)?.reply_markup).toBeUndefined();

    const card = admin.lastMessage();
    expect(card.text).toContain("Giveaway: Telegram Premium for 3 months for each recipient");
    expect(card.text).toContain("✅ Can receive (16): @winner_00, @winner_01");
    expect(card.text).toContain(
      "💎 Already have Premium (3): @premium_pat, @premium_pia, @premium_poe",
    );
    expect(card.text).toContain("❓ Not found (3): @nobody_one, @nobody_two, @nobody_three");
    expect(card.text).toContain(
      '✏️ Not usernames (4): "12345", "a-b", "@@x", "https://example.com/x"',
    );
    expect(card.text).toContain("Total: 16 Premium gifts.");
    expect(card.text).toContain("Wallet balance: 1,000 USDT.");
    // The default limits: 3 Premium gifts per person per day (admins are not exempt).
    expect(card.text).toContain("⚠️ Today's limits take only 3 of the 16 gifts");
    expect(card.reply_markup?.inline_keyboard.map((row) => row.map((b) => b.text))).toEqual([
      ["✅ Confirm", "✖️ Cancel"],
      ["📄 Download the list"],
    ]);

    const confirm = findData(admin, "✅ Confirm");
    const atConfirm = h.telegram.mark();
    await admin.press(confirm.data, confirm.messageId);
    await h.app.giveaways.runner.idle();
    await h.app.giveaways.idle();
    // Sent until today's limits (3 Premium gifts per admin) stop it, as the card warned.
    expect(h.sandbox.purchaseRequests()).toHaveLength(3);
    const sending = admin
      .callsSince(atConfirm)
      .find((c) => c.method === "sendMessage" && String(c.payload.text).startsWith("🎁 Giveaway"));
    const sendingId = (sending?.result as { message_id: number }).message_id;
    expect(h.telegram.message(ADMIN.id, sendingId)?.text).toContain(
      "Stopped: today's spending limit is reached",
    );
    // Only the list is left to download, as the answer says.
    const confirmed = h.telegram.message(ADMIN.id, confirm.messageId)?.reply_markup;
    expect(confirmed?.inline_keyboard.map((row) => row.map((b) => b.text))).toEqual([
      ["📄 Download the list"],
    ]);
    await admin.pressButton("📄 Download the list");
    expect(h.telegram.callsOf("sendDocument")).toHaveLength(1);
    // A second press of the same Confirm, or a Cancel, acts no more.
    await admin.press(confirm.data, confirm.messageId);
    expect(answersSince(h, atConfirm).at(-1)).toContain("no longer active");
    await admin.press(confirm.data.replace(":ok:", ":no:"), confirm.messageId);
    expect(answersSince(h, atConfirm).at(-1)).toContain("no longer active");
    expect(h.sandbox.purchaseRequests()).toHaveLength(3);
  });

  it.each([
    {
      lang: "en",
      buttons: ["⭐ Stars", "⭐ 50"],
      room: "Today's limits leave 10,000 stars (limit: your stars per day).",
      perGift: "stars in one purchase",
    },
    {
      lang: "ru",
      buttons: ["⭐ Звёзды", "⭐ 50"],
      room: "Сегодняшние лимиты оставляют 10\u00a0000 звёзд (лимит: ваших звёзд в день).",
      perGift: "звёзд в одной покупке",
    },
  ])(
    "in $lang: the card's room is what today's limits leave, never the cap of one gift",
    async ({ lang, buttons, room, perGift }) => {
      const { h } = await adminWorld();
      const admin = chatPerson(h, { ...ADMIN, language_code: lang });
      await admin.command("giveaway");
      for (const label of buttons) await admin.pressButton(label);
      await admin.say("win_a win_b");
      const card = admin.lastMessage().text ?? "";
      expect(card).toContain(room);
      // The one-gift cap (10,000 stars too) limits each gift, not the batch.
      expect(card).not.toContain(perGift);
    },
  );

  it("reads a .csv file, offers the list as CSV, and refuses other people's and forged presses", async () => {
    const { h, admin } = await world();
    await admin.command("giveaway");
    await admin.pressButton("⭐ Stars");
    await admin.pressButton("⭐ 50");
    h.telegram.addFile(
      "list-1",
      'username,prize\n@alice_friend,1\n=HYPERLINK("x"),2\nnobody_x,3\n',
    );
    await h.send(documentUpdate(ADMIN, "list-1", "winners.csv", 60));
    const card = admin.lastMessage();
    expect(card.text).toContain("Giveaway: 50 Telegram Stars for each recipient");
    expect(card.text).toContain("Total: one gift, 50 stars.");

    const csv = findData(admin, "📄 Download the list");
    await admin.press(csv.data, csv.messageId);
    const document = h.telegram.callsOf("sendDocument").at(-1);
    const file = Object.values(document?.payload ?? {}).find(
      (v): v is { filename: string; text: string } =>
        typeof v === "object" && v !== null && "filename" in v,
    );
    if (file === undefined) throw new Error("no file was sent");
    expect(file.filename).toBe("giveaway.csv");
    expect(parse(file.text, { columns: true })).toEqual([
      { recipient: "alice_friend", check: "can_receive" },
      { recipient: "nobody_x", check: "not_found" },
      { recipient: `'=HYPERLINK("x")`, check: "not_a_username" },
    ]);

    const before = h.telegram.mark();
    // Another admin, and a forged id, on the same card.
    await h.send(
      h.updates.callback(ADMIN2, csv.data.replace("csv", "ok"), csv.messageId, ADMIN.id),
    );
    await admin.press("give:ok:AAAAAAAAAAAA", csv.messageId);
    await admin.press("give:ok:not-an-id", csv.messageId);
    expect(answersSince(h, before)).toEqual([
      "Этот розыгрыш запустил другой админ.",
      "This giveaway is no longer open. Send /giveaway to start again.",
      "This button is not valid.",
    ]);
    // Someone who is not an admin learns nothing, not even that giveaways exist.
    const buyerPress = h.telegram.mark();
    for (const data of [csv.data.replace("csv", "ok"), "give:ok:AAAAAAAAAAAA", "give:kind:stars"]) {
      await h.send(h.updates.callback(BUYER, data, 1));
    }
    expect(answersSince(h, buyerPress)).toEqual([
      "This button is not valid.",
      "This button is not valid.",
      "This button is not valid.",
    ]);
    await admin.pressButton("✖️ Cancel");
    expect(admin.lastMessage().text).toBe("Giveaway cancelled. Nothing was bought.");
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("refuses a list over GIVEAWAY_MAX, a file too large or not a list, and waits for a good one", async () => {
    const { h, admin } = await world({ giveaway: { maxRecipients: 3 } });
    await admin.command("giveaway");
    await admin.pressButton("⭐ Stars");
    await admin.pressButton("⭐ 50");
    await admin.say("a_one_x b_two_x c_three_x d_four_x");
    expect(admin.lastMessage().text).toBe(
      "The list has 4 recipients; a giveaway can have at most 3. Send a shorter list.",
    );
    h.telegram.addFile("big", "x".repeat(70_000));
    await h.send(documentUpdate(ADMIN, "big", "big.txt", 70_000));
    expect(admin.lastMessage().text).toBe("That file is larger than 64 KB. Send a shorter list.");
    h.telegram.addFile("pic", "GIF89a");
    await h.send(documentUpdate(ADMIN, "pic", "photo.gif", 6));
    expect(admin.lastMessage().text).toContain("not a .txt or .csv list");
    await admin.say("12345 !!");
    expect(admin.lastMessage().text).toContain("There is no username on that list");
    expect(h.sandbox.requests.filter((r) => r.path === "/get-user-info/")).toHaveLength(0);
    await admin.say("a_one_x b_two_x");
    expect(admin.lastMessage().text).toContain("Can receive (2)");
  });

  it("edits the progress message with the time left at the pace so far, then the final count", async () => {
    const { h, admin } = await world();
    await admin.command("giveaway");
    await admin.pressButton("⭐ Stars");
    await admin.pressButton("⭐ 50");
    // Each check is held long enough for the test to move the clock 20 s while it waits.
    h.sandbox.injectFault({ type: "delay", ms: 100 }, { path: "/get-user-info/", times: 4 });
    const before = h.telegram.mark();
    const sending = admin.say("alice_friend bob_gifts carol_star dave_user");
    for (let received = 1; received <= 4; received++) {
      await h.sandbox.waitForRequests(received, "/get-user-info/");
      h.clock.advance(20_000);
    }
    await sending;
    const texts = admin
      .callsSince(before)
      .filter((c) => c.method === "editMessageText")
      .map((c) => String(c.payload.text));
    // 20 s a name: after the first, 3 names are left, a minute; the last edit is the count.
    expect(texts[0]).toBe("Checking 1/4 ▓▓░░░░░░░░ ~1 minute left");
    expect(texts.at(-1)).toBe("Checking 4/4 ▓▓▓▓▓▓▓▓▓▓");
    expect(admin.lastMessage().text).toContain("Can receive (4)");
  });

  it("stops checking when the admin presses Stop: the rest is not asked, nothing to confirm", async () => {
    const { h, admin } = await world();
    await admin.command("giveaway");
    await admin.pressButton("⭐ Stars");
    await admin.pressButton("⭐ 50");
    h.sandbox.injectFault({ type: "delay", ms: 300 }, { path: "/get-user-info/" });
    const progress = h.telegram.waitForCall(
      (c) => c.method === "sendMessage" && String(c.payload.text).startsWith("Checking 0/4"),
    );
    const sending = admin.say("alice_friend bob_gifts carol_star dave_user");
    const shown = await progress;
    const stop = keyboardOf(shown)?.[0]?.[0]?.[1] ?? "";
    expect(stop).toMatch(/^give:stop:/);
    await admin.press(stop, (shown.result as { message_id: number }).message_id);
    await sending;
    expect(h.sandbox.requests.filter((r) => r.path === "/get-user-info/")).toHaveLength(1);
    expect(admin.lastMessage().text).toBe(
      "Checks stopped at 1/4. Nothing was bought; send /giveaway to start again.",
    );
    expect(admin.lastMessage().reply_markup).toBeUndefined();
  });

  it("refuses a Confirm on a card checked too long ago, and one replaced by a newer giveaway", async () => {
    const { h, admin } = await world();
    const checkedCard = async () => {
      await admin.command("giveaway");
      await admin.pressButton("⭐ Stars");
      await admin.pressButton("⭐ 50");
      await admin.say("alice_friend bob_gifts");
      return findData(admin, "✅ Confirm");
    };
    const old = await checkedCard();
    h.clock.advance(31 * 60_000);
    const before = h.telegram.mark();
    await admin.press(old.data, old.messageId);
    expect(answersSince(h, before)).toEqual([
      "This giveaway is no longer open. Send /giveaway to start again.",
    ]);
    const first = await checkedCard();
    await checkedCard();
    await admin.press(first.data, first.messageId);
    expect(answersSince(h, before).at(-1)).toBe(
      "This giveaway is no longer open. Send /giveaway to start again.",
    );
    expect(
      admin.callsSince(before).filter((c) => String(c.payload.text).includes("not available")),
    ).toHaveLength(0);
  });

  it("is for admins only: anyone else's /giveaway is an unknown command", async () => {
    const { h } = await world();
    const buyer = chatPerson(h, BUYER);
    await buyer.command("giveaway");
    expect(buyer.lastMessage().text).not.toContain("Giveaway");
    expect(h.telegram.callsOf("sendMessage")).toHaveLength(1);
  });
});

let nextUpdateId = 900_000;

/** A private message carrying a document, as Telegram sends a file. */
function documentUpdate(
  from: typeof ADMIN,
  fileId: string,
  fileName: string,
  size: number,
): Update {
  return {
    update_id: nextUpdateId++,
    message: {
      message_id: nextUpdateId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: from.id, type: "private", first_name: from.first_name },
      from,
      document: { file_id: fileId, file_unique_id: fileId, file_name: fileName, file_size: size },
    },
  };
}
