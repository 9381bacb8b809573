/**
 * The admins' Mini App's API over HTTP on 127.0.0.1, on the real app (the harness: the sandbox,
 * the ledger on SQLite or, with GIFTBOT_TEST_STORE=postgres, PostgreSQL, the bot with the fake
 * Telegram): the reads over real purchases made in the chat (search, filters, pages, the
 * spending per day), and the decisions, which are the chat's own operations.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { type AdminAppServer, startAdminApp } from "../../src/admin-app/server.js";
import type { AdminAppDeps } from "../../src/admin-app/types.js";
import { utcDay } from "../../src/shared/utc-day.js";
import type { BotHarness } from "../../tools/testing/bot-harness.js";
import { chatPerson } from "../../tools/testing/chat-person.js";
import { signInitData } from "../../tools/testing/init-data.js";
import { TEST_CREDENTIALS } from "../../tools/testing/test-config.js";
import { ADMIN, ADMIN2, adminWorld, BUYER, sentTexts } from "../helpers/admin-bot.js";

interface App {
  server: AdminAppServer;
  /** Whether the app's process holds the sender lease (a replica on standby does not). */
  lease: { holds: boolean };
  get(path: string, as?: Person): Promise<Answer>;
  post(path: string, body?: unknown, as?: Person): Promise<Answer>;
  /** Every body answered so far (for the secret scan). */
  bodies: string[];
}

type Person = { id: number; first_name: string; language_code?: string };

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** The app's server over the harness's app, as src/app/admin-app.ts builds it. */
async function appOn(h: BotHarness): Promise<App> {
  const token = h.app.config.telegram.token;
  const lease = { holds: true };
  const { services } = h.app;
  const deps: AdminAppDeps = {
    token,
    isAdmin: (userId) => h.app.access.isAdmin(userId),
    maxAgeSeconds: 3600,
    records: h.records,
    reads: h.app.storage.adminReads,
    desk: h.desk,
    giveaways: h.app.giveaways.runner,
    lease: {
      self: "test",
      holder: () => Promise.resolve(undefined),
      holdsLease: () => lease.holds,
    },
    lastBackupAt: () => undefined,
    backupsKept: h.app.storage.backup !== undefined,
    texts: {
      locales: services.i18n.locales,
      t: (locale, key, variables) => services.i18n.t(locale, key, variables),
      preferred: (userId) => services.settings.preferredLanguage(userId),
    },
    names: (ids) =>
      services.people.render(
        (names) =>
          new Map(ids.flatMap((id) => (names(id) === undefined ? [] : [[id, names(id) ?? ""]]))),
      ),
    purchasesReopened: () => Promise.resolve(),
    explorerUrl: "https://tonviewer.com/transaction/",
    clock: h.clock,
    logger: h.app.logger,
  };
  const server = await startAdminApp(deps, { host: "127.0.0.1", port: 0 });
  onTestFinished(() => server.close());
  const bodies: string[] = [];
  const call = async (path: string, init: RequestInit, as: Person = ADMIN): Promise<Answer> => {
    const initData = signInitData(token, as, { authDate: Math.floor(h.clock() / 1000) });
    const response = await fetch(`${server.url}/admin/api/${path}`, {
      ...init,
      headers: { authorization: `tma ${initData}`, "content-type": "application/json" },
    });
    const text = await response.text();
    bodies.push(text);
    return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
  };
  return {
    server,
    lease,
    bodies,
    get: (path, as) => call(path, {}, as),
    post: (path, body, as) => call(path, { method: "POST", body: JSON.stringify(body ?? {}) }, as),
  };
}

/** Purchases made in the chat: Bea's stars and premium, and one with an unknown outcome. */
async function purchases(h: BotHarness): Promise<string> {
  const bea = chatPerson(h, BUYER);
  await bea.giftStars("alice_gifts", "⭐ 100");
  await bea.giftStars("bob_gifts", "⭐ 50");
  h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
  await bea.giftStars("carol_gifts", "⭐ 50");
  const [unknown] = await h.records.unconfirmed();
  if (unknown === undefined) throw new Error("no unknown outcome");
  return unknown.id;
}

type Items = { items: { recipient: string; status: string }[]; total: number };

