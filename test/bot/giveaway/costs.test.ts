/**
 * What a giveaway spent, through the real bot, the sandbox (whose prices are known:
 * tools/sandbox/pricing.ts) and the real store: each recipient's gift gets its measured cost,
 * as a person's gift does, or the stated reason it has none; the progress message and the
 * summary give the total spent, in the wallet's currencies.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it, vi } from "vitest";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import { ADMIN, adminWorld, BUYER } from "../../helpers/admin-bot.js";

const FIVE = ["alice_friend", "bob_gifts", "carol_star", "dave_user", "erin_user"];

async function giveaway(recipients: string[]) {
  const { h } = await adminWorld();
  const admin = chatPerson(h, ADMIN);
  await admin.command("giveaway");
  await admin.pressButton("⭐ Stars");
  await admin.pressButton("⭐ 50");
  await admin.say(recipients.join(" "));
  return { h, admin, before: h.telegram.mark(), confirm: admin.findButton("✅ Confirm") };
}

type World = Awaited<ReturnType<typeof giveaway>>;

async function finished({ h }: World): Promise<void> {
  await h.app.giveaways.runner.idle();
  await h.app.giveaways.idle();
}

/** The giveaway's CSV, one record per recipient. */
function csvRows({ h }: World): Record<string, string>[] {
  const document = h.telegram.callsOf("sendDocument").at(-1);
  const file = Object.values(document?.payload ?? {}).find(
    (v): v is { filename: string; text: string } =>
      typeof v === "object" && v !== null && "filename" in v,
  );
  return parse<Record<string, string>>(file?.text ?? "", { columns: true });
}

function sentTo({ admin }: World, since: number): string[] {
  return admin
    .callsSince(since)
    .filter((c) => c.method === "sendMessage" || c.method === "editMessageText")
    .map((c) => String(c.payload.text));
}

describe("a giveaway's cost", () => {
  it("is measured for every recipient, and the progress and the summary give the total", async () => {
    const world = await giveaway(FIVE);
    const { h, admin, confirm, before } = world;
    await admin.press(confirm.data, confirm.messageId);
    await finished(world);

    // 50 stars at the sandbox's 0.015 USDT a star, five times.
    expect(h.sandbox.getBalance().usdt).toBe("996.25");
    const rows = csvRows(world);
    expect(rows.map((row) => [row.recipient_username, row.cost, row.cost_currency])).toEqual(
      FIVE.map((name) => [name, "0.75", "USDT"]),
    );
    const texts = sentTo(world, before);
    const progress = texts.filter((text) => text.startsWith("🎁 Giveaway:")).at(-1);
    expect(progress).toContain("💸 Spent: 3.75 USDT");
    expect(texts.find((text) => text.startsWith("🎁 Giveaway over"))).toBe(
      [
        "🎁 Giveaway over: 5 delivered, 0 refused, 0 unknown, 0 not sent, of 5. Every recipient's outcome is in the list below.",
        "💸 Spent: 3.75 USDT",
      ].join("\n"),
    );
  });

  it("a gift with no figure says why, and the total says how many it leaves out", async () => {
    const world = await giveaway(["win_a", "win_b", "win_c"]);
    const { h, admin, confirm, before } = world;
    // A buyer confirms while the giveaway's first request is out: the buyer's request is out
    // too when the balance is read after the first recipient, so that recipient's cost cannot
    // be told apart from the buyer's. The second recipient is read before anew, once the
    // buyer's gift is done.
    const buyer = chatPerson(h, BUYER);
    await buyer.starsSummary("zed_friend", "⭐ 50");
    const balanceReads = h.sandbox.requests.filter((r) => r.path === "/wallet-balance/").length;
    h.sandbox.injectFault({ type: "hold" }, { path: "/buy-stars/", times: 2 });
    h.sandbox.injectFault({ type: "hold" }, { path: "/wallet-balance/" });
    const pressing = admin.press(confirm.data, confirm.messageId);
    await h.sandbox.waitForRequests(1, "/buy-stars/");
    const buying = buyer.pressButton("✅ Confirm");
    await vi.waitFor(
      async () =>
        expect((await h.records.recent({ limit: 20 })).some((i) => i.status === "queued")).toBe(
          true,
        ),
      { timeout: 5_000, interval: 20 },
    );
    h.sandbox.releaseHeld();
    // The reading after the first recipient, and the buyer's request, are both held now.
    await h.sandbox.waitForRequests(2, "/buy-stars/");
    await h.sandbox.waitForRequests(balanceReads + 1, "/wallet-balance/");
    h.clock.advance(1_000);
    h.sandbox.releaseHeld();
    await Promise.all([pressing, buying]);
    await finished(world);
    expect(h.sandbox.purchaseRequests().map((r) => r.form?.username)).toEqual([
      "win_a",
      "zed_friend",
      "win_b",
      "win_c",
    ]);

    const rows = csvRows(world);
    expect(
      rows.map((row) => [row.recipient_username, row.cost, row.cost_not_measured_because]),
    ).toEqual([
      ["win_a", "", "other_purchase"],
      ["win_b", "0.75", ""],
      ["win_c", "0.75", ""],
    ]);
    const summary = sentTo(world, before).find((text) => text.startsWith("🎁 Giveaway over"));
    expect(summary?.split("\n")[1]).toBe("💸 Spent: 1.5 USDT (one gift has no measured cost)");
  });
});
