/**
 * The admins' Mini App of the BUILT bot (`dist/src/main.js`), driven in a real Chromium from npm
 * (tools/testing/browser.ts) the way Telegram opens it: the launch parameters in the URL's
 * fragment, signed with the bot's token. Real purchases are made in the chat first (the
 * emulator and the sandbox), so the overview, the chart and the list show them.
 *
 * ADMIN_APP_SCREENSHOTS=<folder> also writes the pictures of docs/admin-app.md there.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed, onTestFinished } from "vitest";
import { startDemo } from "../../tools/demo/demo.js";
import { launchBrowser, type LocalBrowser } from "../../tools/testing/browser.js";
import {
  type InitDataUser,
  launchUrl,
  signInitData,
  THEMES,
} from "../../tools/testing/init-data.js";
import {
  type BotProcess,
  DEMO_ADMIN,
  DEMO_USER,
  Person,
  secretsIn,
  spawnBot,
  startBot,
  startWorld,
  starsSummary,
  WAIT_MS,
  type World,
} from "../helpers/built-process.js";
import { pixelStats } from "../helpers/png.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { tempDir } from "../helpers/temp-dir.js";

let browser: LocalBrowser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser.close();
});

/** The bot with its app on a free port; resolves with the app's page address. */
async function startWithApp(world: World): Promise<{ bot: BotProcess; pageUrl: string }> {
  const bot = await startBot(world, {
    ADMIN_APP_PORT: "0",
    ADMIN_APP_URL: "https://admin.example.org/admin",
  });
  const line = await bot.waitForLog((l) => l.msg === "admin app listening");
  return { bot, pageUrl: `${String(line.listening)}/admin/` };
}

/** Stars bought in the chat by Uma: one gift per recipient, each delivered. */
async function buyStars(world: World, recipients: string[]): Promise<void> {
  const uma = new Person(world.emulator, DEMO_USER.id);
  for (const recipient of recipients) {
    const summary = await starsSummary(uma, recipient);
    await uma.press(summary, "✅ Confirm");
    await uma.waitForText(summary.id, /^✅ Delivered|The outcome is unknown/m);
  }
}

/** Opens the app as `user` in `theme`; resolves once the first screen says it is drawn. */
async function openApp(
  pageUrl: string,
  token: string,
  theme: keyof typeof THEMES,
  user: InitDataUser = DEMO_ADMIN,
): Promise<Page> {
  const page = await browser.newPage();
  watchConsole(page);
  await page.goto(launchUrl(pageUrl, signInitData(token, user), theme));
  await page.waitForSelector("body[data-ready]", { timeout: WAIT_MS });
  return page;
}

/**
 * Fails the test on any error the page logs (a script error, a refused Content-Security-Policy
 * directive); refused API calls (401, 403) are the point of some tests and are not errors here.
 */
function watchConsole(page: Page): void {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !/status of 40[13]/.test(message.text())) {
      errors.push(message.text());
    }
  });
  onTestFinished(() => expect(errors).toEqual([]));
}

/** Every answer the page got, as text (for the secret scan). */
function recordAnswers(page: Page): string[] {
  const bodies: string[] = [];
  page.on("response", (response) => {
    void response
      .text()
      .then((text) => bodies.push(`${JSON.stringify(response.headers())}\n${text}`))
      .catch(() => undefined);
  });
  return bodies;
}

async function saveShot(page: Page, dir: string, name: string): Promise<string> {
  const path = join(dir, name);
  await page.screenshot({ path, fullPage: true });
  const keep = process.env.ADMIN_APP_SCREENSHOTS;
  if (keep !== undefined && keep !== "") {
    mkdirSync(keep, { recursive: true });
    copyFileSync(path, join(keep, name));
  }
  return path;
}