describe("the admins' app API", () => {
  it("reads the overview, the spending per day and the purchases: searched, filtered, paged", async () => {
    const { h } = await adminWorld();
    await chatPerson(h, BUYER).command("start");
    const unknown = await purchases(h);
    const app = await appOn(h);

    const session = await app.get("session");
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ admin: { id: ADMIN.id }, locale: "en" });
    expect((session.body.texts as Record<string, string>)["app-title"]).toBe("Giftbot admin");
    expect(session.body.premiumNames).toMatchObject({ "3": "Telegram Premium for 3 months" });
    // Boris reads Russian (his Telegram language, as the init data says).
    const boris = await app.get("session", { ...ADMIN2, language_code: "ru" });
    expect(boris.body.locale).toBe("ru");
    expect(boris.body.premiumNames).toMatchObject({ "3": "Telegram Premium на 3 месяца" });

    const overview = (await app.get("overview")).body;
    expect(overview).toMatchObject({
      status: { paused: false, unconfirmed: 1 },
      today: { stars: 200, premium: 0 },
      pending: { total: 1 },
      breakerOpen: false,
    });

    const spending = (await app.get("spending")).body as {
      days: { day: string; gifts: number; stars: number; spent: { usdt: string } }[];
    };
    expect(spending.days).toHaveLength(30);
    const today = spending.days.at(-1);
    expect(today).toMatchObject({ day: utcDay(h.clock()), gifts: 2, stars: 150 });
    expect(spending.days.slice(0, -1).every((d) => d.gifts === 0)).toBe(true);

    const list = async (query: string) => (await app.get(`purchases?${query}`)).body as Items;
    expect((await list("")).total).toBe(3);
    expect((await list("")).items.map((i) => i.recipient)).toEqual([
      "carol_gifts",
      "bob_gifts",
      "alice_gifts",
    ]);
    expect((await list("recipient=%40BOB")).items.map((i) => i.recipient)).toEqual(["bob_gifts"]);
    expect((await list("recipient=100%25")).total).toBe(0);
    expect((await list("person=bea")).total).toBe(3);
    expect((await list(`person=${BUYER.id}`)).total).toBe(3);
    expect((await list("person=ada")).total).toBe(0);
    expect((await list("status=unconfirmed")).items.map((i) => i.recipient)).toEqual([
      "carol_gifts",
    ]);
    expect((await list("status=succeeded,unconfirmed")).total).toBe(3);
    expect((await list("kind=premium")).total).toBe(0);
    expect((await list(`from=${utcDay(h.clock())}`)).total).toBe(3);
    expect((await list(`to=${utcDay(h.clock() - 86_400_000)}`)).total).toBe(0);

    // Paged: 21 more drafts make two pages of 20.
    for (let i = 0; i < 21; i++) {
      await h.ledger.createDraft({
        kind: "stars",
        recipient: `draft_${i}`,
        quantity: 50,
        paymentMethod: "usdt_ton",
        requester: { userId: BUYER.id, chatId: BUYER.id, chatType: "private" },
        balanceBefore: undefined,
      });
    }
    const first = (await app.get("purchases?page=0")).body as Items & { pageSize: number };
    expect(first).toMatchObject({ total: 24, pageSize: 20 });
    expect(first.items).toHaveLength(20);
    expect(first.items[0]?.recipient).toBe("draft_20");
    expect((await list("page=1")).items.map((i) => i.recipient)).toEqual([
      "draft_0",
      "carol_gifts",
      "bob_gifts",
      "alice_gifts",
    ]);

    // One purchase's evidence: the balance read afresh for the unknown outcome.
    const detail = (await app.get(`purchases/${unknown}`)).body;
    expect(detail).toMatchObject({ id: unknown, status: "unconfirmed", settleable: true });
    expect(detail.balanceNow).toEqual({ ton: "100", usdt: expect.any(String) });
    expect((await app.get("purchases/no_such_id_here")).status).toBe(404);

    const secrets = [
      token(h),
      TEST_CREDENTIALS.cookie,
      TEST_CREDENTIALS.mnemonic.split(" ").slice(0, 2).join(" "),
    ];
    for (const body of app.bodies) for (const secret of secrets) expect(body).not.toContain(secret);
  });

  it("settles an unknown outcome, pauses and resumes through the chat's own operations, only on the replica that sends", async () => {
    const { h } = await adminWorld();
    const unknown = await purchases(h);
    const app = await appOn(h);

    // A replica on standby reads, and refuses decisions with a clear sentence.
    app.lease.holds = false;
    expect((await app.get("overview")).status).toBe(200);
    const refused = await app.post(`purchases/${unknown}/settle`, { delivered: true });
    expect(refused).toEqual({
      status: 409,
      body: { ok: false, message: expect.stringMatching(/^This replica is on standby/) },
    });
    expect((await h.records.getIntent(unknown))?.status).toBe("unconfirmed");
    app.lease.holds = true;

    expect((await app.post(`purchases/${unknown}/settle`, { delivered: "yes" })).status).toBe(400);
    const settled = await app.post(`purchases/${unknown}/settle`, { delivered: false });
    expect(settled.status).toBe(200);
    expect(settled.body.message).toBe(
      "Settled as not delivered. The buyer and the other admins are told.\nEvery unknown outcome is settled: purchases resumed.",
    );
    const intent = await h.records.getIntent(unknown);
    expect(intent).toMatchObject({ status: "not_delivered", resolvedBy: ADMIN.id });
    // The same effects as the chat's button: Bea is told in her chat, and every admin's alert
    // of it turns settled, its buttons gone.
    await h.app.services.background.idle();
    await h.app.notifier.idle();
    expect(sentTexts(h, BUYER.id).at(-1)).toMatch(
      /^🔔 .*\n\n❌ Not delivered: 50 Telegram Stars to @carol_gifts/,
    );
    const alert = h.telegram
      .callsOf("editMessageText")
      .filter((c) => Number(c.payload.chat_id) === ADMIN2.id)
      .at(-1);
    expect(String(alert?.payload.text)).toMatch(/^❌/);
    expect(alert?.payload.reply_markup).toBeUndefined();
    const again = await app.post(`purchases/${unknown}/settle`, { delivered: true });
    expect(again).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(/^Already settled/) },
    });

    expect((await app.post("pause")).body.message).toMatch(/^⏸ Purchases are paused/);
    expect((await h.records.status()).paused).toBe(true);
    expect((await app.get("overview")).body.status).toMatchObject({
      paused: true,
      pausedBy: "admin",
    });
    expect((await app.post("resume")).body.message).toBe("▶ Purchases are open again.");
    expect((await h.records.status()).paused).toBe(false);

    // A non-admin's signed call is refused (403) and changes nothing.
    expect((await app.post("pause", {}, BUYER)).status).toBe(403);
    expect((await h.records.status()).paused).toBe(false);
  });

  it("limits the writes of one admin per minute", async () => {
    const { h } = await adminWorld();
    const app = await appOn(h);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await app.post(i % 2 === 0 ? "pause" : "resume")).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Another admin still may; and the next minute the first may again.
    expect((await app.post("resume", {}, ADMIN2)).status).toBe(200);
    h.clock.advance(60_000);
    expect((await app.post("resume")).status).toBe(200);
  });

  it("pauses, resumes and cancels a giveaway as its progress message's buttons do", async () => {
    const { h } = await adminWorld();
    const runner = h.app.giveaways.runner;
    const batch = await runner.create({
      kind: "stars",
      quantity: 50,
      paymentMethod: "usdt_ton",
      adminId: ADMIN.id,
      chatId: ADMIN.id,
      recipients: ["winner_01", "winner_02"],
      balanceBefore: undefined,
    });
    const app = await appOn(h);
    const listed = (await app.get("giveaways")).body.giveaways as { id: string; status: string }[];
    expect(listed).toMatchObject([{ id: batch.id, status: "running" }]);

    expect((await app.post(`giveaways/${batch.id}/pause`)).body).toEqual({
      ok: true,
      message: "Paused after the recipient being sent now.",
    });
    expect((await app.post(`giveaways/${batch.id}/pause`)).status).toBe(409);
    await app.post("pause");
    expect((await app.post(`giveaways/${batch.id}/resume`)).body.message).toMatch(
      /^Purchases are paused or on hold/,
    );
    await app.post("resume");
    expect((await app.post(`giveaways/${batch.id}/resume`)).body.message).toBe(
      "Going on from the next recipient.",
    );
    await runner.idle();
    expect((await runner.state(batch.id))?.counts.delivered).toBe(2);
    expect((await app.get("giveaways")).body.giveaways).toEqual([]);
    expect((await app.post(`giveaways/${batch.id}/cancel`)).status).toBe(409);
    expect((await app.post("giveaways/nothing_here/cancel")).status).toBe(404);
  });
});

describe("/dashboard", () => {
  it("without the app set up, tells an admin how to turn it on; for anyone else it is no command", async () => {
    const { h } = await adminWorld();
    const ada = chatPerson(h, ADMIN);
    await ada.command("dashboard");
    expect(ada.lastMessage().text).toMatch(
      /^The admin app is off: set ADMIN_APP_PORT and ADMIN_APP_URL/,
    );
    const bea = chatPerson(h, BUYER);
    await bea.command("dashboard");
    expect(bea.lastMessage().text).not.toMatch(/admin app/i);
  });
});

function token(h: BotHarness): string {
  return h.app.config.telegram.token.split(":")[1] ?? "";
}
