/**
 * 9. The admins' Mini App with `purchases` purchases in the ledger (10,000 by default): the
 * built bot (`node dist/src/main.js`, its app on a port of its own) on a SQLite file filled
 * through the ledger's own writes, spread over the last 30 days (stars and Premium, 200 people,
 * some refused, the last one's outcome unknown, measured costs), then
 * - the first screen: a real Chromium from npm (tools/testing/browser.ts) opens the app as
 *   Telegram would (launch parameters in the fragment, signed with the bot's token), from the
 *   navigation to `<body data-ready="overview">` (the overview and the chart drawn); the first
 *   run is cold (a new browser context: no cache), the figure is the median of the runs;
 * - the API: every read the page makes (and the list searched, filtered and paged deep), each
 *   called again and again one at a time, and the 95th percentile over all of them.
 * The database is in /dev/shm when there is one (filling it does 30,000 commits).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mnemonicNew } from "@ton/crypto";
import type { IntentKind, NewIntent } from "../../src/ledger/types.js";
import type { PurchaseOutcome } from "../../src/service/types.js";
import { openSqliteStorage } from "../../src/storage/sqlite/open.js";
import { startSandbox } from "../../tools/sandbox/server.js";
import { launchBrowser } from "../../tools/testing/browser.js";
import { freePort } from "../../tools/testing/free-port.js";
import { launchUrl, signInitData } from "../../tools/testing/init-data.js";
import { TelegramEmulatorClient } from "../../tools/telegram-emulator/client.js";
import { DEMO_ADMIN, setUpDemoPeople } from "../../tools/telegram-emulator/demo-people.js";
import { startTelegramEmulator } from "../../tools/telegram-emulator/server.js";
import { waitForExit } from "../lib/child.js";
import { percentile, round } from "../lib/stats.js";
import type { Row } from "../lib/table.js";
import { MAIN_JS } from "./startup.js";

export interface AdminAppResult {
  purchases: number;
  /** Median of the runs, navigation to the first screen drawn. */
  first_screen_s: number;
  first_screen_cold_s: number;
  first_screen_runs_s: number[];
  api_p95_ms: number;
  api_calls: number;
  /** p95 per read, ms. */
  api_p95_by_read_ms: Record<string, number>;
  fill_s: number;
}

const DAY_MS = 86_400_000;
const PEOPLE = 200;
const FIRST_SCREEN_RUNS = 5;
const CALLS_PER_READ = 40;

const delivered: PurchaseOutcome = {
  kind: "success",
  value: { txHash: "bench-tx", data: undefined },
  body: { ok: true, tx_hash: "bench-tx" },
};

const refused: PurchaseOutcome = {
  kind: "rejected",
  status: 400,
  detail: "bench refusal",
  body: { ok: false, error: "bench refusal" },
};

const unknown: PurchaseOutcome = {
  kind: "ambiguous",
  cause: "timeout",
  detail: "bench: no answer",
};

function purchaseOf(i: number): NewIntent {
  const premium = i % 7 === 0;
  const person = 20_000 + (i % PEOPLE);
  return {
    kind: (premium ? "premium" : "stars") satisfies IntentKind,
    recipient: `bench_recipient_${i % 1500}`,
    quantity: premium ? ([3, 6, 12][i % 3] ?? 3) : 50 + (i % 20) * 50,
    paymentMethod: "usdt_ton",
    requester: { userId: person, chatId: person, chatType: "private" },
    balanceBefore: { ton: "100", usdt: "100000" },
  };
}

/** The ledger filled as purchases fill it: draft, claim, outcome, cost; one after another. */
async function fill(path: string, purchases: number, now: number): Promise<void> {
  const storage = await openSqliteStorage(path);
  try {
    const ledger = storage.openLedger({
      limits: {
        starsPerPurchase: 1_000_000,
        starsPerUserDay: 1_000_000_000,
        starsPerBotDay: 1_000_000_000,
        premiumPerUserDay: 1_000_000,
        premiumPerBotDay: 1_000_000,
      },
    });
    const accounts = storage.openAccounts();
    const names = storage.keyValues<string>("people");
    for (let p = 0; p < PEOPLE; p++) await names.write(String(20_000 + p), `@bench_buyer_${p}`);
    const start = now - 30 * DAY_MS + 60_000;
    const step = (30 * DAY_MS - 120_000) / purchases;
    for (let i = 0; i < purchases; i++) {
      const at = Math.floor(start + i * step);
      const request = purchaseOf(i);
      const draft = await ledger.createDraft(request, at);
      const claim = await ledger.claim(draft.id, request.requester.userId, at);
      if (!claim.ok) throw new Error(`the bench's claim was refused: ${claim.reason}`);
      // The last one's outcome stays unknown (it holds purchases until an admin settles it).
      const outcome = i === purchases - 1 ? unknown : i % 20 === 0 ? refused : delivered;
      await ledger.recordOutcome(draft.id, outcome, at + 500);
      if (outcome === delivered) {
        await accounts.recordCost(draft.id, {
          measured: true,
          amount: String(((request.quantity * 15) / 1000).toFixed(3)),
          currency: "usdt",
          source: "balance_after",
          at: at + 1000,
        });
      }
    }
  } finally {
    await storage.close();
  }
}

