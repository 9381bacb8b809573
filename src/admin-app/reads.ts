/**
 * The API's reads. Any replica answers them (the database is shared); only the wallet's live
 * balance is read by the replica that sends, since a replica on standby sends the service
 * nothing (src/run/replicas.ts): there the last balance kept in the accounts is shown instead.
 */
import type { IntentKind, IntentStatus, PurchaseIntent } from "../ledger/types.js";
import type { PurchaseFilter } from "../ledger/admin-reads.js";
import { utcDayStart } from "../shared/utc-day.js";
import type { AppUser } from "./init-data.js";
import { localeOf, pageTexts, premiumNames } from "./texts.js";
import type { AdminAppDeps } from "./types.js";
import {
  giveawayView,
  type NameOf,
  purchaseDetail,
  purchaseView,
  spendingDays,
  spendingFrom,
} from "./views.js";

/** Days on the spending chart. */
const CHART_DAYS = 30;

/** Purchases per page of the list. */
const PAGE_SIZE = 20;

/** Unknown outcomes listed on the overview (the total is always given). */
const PENDING_SHOWN = 20;

const STATUSES: readonly IntentStatus[] = [
  "draft",
  "queued",
  "sending",
  "succeeded",
  "rejected",
  "unconfirmed",
  "delivered",
  "not_delivered",
  "cancelled",
  "expired",
];

export class AppReads {
  readonly #deps: AdminAppDeps;

  constructor(deps: AdminAppDeps) {
    this.#deps = deps;
  }

  /** Who the admin is, their language and every text of the page in it. */
  async session(user: AppUser) {
    const locale = await localeOf(user, this.#deps.texts);
    const names = await this.#deps.names([user.id]);
    return {
      admin: { id: user.id, name: names.get(user.id) },
      locale,
      texts: pageTexts(this.#deps.texts, locale),
      premiumNames: premiumNames(this.#deps.texts, locale),
    };
  }

  /** Everything the first screen shows but the balance and the chart. */
  async overview() {
    const { records } = this.#deps;
    const [status, usage, pending, giveaways, lease] = await Promise.all([
      records.status(),
      records.usageToday(),
      records.unconfirmed(),
      this.giveaways(),
      this.#lease(),
    ]);
    const limits = records.limits();
    const shown = pending.slice(0, PENDING_SHOWN);
    const nameOf = await this.#namesOf(shown);
    return {
      status,
      today: {
        day: usage.day,
        stars: usage.starsBot,
        premium: usage.premiumBot,
        starsLimit: limits.starsPerBotDay,
        premiumLimit: limits.premiumPerBotDay,
      },
      pending: { total: pending.length, shown: shown.map((i) => purchaseView(i, nameOf)) },
      breakerOpen: status.pausedBy === "breaker",
      lease,
      backup: { kept: this.#deps.backupsKept, lastAt: this.#deps.lastBackupAt() },
      giveaways,
    };
  }

  /** The wallet: read through the desk (shared, cached reads) by the sender; else as kept. */
  async balance() {
    const { desk, records, lease, clock } = this.#deps;
    if (!lease.holdsLease()) {
      const kept = (await records.dayFigures(utcDayStart(clock()))).balanceEnd;
      return { live: false, balance: kept };
    }
    const read = await desk.readBalance();
    return {
      live: true,
      balance: read.kind === "ok" ? { ton: read.balance.ton, usdt: read.balance.usdt } : undefined,
    };
  }

  /** The delivered purchases of the last {@link CHART_DAYS} days, oldest first. */
  async spending() {
    const now = this.#deps.clock();
    const found = await this.#deps.reads.dailySpending(spendingFrom(now, CHART_DAYS), now + 1);
    return { days: spendingDays(found, now, CHART_DAYS) };
  }

  /** One page of the list, newest first, as the query asks. */
  async purchases(query: URLSearchParams) {
    const page = Math.max(0, Math.trunc(Number(query.get("page") ?? 0)) || 0);
    const found = await this.#deps.reads.purchasesPage(filterOf(query), {
      limit: PAGE_SIZE,
      offset: page * PAGE_SIZE,
    });
    const nameOf = await this.#namesOf(found.intents);
    return {
      items: found.intents.map((intent) => purchaseView(intent, nameOf)),
      total: found.total,
      page,
      pageSize: PAGE_SIZE,
    };
  }

  /**
   * One purchase with its evidence; an unknown outcome's is gathered as the chat's /pending
   * does (the balance read afresh), by the replica that sends only.
   */
  async purchase(id: string) {
    const { records, desk, lease } = this.#deps;
    const intent = await records.getIntent(id);
    if (intent === undefined) return undefined;
    const evidence =
      intent.status === "unconfirmed" && lease.holdsLease()
        ? await desk.admin.evidence(id)
        : undefined;
    const fresh = evidence?.intent ?? intent;
    const related = [fresh, ...(evidence?.sentSinceBalanceBefore ?? [])];
    const nameOf = await this.#namesOf(related, fresh.resolvedBy);
    return purchaseDetail(fresh, {
      nameOf,
      history: await records.history(id),
      evidence,
      explorerUrl: this.#deps.explorerUrl,
    });
  }

  /** Giveaways not ended, with their counts now (the page polls this for live progress). */
  async giveaways() {
    const { reads, giveaways } = this.#deps;
    const batches = await reads.openBatches();
    const states = await Promise.all(batches.map((batch) => giveaways.state(batch.id)));
    return states.flatMap((state) =>
      state === undefined ? [] : [giveawayView(state.batch, state.counts)],
    );
  }

  async #lease() {
    const { lease } = this.#deps;
    const holder = await lease.holder();
    return {
      here: holder?.owner === lease.self,
      // host:pid only: the rest of the owner id is for the lease keeper.
      holder: holder?.owner.split(":").slice(0, 2).join(":"),
      expiresAt: holder?.expiresAt,
    };
  }

  async #namesOf(intents: readonly PurchaseIntent[], ...more: (number | undefined)[]) {
    const ids = [
      ...new Set([
        ...intents.map((i) => i.requester.userId),
        ...more.filter((id) => id !== undefined),
      ]),
    ];
    const names = await this.#deps.names(ids);
    const nameOf: NameOf = (id) => names.get(id);
    return nameOf;
  }
}

/** The list's filter from the page's query (unknown values are ignored, never an error). */
function filterOf(query: URLSearchParams): PurchaseFilter {
  const statuses = (query.get("status") ?? "")
    .split(",")
    .filter((s): s is IntentStatus => (STATUSES as readonly string[]).includes(s));
  const kind = query.get("kind");
  return {
    ...textParam(query, "person"),
    ...textParam(query, "recipient"),
    ...(statuses.length > 0 ? { statuses } : {}),
    ...(kind === "stars" || kind === "premium" ? { kind: kind satisfies IntentKind } : {}),
    ...dayParam(query, "from", 0),
    ...dayParam(query, "to", 86_400_000),
  };
}

function textParam(query: URLSearchParams, name: "person" | "recipient") {
  const value = query.get(name)?.trim().slice(0, 64) ?? "";
  return value === "" ? {} : { [name]: value };
}

/** A `YYYY-MM-DD` day (UTC) as ms, plus `offsetMs` ("to" is the end of its day). */
function dayParam(query: URLSearchParams, name: "from" | "to", offsetMs: number) {
  const value = query.get(name) ?? "";
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return {};
  const at = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(at) ? {} : { [name]: at + offsetMs };
}
