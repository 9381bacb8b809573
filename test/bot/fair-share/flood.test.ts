/**
 * Fair share under a flood, through the real bot, the sandbox with its quota on (30 per window,
 * the window shortened as the bench does) and the client's real scheduler: one person sends 200
 * distinct usernames as fast as the bot takes them while ten others each go through a whole
 * stars flow. No timing is asserted (the bench prints the waits); the order of service is.
 */
import { describe, expect, it } from "vitest";
import { FAIR_SHARE_DEFAULTS } from "../../../src/config/index.js";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import { testUser } from "../../../tools/testing/updates.js";
import { harness } from "../../helpers/bot.js";

const WINDOW_MS = 2_000;
const FLOODER = testUser(4_000, { first_name: "Flo" });
const OTHERS = Array.from({ length: 10 }, (_, i) =>
  testUser(5_000 + i, { language_code: i % 2 === 0 ? "en" : "ru" }),
);
const ADMIN = testUser(1_001, { first_name: "Ada" });
/** Names the sandbox does not know: the flooder stays at the recipient step, every name a check. */
const floodName = (i: number) => `nobody_flood_${i}`;

/** The flooder's recipient checks per minute, set here so the figures below do not follow a default. */
const CHECKS_PER_MINUTE = 5;

describe("one person flooding the bot with usernames", () => {
  it("costs the service at most their checks per minute, and ten others all buy, never queued behind the flood", async () => {
    const h = await harness({
      sandbox: { quota: { limit: 30, windowMs: WINDOW_MS } },
      clientQuota: { limit: 30, windowMs: WINDOW_MS },
      fairShare: { ...FAIR_SHARE_DEFAULTS, checksPerUserMinute: CHECKS_PER_MINUTE },
      admins: [ADMIN.id],
    });
    const flo = chatPerson(h, FLOODER);
    await flo.command("stars");

    const flood = Promise.all(
      Array.from({ length: 200 }, (_, i) => h.send(h.updates.text(FLOODER, `@${floodName(i)}`))),
    );
    const others = Promise.all(
      OTHERS.map(async (user, i) => {
        const person = chatPerson(h, user);
        await person.command("start");
        await person.pressButton(i % 2 === 0 ? "⭐ Gift stars" : "⭐ Подарить звёзды");
        await person.say(`@other_buyer_${i}`);
        await person.pressButton("⭐ 50");
        await person.pressButton(i % 2 === 0 ? "✅ Confirm" : "✅ Подтвердить");
        return person.lastMessage().text ?? "";
      }),
    );
    const [outcomes] = await Promise.all([others, flood]);

    // The ten all reached their summary and their purchase.
    for (const text of outcomes) expect(text).toMatch(/^✅ (Delivered|Доставлено)/);
    expect(h.sandbox.purchaseRequests()).toHaveLength(OTHERS.length);

    // The flooder caused at most their per-minute limit of requests, and was told to slow down.
    const asked = h.sandbox.requests.map((r) => r.query["username"] ?? r.form?.["username"]);
    const flooderRequests = asked.filter((name) => name?.startsWith("nobody_flood_")).length;
    expect(flooderRequests).toBeGreaterThan(0);
    expect(flooderRequests).toBeLessThanOrEqual(5);
    const floTexts = flo.messages().map((m) => m.text ?? "");
    expect(floTexts.some((t) => /slow down/.test(t))).toBe(true);

    // Order of service: no other person's check waited behind more than the flooder's allowance.
    for (let i = 0; i < OTHERS.length; i++) {
      const at = asked.indexOf(`other_buyer_${i}`);
      expect(at, `other_buyer_${i} was checked`).toBeGreaterThanOrEqual(0);
      const flooderBefore = asked.slice(0, at).filter((n) => n?.startsWith("nobody_flood_"));
      expect(flooderBefore.length).toBeLessThanOrEqual(5);
    }

    // An admin sees who is being slowed down, by id and name.
    const ada = chatPerson(h, ADMIN);
    await ada.command("balance");
    const balance = ada.lastMessage().text ?? "";
    expect(balance).toMatch(
      new RegExp(`Slowed down, too many recipient checks \\(user until UTC\\): ${FLOODER.id} \\(`),
    );
    // With the name the bot last saw, and the time with its zone.
    expect(balance).toMatch(new RegExp(`${FLOODER.id} \\(Flo, .+ \\d{2}:\\d{2} UTC\\)`));
  });
});
