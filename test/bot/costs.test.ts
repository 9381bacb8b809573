/**
 * What each gift cost, through the real bot, the sandbox (whose prices are known:
 * tools/sandbox/pricing.ts) and real SQLite: the measured cost, the estimate before Confirm,
 * the daily report and the accountant's export.
 */
import { describe, expect, it } from "vitest";
import { chatPerson } from "../../tools/testing/chat-person.js";
import { readCsv } from "../helpers/csv-reader.js";
import { ADMIN, adminWorld, BUYER, sentTexts } from "./admin/helpers.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("the measured cost", () => {
  it("records the exact price the sandbox charged and shows it on the receipt and to admins", async () => {
    const { h } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    await bea.command("stars");
    await bea.say("bob_gifts");
    await bea.pressButton("⭐ 50");
    // No history yet: no estimate.
    expect(bea.lastMessage().text).not.toContain("Estimated cost");
    await bea.pressButton("✅ Confirm");
    expect(h.sandbox.getBalance().usdt).toBe("999.25");
    const intent = h.records.recent({ limit: 1 })[0];
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
    expect(bea.lastMessage().text).toMatch(/50 stars to @bob_gifts: delivered, cost: 0\.75 USDT$/);
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
      await person.command("stars");
      await person.say(recipient);
      await person.pressButton("⭐ 50");
    }
    // Both confirm at once: the second goes out before the first's reading after.
    await Promise.all([bea.pressButton("✅ Confirm"), ada.pressButton("✅ Confirm")]);
    await h.desk.settled();
    const [second, first] = h.records.recent({ limit: 2 });
    expect(second?.sentAt).toBeGreaterThanOrEqual(first?.sentAt ?? Infinity);
    // The second's "before" was read with its summary, before the first was sent.
    expect(second?.cost).toMatchObject({ measured: false, reason: "other_purchase" });
    // The first is either unmeasured or exactly its price, never both purchases' drop.
    if (first?.cost?.measured) expect(first.cost.amount).toBe("0.75");
    else expect(first?.cost).toMatchObject({ measured: false });
    expect(h.sandbox.getBalance().usdt).toBe("998.5");
    await ada.command("purchases", second?.id);
    expect(ada.lastMessage().text).toContain(
      "Cost: not measured (another purchase went out at the same time)",
    );
  });
});

describe("the estimate before Confirm", () => {
  it("shows the sandbox's price for the second purchase of the same kind, and warns when it is more than the wallet holds", async () => {
    const { h } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    await bea.command("stars");
    await bea.say("bob_gifts");
    await bea.pressButton("⭐ 50");
    await bea.pressButton("✅ Confirm");
    h.clock.advance(60_000);

    const requestsBefore = h.sandbox.requests.length;
    await bea.command("stars");
    await bea.say("dan_gifts");
    await bea.pressButton("⭐ 100");
    const summary = bea.lastMessage().text ?? "";
    // 100 stars at the measured 0.015 USDT a star: the sandbox's price exactly.
    expect(summary).toContain("Estimated cost: about 1.5 USDT (from one recent purchase)");
    expect(summary).not.toContain("more than the wallet holds");
    // The estimate cost no request: only the recipient check and the summary's balance read.
    expect(h.sandbox.requests.length - requestsBefore).toBeLessThanOrEqual(2);

    // Paying in TON: no TON history, no estimate.
    await bea.pressButton("Pay with TON");
    expect(bea.lastMessage().text).not.toContain("Estimated cost");
    await bea.pressButton("Pay with USDT on TON");

    await bea.command("cancel");
    h.sandbox.setBalance({ ton: "100", usdt: "1" });
    h.clock.advance(60_000);
    await bea.command("stars");
    await bea.say("erin_gifts");
    await bea.pressButton("⭐ 100");
    expect(bea.lastMessage().text).toContain(
      "⚠️ The estimate is more than the wallet holds in USDT",
    );
  });
});

describe("the daily report", () => {
  it("goes to every admin once a day, in their language, across a restart", async () => {
    const { h } = await adminWorld({ reports: { reportHourUtc: 7 } });
    const boris = chatPerson(h, { ...ADMIN, id: 1002, language_code: "ru" });
    await boris.command("language");
    await boris.pressButton("Русский");
    const bea = chatPerson(h, BUYER);
    await bea.command("stars");
    await bea.say("bob_gifts");
    await bea.pressButton("⭐ 50");
    await bea.pressButton("✅ Confirm");
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
});

describe("/export", () => {
  it("sends the CSV of a date range that reads back row for row, a hostile reason neutralised", async () => {
    const { h } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    await bea.command("stars");
    await bea.say("bob_gifts");
    await bea.pressButton("⭐ 50");
    await bea.pressButton("✅ Confirm");
    h.clock.advance(60_000);
    h.sandbox.injectFault(
      { type: "status", status: 400, body: { ok: false, reason: '=HYPERLINK("http://evil")' } },
      { path: "/buy-stars/" },
    );
    await bea.command("stars");
    await bea.say("carl_gifts");
    await bea.pressButton("⭐ 100");
    await bea.pressButton("✅ Confirm");
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