/** Resolves once the app answers (the bot starts it before anything else). */
async function untilAnswering(url: string, bot: ChildProcess): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (bot.exitCode !== null) throw new Error("the bot exited at start");
    const answered = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the admin app did not answer within a minute");
}

/** Every read the page makes, and the list as an admin searches it. */
function reads(someId: string): Record<string, string> {
  return {
    session: "session",
    overview: "overview",
    balance: "balance",
    spending: "spending",
    giveaways: "giveaways",
    purchases: "purchases",
    "purchases, page 200": "purchases?page=200",
    "by recipient": "purchases?recipient=recipient_14",
    "by person name": "purchases?person=buyer_17",
    "by status and kind": "purchases?status=rejected&kind=premium",
    "by dates": "purchases?from=2000-01-01&to=2100-01-01&page=3",
    purchase: `purchases/${someId}`,
  };
}

async function measureApi(base: string, initData: string) {
  const call = async (path: string) => {
    const started = performance.now();
    const response = await fetch(`${base}api/${path}`, {
      headers: { authorization: `tma ${initData}` },
    });
    const body: unknown = await response.json();
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    return { ms: performance.now() - started, body };
  };
  const first = (await call("purchases?status=succeeded")).body as { items: { id: string }[] };
  const all: number[] = [];
  const byRead: Record<string, number> = {};
  for (const [name, path] of Object.entries(reads(first.items[0]?.id ?? "none"))) {
    const samples: number[] = [];
    for (let i = 0; i < CALLS_PER_READ; i++) samples.push((await call(path)).ms);
    byRead[name] = round(percentile(samples, 95), 1);
    all.push(...samples);
  }
  return { p95: round(percentile(all, 95), 1), calls: all.length, byRead };
}

async function measureFirstScreen(pageUrl: string, initData: string): Promise<number[]> {
  const browser = await launchBrowser();
  try {
    const runs: number[] = [];
    for (let run = 0; run < FIRST_SCREEN_RUNS; run++) {
      const page = await browser.newPage();
      const started = performance.now();
      await page.goto(launchUrl(pageUrl, initData, "light"));
      await page.waitForSelector("body[data-ready=overview]", { timeout: 30_000 });
      runs.push(round((performance.now() - started) / 1000, 3));
      await page.context().close();
    }
    return runs;
  } finally {
    await browser.close();
  }
}

export async function runAdminApp(options: { purchases: number }): Promise<AdminAppResult> {
  const dir = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "giftbot-app-"));
  const sandbox = await startSandbox({ quota: false });
  const emulator = await startTelegramEmulator();
  let bot: ChildProcess | undefined;
  try {
    await setUpDemoPeople(new TelegramEmulatorClient(emulator.url));
    const databasePath = join(dir, "giftbot.sqlite");
    const filling = performance.now();
    await fill(databasePath, options.purchases, Date.now());
    const fillS = round((performance.now() - filling) / 1000, 1);
    const port = await freePort();
    bot = spawn(process.execPath, [MAIN_JS], {
      env: {
        PATH: process.env.PATH ?? "",
        ENV_FILE: "none",
        BOT_TOKEN: emulator.token,
        TELEGRAM_API_ROOT: emulator.apiRoot,
        GIFT_API_BASE_URL: sandbox.url,
        WALLET_MNEMONIC: (await mnemonicNew(24)).join(" "),
        MARKETPLACE_COOKIE: "stel_ssid=bench",
        ADMIN_IDS: String(DEMO_ADMIN.id),
        DATABASE_PATH: databasePath,
        ADMIN_APP_PORT: String(port),
        LIMIT_STARS_PER_DAY: "1000000000",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const pageUrl = `http://127.0.0.1:${port}/admin/`;
    await untilAnswering(pageUrl, bot);
    const initData = signInitData(emulator.token, DEMO_ADMIN);
    const runs = await measureFirstScreen(pageUrl, initData);
    const api = await measureApi(pageUrl, initData);
    return {
      purchases: options.purchases,
      first_screen_s: percentile(runs, 50),
      first_screen_cold_s: runs[0] ?? Number.NaN,
      first_screen_runs_s: runs,
      api_p95_ms: api.p95,
      api_calls: api.calls,
      api_p95_by_read_ms: api.byRead,
      fill_s: fillS,
    };
  } finally {
    if (bot !== undefined && bot.exitCode === null) {
      bot.kill("SIGTERM");
      await waitForExit(bot, 15_000);
    }
    await emulator.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function adminAppRows(result: AdminAppResult): Row[] {
  return [
    { section: `9. Admin app (${result.purchases} purchases in the ledger, built bot, Chromium)` },
    [
      "first screen s: median (cold, each run)",
      `${result.first_screen_s} (${result.first_screen_cold_s}; ${result.first_screen_runs_s.join(", ")})`,
    ],
    [`API p95 ms over ${result.api_calls} calls`, `${result.api_p95_ms}`],
    [
      "API p95 ms by read",
      Object.entries(result.api_p95_by_read_ms)
        .map(([k, v]) => `${k} ${v}`)
        .join(", "),
    ],
    ["ledger filled through its writes, s", `${result.fill_s}`],
  ];
}
