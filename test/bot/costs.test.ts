/**
 * What each gift cost, through the real bot, the sandbox (whose prices are known:
 * tools/sandbox/pricing.ts) and the real store (SQLite, or PostgreSQL with
 * GIFTBOT_TEST_STORE=postgres): the measured cost, the estimate before Confirm, the daily
 * report and the accountant's export.
 */
import { describe, expect, it } from "vitest";
import type { BotHarness } from "../../tools/testing/bot-harness.js";
import { chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import type { TestClock } from "../../tools/testing/clock.js";
import { readCsv } from "../helpers/csv-reader.js";
import { runSql, writableColumns } from "../helpers/store-sql.js";
import type { CannedAnswer } from "../../tools/testing/telegram-fake.js";
import { ADMIN, ADMIN2, adminWorld, BUYER, sentTexts } from "../helpers/admin-bot.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("the measured cost", () => {
  it("records the exact price the sandbox charged and shows it on the receipt and to admins", async () => {
    const { h } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    await bea.starsSummary("bob_gifts", "⭐ 50");
    // No history yet: no estimate, and the summary says so.
    expect(bea.lastMessage().text).toContain("Estimated cost: not known yet");
    await bea.pressButton("✅ Confirm");
    expect(h.sandbox.getBalance().usdt).toBe("999.25");
    const intent = (await h.records.recent({ limit: 1 }))[0];
    expect(intent?.cost).toMatchObject({
      measured: true,
      amount: "0.75",
      currency: "usdt",
      source: "balance_after",
    });
    expect(bea.lastMessage().text).toMatch(
      /^✅ Delivered: 50 Telegram Stars to @bob_gifts\.\nCost: 0\.75 USDT\nTransaction: https:\/\/tonviewer\.com\/transaction\/\S+$/,
    );
    await bea.command("history");
    expect(bea.lastMessage().text).toMatch(
      /50 Telegram Stars to @bob_gifts: delivered, cost: 0\.75 USDT$/,
    );
    const ada = chatPerson(h, ADMIN);
    await ada.command("purchases", intent?.id);
    expect(ada.lastMessage().text).toContain(
      "Cost: 0.75 USDT (the wallet's balance read again after delivery)",
    );
  });

  it("records no figure for a purchase interleaved with another, and never a wrong one", async () => {
    const { h } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    const ada = chatPerson(h, ADMIN);
    for (const [person, recipient] of [
      [bea, "bob_gifts"],
      [ada, "carl_gifts"],
    ] as const) {
      await person.starsSummary(recipient, "⭐ 50");
    }
    // Both confirm at once: the second goes out before the first's reading after.
    await Promise.all([bea.pressButton("✅ Confirm"), ada.pressButton("✅ Confirm")]);
    await h.desk.settled();
    const [second, first] = await h.records.recent({ limit: 2 });
    expect(second?.sentAt).toBeGreaterThanOrEqual(first?.sentAt ?? Infinity);
    // The second's "before" was read with its summary, before the first was sent.
    expect(second?.cost).toMatchObject({ measured: false, reason: "other_purchase" });
    // The one reading after them both comes after the second went out: the first's drop
    // would include the second's price, so it gets no figure either, never a wrong one.
    expect(first?.cost).toMatchObject({ measured: false, reason: "other_purchase" });
    expect(h.sandbox.getBalance().usdt).toBe("998.5");
    await ada.command("purchases", second?.id);
    expect(ada.lastMessage().text).toContain(
      "Cost: not measured (another purchase went out at the same time)",
    );
  });
});