describe("the admins' Mini App in a real browser", () => {
  it("draws the overview and the chart from real purchases; the list is searched, filtered and paged; settling tells the buyer", async () => {
    const world = await startWorld();
    const { bot, pageUrl } = await startWithApp(world);
    onTestFailed(() => {
      const chat = world.emulator.chat(DEMO_USER.id).slice(-4);
      console.log(chat.map((m) => `#${m.id} ${m.text}`).join("\n"));
    });
    const token = world.emulator.token;
    await buyStars(world, ["alice_gifts", "bob_gifts", "carol_gifts"]);
    world.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await buyStars(world, ["dave_gifts"]);

    const shots = tempDir("giftbot-shots-");
    for (const theme of ["light", "dark"] as const) {
      const page = await openApp(pageUrl, token, theme);
      const answers = recordAnswers(page);
      expect(await page.getAttribute("body", "data-ready")).toBe("overview");
      // The overview: purchases on hold for Dave's unknown outcome, which waits for a decision.
      await expect.poll(() => page.textContent("[data-field=state]")).toContain("on hold");
      expect(await page.textContent("[data-field=pending]")).toContain("@dave_gifts");
      await expect.poll(() => page.textContent("[data-field=balance]")).not.toContain("…");
      expect(await page.textContent("[data-field=balance]")).toMatch(/TON/);
      // The chart: two uPlot canvases, drawn (not blank), over the three delivered gifts.
      expect(await page.locator(".chart canvas").count()).toBe(2);
      const overview = await pixelStats(
        browser,
        await saveShot(page, shots, `admin-app-overview-${theme}.png`),
      );
      expect(overview.colours).toBeGreaterThan(20);
      expect(overview.share(THEMES[theme].bg_color)).toBeLessThan(0.9);
      const chart = await pixelStats(
        browser,
        await page.locator("[data-chart=gifts] canvas").screenshot(),
      );
      expect(chart.colours).toBeGreaterThan(5);

      await page.click("[data-tab=purchases]");
      await page.waitForSelector("[data-field=list][data-loads]");
      expect(await page.textContent("[data-field=total]")).toMatch(/: 4$/);
      const list = await pixelStats(
        browser,
        await saveShot(page, shots, `admin-app-purchases-${theme}.png`),
      );
      expect(list.colours).toBeGreaterThan(10);
      for (const text of answers) expect(secretsIn(text, bot.env)).toEqual([]);
      await page.context().close();
    }

    const page = await openApp(pageUrl, token, "light");
    const answers = recordAnswers(page);
    await page.click("[data-tab=purchases]");
    await page.waitForSelector("[data-field=list][data-loads='1']");
    const rows = () => page.locator("tr[data-purchase]");
    // Search by recipient, then by person; filters by status and kind.
    await page.fill("input[name=recipient]", "@bob");
    await expect.poll(() => rows().count()).toBe(1);
    expect(await page.textContent("[data-field=recipient]")).toBe("@bob_gifts");
    await page.fill("input[name=recipient]", "");
    await page.fill("input[name=person]", "uma");
    await expect.poll(() => page.textContent("[data-field=total]")).toMatch(/: 4$/);
    await page.fill("input[name=person]", String(DEMO_ADMIN.id));
    await expect.poll(() => page.textContent("[data-field=total]")).toMatch(/: 0$/);
    await page.fill("input[name=person]", "");
    await page.selectOption("select[name=status]", "unconfirmed");
    await expect.poll(() => rows().count()).toBe(1);
    await page.selectOption("select[name=kind]", "premium");
    await expect.poll(() => page.textContent("[data-field=total]")).toMatch(/: 0$/);
    await page.selectOption("select[name=kind]", "");
    await expect.poll(() => rows().count()).toBe(1);

    // Dave's purchase opens its evidence; Delivered settles it, and Uma is told in her chat.
    const umaChat = world.emulator.chat(DEMO_USER.id).length;
    await rows().first().click();
    await page.waitForSelector("[data-settle=delivered]");
    expect(await page.textContent(".detail")).toContain("Balance now");
    await page.click("[data-settle=delivered]");
    await expect.poll(() => page.textContent("[role=status]")).toMatch(/^Settled as delivered/);
    const told = await world.emulator.waitFor(
      (e) =>
        e
          .chat(DEMO_USER.id)
          .slice(umaChat)
          .find((m) => m.fromBot && /dave_gifts/.test(m.text)),
      { timeoutMs: WAIT_MS },
    );
    expect(told.text).toMatch(/delivered/i);
    expect((await world.intents()).find((i) => i.recipient === "dave_gifts")?.status).toBe(
      "delivered",
    );
    expect(bot.logs.some((l) => l.msg === "admin app: a decision" && l.action === "settle")).toBe(
      true,
    );
    // Back on the overview, purchases are open again; Pause and Resume act from there.
    await page.click("[data-tab=overview]");
    await expect.poll(() => page.textContent("[data-field=state]")).toBe("open");
    await page.click("[data-action=pause]");
    await expect.poll(() => page.textContent("[role=status]")).toMatch(/Purchases are paused/);
    await expect.poll(() => page.textContent("[data-field=state]")).toBe("paused by an admin");
    await page.click("[data-action=resume]");
    await expect.poll(() => page.textContent("[data-field=state]")).toBe("open");
    for (const text of answers) expect(secretsIn(text, bot.env)).toEqual([]);
    expect(secretsIn(bot.output(), bot.env)).toEqual([]);
  }, 120_000);

  it("refuses forged, stale and non-admin init data, in the page and in the API", async () => {
    const world = await startWorld();
    const { pageUrl } = await startWithApp(world);
    const token = world.emulator.token;
    const api = (initData: string | undefined) =>
      fetch(`${pageUrl}api/overview`, {
        headers: initData === undefined ? {} : { authorization: `tma ${initData}` },
      });
    const good = signInitData(token, DEMO_ADMIN);
    expect((await api(good)).status).toBe(200);
    expect((await api(undefined)).status).toBe(401);
    const forged = signInitData("123456:not-the-bot-token", DEMO_ADMIN);
    expect((await api(forged)).status).toBe(401);
    const tampered = good.replace(/%22id%22%3A1001/, "%22id%22%3A1002");
    expect(tampered).not.toBe(good);
    expect((await api(tampered)).status).toBe(401);
    const stale = signInitData(token, DEMO_ADMIN, {
      authDate: Math.floor(Date.now() / 1000) - 2 * 3600,
    });
    expect((await api(stale)).status).toBe(401);
    expect((await api(signInitData(token, DEMO_USER))).status).toBe(403);
    const settle = await fetch(`${pageUrl}api/pause`, {
      method: "POST",
      headers: { authorization: `tma ${signInitData(token, DEMO_USER)}` },
    });
    expect(settle.status).toBe(403);

    // The page says why, in the person's language, and shows nothing else.
    const uma = await openApp(pageUrl, token, "light", DEMO_USER);
    expect(await uma.getAttribute("[data-refused]", "data-refused")).toBe("app-error-forbidden");
    expect(await uma.textContent("body")).toContain("Only the bot's admins");
    await uma.context().close();
    const old = await browser.newPage();
    await old.goto(launchUrl(pageUrl, stale, "dark"));
    await old.waitForSelector("[data-refused=app-error-expired]", { timeout: WAIT_MS });
    await old.context().close();

    // Strict headers on the page itself.
    const html = await fetch(pageUrl);
    expect(html.headers.get("content-security-policy")).toMatch(/^default-src 'self'/);
  }, 60_000);

  it("on PostgreSQL, a replica on standby answers reads and leaves decisions to the lease holder", async () => {
    const world = await startWorld({ env: { DATABASE_URL: await freshPostgresDatabase() } });
    const holder = await startWithApp(world);
    const standby = spawnBot(await world.env({ ADMIN_APP_PORT: "0" }));
    await standby.waitForLog(
      (l) => l.msg === "another process holds the sender lease: standing by",
    );
    const line = await standby.waitForLog((l) => l.msg === "admin app listening");
    const standbyUrl = `${String(line.listening)}/admin/`;
    const initData = signInitData(world.emulator.token, DEMO_ADMIN);
    const call = (base: string, path: string, method = "GET") =>
      fetch(`${base}api/${path}`, { method, headers: { authorization: `tma ${initData}` } });

    const overview = (await (await call(standbyUrl, "overview")).json()) as {
      lease: { here: boolean; holder: string };
    };
    expect(overview.lease.here).toBe(false);
    expect(overview.lease.holder).toMatch(/:\d+$/);
    expect(await (await call(standbyUrl, "balance")).json()).toMatchObject({ live: false });
    const refused = await call(standbyUrl, "pause", "POST");
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toMatch(/on standby/);
    expect((await call(holder.pageUrl, "pause", "POST")).status).toBe(200);
    const paused = (await (await call(standbyUrl, "overview")).json()) as {
      status: { paused: boolean };
    };
    expect(paused.status.paused).toBe(true);
  }, 60_000);

  it("the demo prints a link that opens the app in a browser as its admin", async () => {
    const demo = await startDemo();
    onTestFinished(() => demo.stop());
    expect(demo.adminAppLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/admin\/#tgWebAppData=/);
    const page = await browser.newPage();
    watchConsole(page);
    await page.goto(demo.adminAppLink);
    await page.waitForSelector("body[data-ready=overview]", { timeout: WAIT_MS });
    expect(await page.textContent("[data-field=state]")).toBe("open");
    await page.context().close();
  }, 60_000);

  it("sets the app as the menu button of the admins' chats only, and /dashboard opens it", async () => {
    const world = await startWorld();
    const started = await startWithApp(world);
    const menu = await world.emulator.waitFor(
      (e) =>
        e.calls.find(
          (c) => c.method === "setChatMenuButton" && Number(c.payload.chat_id) === DEMO_ADMIN.id,
        ),
      { timeoutMs: WAIT_MS },
    );
    expect(menu.payload.menu_button).toEqual({
      type: "web_app",
      text: "📊 Admin app",
      web_app: { url: "https://admin.example.org/admin/" },
    });
    expect(
      world.emulator.calls.filter(
        (c) => c.method === "setChatMenuButton" && Number(c.payload.chat_id) !== DEMO_ADMIN.id,
      ),
    ).toEqual([]);
    const ada = new Person(world.emulator, DEMO_ADMIN.id);
    // In the admin's Telegram language when they chose none with /language.
    const { pageUrl } = started;
    const russian = await openApp(pageUrl, world.emulator.token, "dark", {
      ...DEMO_ADMIN,
      language_code: "ru",
    });
    expect(await russian.textContent("[data-tab=overview]")).toBe("Обзор");
    expect(await russian.textContent("[data-field=state]")).toBe("открыты");
    expect(await russian.getAttribute("html", "data-scheme")).toBe("dark");
    await russian.context().close();
    const answer = await ada.say("/dashboard");
    expect(answer.replyMarkup?.inline_keyboard).toEqual([
      [{ text: "📊 Admin app", web_app: { url: "https://admin.example.org/admin/" } }],
    ]);
  }, 60_000);
});
