/**
 * The same giveaway twice, through the real bot and the sandbox: an admin's /giveaway whose
 * list, gift and amount are those of a giveaway of the last 7 days (after a restart, in another
 * order and spelling) warns on the card when the earlier one ran and how many it delivered,
 * and its Confirm says it sends a second giveaway; a list that differs asks nothing more.
 */
import { describe, expect, it } from "vitest";
import { formatDateTime } from "../../../src/bot/format.js";
import { buttonsOf, chatPerson } from "../../../tools/testing/chat-person.js";
import { ADMIN, adminWorld } from "../../helpers/admin-bot.js";

const FIVE = ["alice_friend", "bob_gifts", "carol_star", "dave_user", "erin_user"];
const DAY = 24 * 3_600_000;

type World = Awaited<ReturnType<typeof adminWorld>>["h"];

/** /giveaway with `list`, stars, 50 each: resolves with the card. */
async function card(h: World, list: string) {
  const admin = chatPerson(h, ADMIN);
  await admin.command("giveaway");
  await admin.pressButton("⭐ Stars");
  await admin.pressButton("⭐ 50");
  await admin.say(list);
  return admin.lastMessage();
}

async function settled(h: World): Promise<void> {
  await h.app.giveaways.runner.idle();
  await h.app.giveaways.idle();
}

describe("the same giveaway twice", () => {
  it("warns on the card, naming when the earlier one ran and what it delivered, and asks for a second giveaway explicitly", async () => {
    // Four giveaways' checks and two giveaways' gifts: more than one minute of the real quota.
    const { h } = await adminWorld({
      limits: { starsPerUserDay: 100_000, starsPerBotDay: 1_000_000 },
      sandbox: { quota: false },
      clientQuota: { limit: 1_000, windowMs: 60_000 },
    });
    const admin = chatPerson(h, ADMIN);
    const startedAt = h.clock();
    await card(h, FIVE.join(" "));
    await admin.pressButton("✅ Confirm");
    await settled(h);
    expect(h.sandbox.purchaseRequests()).toHaveLength(5);

    h.clock.advance(DAY);
    await h.restart();
    const again = await card(h, ["@Erin_User", ...FIVE.slice(0, 4)].join("\n"));
    expect(again.text).toContain(
      `⚠️ The same gift to the same 5 recipients was a giveaway already, started ${formatDateTime("en", startedAt)}: 5 delivered. Confirm only if this is meant as a second giveaway.`,
    );
    expect(buttonsOf(again)[0]).toEqual(["✅ Confirm a second giveaway", "✖️ Cancel"]);
    await admin.pressButton("✅ Confirm a second giveaway");
    await settled(h);
    expect(h.sandbox.purchaseRequests()).toHaveLength(10);

    // Another list (one name fewer), or the same list with another amount: no warning.
    const fewer = await card(h, FIVE.slice(0, 4).join(" "));
    expect(fewer.text).not.toContain("⚠️ The same gift");
    expect(buttonsOf(fewer)[0]).toEqual(["✅ Confirm", "✖️ Cancel"]);
    await admin.command("giveaway");
    await admin.pressButton("⭐ Stars");
    await admin.pressButton("⭐ 100");
    await admin.say(FIVE.join(" "));
    expect(admin.lastMessage().text).not.toContain("⚠️ The same gift");

    // Older than 7 days (the second one too), it is not named any more.
    h.clock.advance(7 * DAY + 60_000);
    expect((await card(h, FIVE.join(" "))).text).not.toContain("⚠️ The same gift");
  });
});