describe("the receipt and its cost", () => {
  it("goes out at once; the cost is added by an edit, without holding the chat while it is measured", async () => {
    const { h } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    const summary = await bea.starsSummary("bob_gifts", "⭐ 50");
    // The balance read after the purchase (the cost's measurement) is held by the service.
    h.sandbox.injectFault({ type: "delay", ms: 1_500 }, { path: "/wallet-balance/" });
    const { data } = bea.findButton("✅ Confirm");
    const update = h.updates.callback(BUYER, data, summary.message_id, bea.chatId);

    // The press's handler, as the runner sees it: done before the measurement is. The
    // receipt does not look final meanwhile: it says its cost is being measured.
    await h.bot.handleUpdate(update);
    expect(bea.lastMessage().text).toMatch(
      /^✅ Delivered: 50 Telegram Stars to @bob_gifts\.\nCost: being measured…\nTransaction: /,
    );
    expect((await h.records.recent({ limit: 1 }))[0]?.cost).toBeUndefined();

    await h.app.services.background.idle();
    expect(bea.lastMessage().text).toMatch(
      /^✅ Delivered: 50 Telegram Stars to @bob_gifts\.\nCost: 0\.75 USDT\nTransaction: /,
    );
  });
});

describe("the estimate before Confirm", () => {
  it("shows the sandbox's price for the second purchase of the same kind, and warns when it is more than the wallet holds", async () => {
    const { h } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    await bea.giftStars("bob_gifts", "⭐ 50");
    h.clock.advance(60_000);

    const requestsBefore = h.sandbox.requests.length;
    await bea.starsSummary("dan_gifts", "⭐ 100");
    const summary = bea.lastMessage().text ?? "";
    // 100 stars at the measured 0.015 USDT a star: the sandbox's price exactly.
    expect(summary).toContain("Estimated cost: about 1.5 USDT (from one recent purchase)");
    expect(summary).not.toContain("more than the wallet holds");
    // The estimate cost no request: only the recipient check and the summary's balance read.
    expect(h.sandbox.requests.length - requestsBefore).toBeLessThanOrEqual(2);

    // Paying in TON: no TON history, no estimate.
    await bea.pressButton("Pay with TON");
    expect(bea.lastMessage().text).toContain("Estimated cost: not known yet");
    await bea.pressButton("Pay with USDT on TON");

    await bea.command("cancel");
    h.sandbox.setBalance({ ton: "100", usdt: "1" });
    h.clock.advance(60_000);
    await bea.starsSummary("erin_gifts", "⭐ 100");
    expect(bea.lastMessage().text).toContain(
      "⚠️ The estimate is more than the wallet holds in USDT",
    );
  });
});

describe("before the first purchase of a kind", () => {
  it.each([
    {
      lang: "en",
      confirm: "✅ Confirm",
      unknown:
        "Estimated cost: not known yet (prices are not quoted in advance; what a gift of this kind costs is measured when one is bought).",
      known: "Estimated cost: about 1.5 USDT (from one recent purchase)",
    },
    {
      lang: "ru",
      confirm: "✅ Подтвердить",
      unknown:
        "Примерная стоимость: пока неизвестна (цены заранее не сообщаются; стоимость такого подарка измеряется, когда его покупают).",
      known: "Примерная стоимость: около 1,5 USDT (по 1 недавней покупке)",
    },
  ])("in $lang: the first summary says plainly that the purchase measures the price", async (c) => {
    const buyer = testUser(2002, { language_code: c.lang });
    const { h } = await adminWorld({ access: { allowedUserIds: [buyer.id] } });
    const person = chatPerson(h, buyer);
    const first = await person.starsSummary("bob_gifts", "⭐ 50");
    expect(first.text).toContain(c.unknown);
    await person.pressButton(c.confirm);
    h.clock.advance(60_000);
    const second = await person.starsSummary("dan_gifts", "⭐ 100");
    expect(second.text).toContain(c.known);
    expect(second.text).not.toContain(c.unknown);
  });

  it("a buyer who is not shown the operator's figures is not told about them either", async () => {
    const { h } = await adminWorld({ access: { showBalanceTo: "admins" } });
    const summary = await chatPerson(h, BUYER).starsSummary("bob_gifts", "⭐ 50");
    expect(summary.text).not.toMatch(/Estimated cost|Wallet balance/);
  });

  it("the first Premium giveaway card says that the first gift sent measures it, then shows the estimate", async () => {
    const { h } = await adminWorld();
    const ada = chatPerson(h, ADMIN);
    const card = async (): Promise<string> => {
      await ada.command("giveaway");
      await ada.pressButton("💎 Premium");
      await ada.press("flow:duration:3", ada.lastMessage().message_id);
      await ada.say("alice_friend carl_gifts");
      return ada.lastMessage().text ?? "";
    };
    expect(await card()).toContain(
      "Estimated cost: not known yet (the service quotes no prices, and no recent purchase of this gift was measured: the first gift sent is measured from the wallet's balance before and after).",
    );
    await ada.command("cancel");
    // One Premium gift for 3 months measured (the sandbox's price: 12 USDT).
    await ada.command("premium");
    await ada.say("bob_gifts");
    await ada.press("flow:duration:3", ada.lastMessage().message_id);
    await ada.pressButton("✅ Confirm");
    h.clock.advance(60_000);
    expect(await card()).toContain("Estimated cost: about 24 USDT (from one recent purchase).");
  });
});

