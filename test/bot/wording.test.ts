/**
 * What a person reads about one gift is worded the same everywhere: one name for the gift per
 * language (summary, outcome, /history, the admins' lists) and every time with its zone.
 */
import { describe, expect, it } from "vitest";
import { chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import { ADMIN, adminWorld } from "../helpers/admin-bot.js";

const DATE_WITH_ZONE = /\d{2}:\d{2} UTC/;

describe("one name for the gift, and times with their zone", () => {
  it.each([
    { lang: "en", name: "150 Telegram Stars", confirm: "✅ Confirm", other: "Another amount" },
    {
      lang: "ru",
      name: "150 Telegram Stars",
      confirm: "✅ Подтвердить",
      other: "Другое количество",
    },
  ])("in $lang: summary, outcome, /history and /purchases say $name", async (c) => {
    const { h } = await adminWorld({ access: { publicPurchases: true } });
    const buyer = chatPerson(h, testUser(4242, { first_name: "Kim", language_code: c.lang }));
    await buyer.command("stars");
    await buyer.say("bob_gifts");
    await buyer.pressButton(c.other);
    await buyer.say("150");
    expect(buyer.lastMessage().text).toContain(c.name);
    await buyer.pressButton(c.confirm);
    expect(buyer.lastMessage().text).toContain(`${c.name} `);

    await buyer.command("history");
    const history = (buyer.lastMessage().text ?? "").split("\n")[2] ?? "";
    expect(history).toContain(`${c.name} `);
    expect(history).toMatch(DATE_WITH_ZONE);

    const admin = chatPerson(h, { ...ADMIN, language_code: c.lang });
    await admin.command("language");
    await admin.pressButton(c.lang === "ru" ? "Русский" : "English");
    await admin.command("purchases");
    const line = (admin.lastMessage().text ?? "").split("\n")[2] ?? "";
    expect(line).toContain(`${c.name} `);
    expect(line).toMatch(DATE_WITH_ZONE);
  });
});
