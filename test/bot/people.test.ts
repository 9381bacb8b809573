/**
 * Admins' lists name the people the bot has seen (their @username, else their name) next to
 * the id, and follow a name that changed; someone never seen is shown by id alone.
 */
import { describe, expect, it } from "vitest";
import { chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import { ADMIN, adminWorld } from "../helpers/admin-bot.js";

describe("names in the admins' lists", () => {
  it("shows the latest name seen with the id, in /purchases and /allowed", async () => {
    const { h } = await adminWorld({ access: { publicPurchases: true } });
    const kim = chatPerson(h, { ...testUser(4301, { first_name: "Kim" }), last_name: "Lee" });
    await kim.giftStars("bob_gifts", "⭐ 50");

    const ada = chatPerson(h, ADMIN);
    await ada.command("purchases");
    expect(ada.lastMessage().text).toContain(", by Kim Lee (4301)\n");

    // Kim sets a username: the next update carries it, and the lists follow.
    const renamed = chatPerson(h, testUser(4301, { first_name: "Kim", username: "kim_l" }));
    await renamed.command("history");
    await ada.command("purchases");
    expect(ada.lastMessage().text).toContain(", by @kim_l (4301)\n");

    await ada.command("allow", "4302");
    await ada.command("allowed");
    expect(ada.lastMessage().text).toMatch(/\n• 4302: added by @ada_admin \(1001\) on /);

    // A restart keeps what was seen (it is stored, not only in memory).
    await h.restart();
    await chatPerson(h, ADMIN).command("purchases");
    expect(chatPerson(h, ADMIN).lastMessage().text).toContain(", by @kim_l (4301)\n");
  });

  it("keeps no name of a stranger, even the one whose first message is answered", async () => {
    const { h } = await adminWorld();
    const stan = chatPerson(h, testUser(4401, { first_name: "Stan", username: "stan_x" }));
    await stan.command("start");
    expect(stan.lastMessage().text).toContain("4401");

    const ada = chatPerson(h, ADMIN);
    await ada.command("allow", "4401");
    await ada.command("allowed");
    expect(ada.lastMessage().text).toMatch(/\n• 4401: added by @ada_admin \(1001\) on /);
    expect(ada.lastMessage().text).not.toContain("stan_x");

    // Allowed now: the next message is a buyer's, and the name is kept from then on.
    await stan.command("history");
    await ada.command("allowed");
    expect(ada.lastMessage().text).toContain("@stan_x (4401)");
  });
});