describe("the daily report", () => {
  it("goes to every admin once a day, in their language, across a restart", async () => {
    const { h } = await adminWorld({ reports: { reportHourUtc: 7 } });
    const boris = chatPerson(h, { ...ADMIN, id: 1002, language_code: "ru" });
    await boris.command("language");
    await boris.pressButton("Русский");
    const bea = chatPerson(h, BUYER);
    await bea.giftStars("bob_gifts", "⭐ 50");
    // The marketplace session expires: the next purchase is refused and the breaker opens.
    h.sandbox.expireSession();
    await bea.giftStars("carl_gifts", "⭐ 50");
    expect((await h.records.pauseReason())?.source).toBe("breaker");
    const day = new Date(h.clock()).toISOString().slice(0, 10);

    // The purchase's day is not over: nothing is due before tomorrow's 07:00 UTC.
    const tomorrow = Math.floor(h.clock() / DAY) * DAY + DAY;
    h.clock.advance(tomorrow + 6 * HOUR - h.clock());
    expect(await h.app.sendDueReports()).toBe(0);
    h.clock.advance(HOUR);
    const mark = h.telegram.mark();
    expect(await h.app.sendDueReports()).toBe(2);
    const english = sentTexts(h, ADMIN.id, mark).find((t) => t.startsWith("📊")) ?? "";
    expect(english).toContain(`Daily report for ${day} (UTC)`);
    expect(english).toContain("Spent: 0.75 USDT (measured on one purchase)");
    expect(english).toContain("Bought: 50 stars");
    expect(english).toContain("Balance at the end of the day: 100 TON, 999.25 USDT");
    expect(english).toContain("Purchases paused by themselves after the service's refusals: once");
    const russian = sentTexts(h, 1002, mark).find((t) => t.startsWith("📊")) ?? "";
    expect(russian).toContain(`Отчёт за ${day}`);

    // Again the same hour, and after a restart: not sent twice.
    expect(await h.app.sendDueReports()).toBe(0);
    await h.restart();
    expect(await h.app.sendDueReports()).toBe(0);
    expect(sentTexts(h, ADMIN.id, mark).filter((t) => t.startsWith("📊"))).toHaveLength(1);
    // The next day, the next report.
    h.clock.advance(DAY);
    expect(await h.app.sendDueReports()).toBe(2);
  });

  it("tries again a minute later when Telegram failed, not for an admin who blocked the bot", async () => {
    const { h } = await adminWorld({ reports: { reportHourUtc: 7 } });
    let telegramDown = true;
    const tries = new Map<number, number>();
    h.telegram.answer("sendMessage", (payload, _call, fallback): CannedAnswer => {
      const chat = Number(payload.chat_id);
      if (!String(payload.text).startsWith("📊")) return fallback();
      tries.set(chat, (tries.get(chat) ?? 0) + 1);
      if (chat === ADMIN2.id) {
        return {
          ok: false,
          error_code: 403,
          description: "Forbidden: bot was blocked by the user",
        };
      }
      if (telegramDown) return { ok: false, error_code: 502, description: "Bad Gateway" };
      return fallback();
    });
    const tomorrow = Math.floor(h.clock() / DAY) * DAY + DAY;
    h.clock.advance(tomorrow + 7 * HOUR - h.clock());
    expect(await h.app.sendDueReports()).toBe(0);
    telegramDown = false;
    h.clock.advance(60_000);
    expect(await h.app.sendDueReports()).toBe(1);
    h.clock.advance(60_000);
    expect(await h.app.sendDueReports()).toBe(0);
    expect(tries.get(ADMIN.id)).toBe(2);
    expect(tries.get(ADMIN2.id)).toBe(1);
  });
});

describe("/export", () => {
  it("sends the CSV of a date range that reads back row for row, a hostile reason neutralised", async () => {
    const { h } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    await bea.giftStars("bob_gifts", "⭐ 50");
    h.clock.advance(60_000);
    h.sandbox.injectFault(
      { type: "status", status: 400, body: { ok: false, reason: '=HYPERLINK("http://evil")' } },
      { path: "/buy-stars/" },
    );
    await bea.giftStars("carl_gifts", "⭐ 100");
    const day = new Date(h.clock()).toISOString().slice(0, 10);

    const ada = chatPerson(h, ADMIN);
    const mark = h.telegram.mark();
    await ada.command("export", `${day} ${day}`);
    const upload = h.telegram.callsSince(mark).find((c) => c.method === "sendDocument");
    const file = Object.values(upload?.payload ?? {}).find(
      (v): v is { filename: string; text: string } =>
        typeof v === "object" && v !== null && "filename" in v,
    );
    expect(file?.filename).toBe(`purchases-${day}-${day}.csv`);
    const rows = readCsv(file?.text ?? "");
    const header = rows[0] ?? [];
    const col = (row: string[] | undefined, name: string) => row?.[header.indexOf(name)];
    expect(rows).toHaveLength(3);
    const [, delivered, refused] = rows;
    expect(col(delivered, "recipient_username")).toBe("bob_gifts");
    expect(col(delivered, "status")).toBe("succeeded");
    expect(col(delivered, "cost")).toBe("0.75");
    expect(col(delivered, "cost_currency")).toBe("USDT");
    expect(col(delivered, "requested_by_user_id")).toBe(String(BUYER.id));
    expect(col(delivered, "sent_at_utc")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(col(refused, "status")).toBe("rejected");
    expect(col(refused, "outcome_detail")).toBe('\'=HYPERLINK("http://evil")');
    expect(file?.text).not.toContain("stel_ssid");

    // Bad dates get a clear answer, and no file.
    const before = h.telegram.mark();
    await ada.command("export", "2026-02-30");
    expect(ada.lastMessage().text).toContain("I could not read those dates");
    expect(h.telegram.callsSince(before).some((c) => c.method === "sendDocument")).toBe(false);
  });
});

/**
 * Copies one purchase row `count` times, straight into the bot's SQLite file (a long history
 * written as the ledger writes rows, without buying it all): ids `<prefix>NNNNNN`, recipients
 * `user_NNNNNN`, sent a second apart from `sentFrom`.
 */
async function copyPurchase(
  h: BotHarness,
  fromId: string,
  count: number,
  sentFrom: number,
  prefix: string,
): Promise<void> {
  const columns = (await writableColumns(h, "purchase_intents"))
    .filter((name) => !["id", "recipient", "sent_at"].includes(name))
    .join(", ");
  await runSql(
    h,
    `INSERT INTO purchase_intents (id, recipient, sent_at, ${columns})
     SELECT ?, ?, ?, ${columns} FROM purchase_intents WHERE id = ?`,
    ...Array.from({ length: count }, (_, i) => {
      const n = String(i).padStart(6, "0");
      return [`${prefix}${n}`, `user_${n}`, sentFrom + i * 1_000, fromId];
    }),
  );
}

/**
 * The copies are sent one a second from the day's first second, 2,400 of them (40 minutes):
 * a purchase made in the first hour of a UTC day would sort among them. The test clock starts
 * at the real time, so it is moved past that hour when the suite runs just after midnight.
 */
function clearOfTheCopies(clock: TestClock): void {
  const intoDay = clock() % DAY;
  if (intoDay < 60 * 60_000) clock.advance(60 * 60_000);
}

describe("/export that Telegram does not take", () => {
  it("says 'try again' only when trying again may work", async () => {
    const { h } = await adminWorld();
    const ada = chatPerson(h, ADMIN);
    const refusals: CannedAnswer[] = [
      { ok: false, error_code: 502, description: "Bad Gateway" },
      { ok: false, error_code: 413, description: "Request Entity Too Large" },
      { ok: false, error_code: 400, description: "Bad Request: wrong file identifier" },
    ];
    const said: string[] = [];
    for (const refusal of refusals) {
      h.telegram.answer("sendDocument", () => refusal);
      await ada.command("export");
      said.push(ada.lastMessage().text ?? "");
    }
    expect(said).toEqual([
      "The export could not be sent. Please try again.",
      "The file is too large for Telegram. Export a shorter range of days.",
      "The export could not be made, and trying again will not help until the cause is fixed: the bot's log says why.",
    ]);
  });
});

describe("/export of a large range", () => {
  it("sends every purchase of the range, read back row for row in order", async () => {
    const { h } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    clearOfTheCopies(h.clock);
    await bea.giftStars("bob_gifts", "⭐ 50");
    const [bought] = await h.records.recent({ limit: 1 });
    const dayStart = Math.floor(h.clock() / DAY) * DAY;
    // Several pages of the ledger's export (500 rows a page), all within the same day.
    const copies = 2_400;
    await copyPurchase(h, bought?.id ?? "", copies, dayStart + 1_000, "copy");
    const day = new Date(dayStart).toISOString().slice(0, 10);

    const ada = chatPerson(h, ADMIN);
    const mark = h.telegram.mark();
    await ada.command("export", day);
    const upload = h.telegram.callsSince(mark).find((c) => c.method === "sendDocument");
    const file = Object.values(upload?.payload ?? {}).find(
      (v): v is { filename: string; text: string } =>
        typeof v === "object" && v !== null && "filename" in v,
    );
    const rows = readCsv(file?.text ?? "");
    const header = rows[0] ?? [];
    const ids = rows.slice(1).map((row) => row[header.indexOf("purchase_id")]);
    expect(ids).toHaveLength(copies + 1);
    // Oldest sent first: the copies (sent from the day's first second), then the real one.
    expect(ids.slice(0, copies)).toEqual(
      Array.from({ length: copies }, (_, i) => `copy${String(i).padStart(6, "0")}`),
    );
    expect(ids[copies]).toBe(bought?.id);
    const last = rows[copies];
    expect(last?.[header.indexOf("recipient_username")]).toBe(
      `user_${String(copies - 1).padStart(6, "0")}`,
    );
    expect(last?.[header.indexOf("cost")]).toBe("0.75");
  });

  it("reads the ledger a page at a time as the file is read, the database free meanwhile", async () => {
    const { h } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    clearOfTheCopies(h.clock);
    await bea.giftStars("bob_gifts", "⭐ 50");
    const [bought] = await h.records.recent({ limit: 1 });
    const dayStart = Math.floor(h.clock() / DAY) * DAY;
    await copyPurchase(h, bought?.id ?? "", 3_000, dayStart + 1_000, "early");

    // The very stream /export uploads, read by hand.
    const csv = h.records.exportCsv(dayStart, dayStart + DAY);
    const chunks: string[] = [];
    let wroteDuring = false;
    for await (const chunk of csv) {
      chunks.push(String(chunk));
      if (!wroteDuring) {
        wroteDuring = true;
        // The first rows are out: the database still takes writes (no cursor held open), and
        // a purchase sent later that day, written now, is in the file: rows not read yet
        // were never built in memory.
        await copyPurchase(h, bought?.id ?? "", 1, dayStart + DAY - 1_000, "late");
      }
    }
    const ids = readCsv(chunks.join(""))
      .slice(1)
      .map((row) => row[0]);
    expect(ids).toHaveLength(3_000 + 2);
    expect(ids.at(-1)).toBe("late000000");
  });
});
