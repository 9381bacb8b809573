/**
 * The admins' Mini App page: reads its launch parameters, asks the server who the admin is
 * (with the page's texts in their language), the overview and the chart's days at once, and
 * draws the first screen; the list of purchases and a purchase's evidence on demand. When the
 * first screen is drawn, `<body data-ready="overview">` says so (tests and the bench wait for
 * it).
 */
import "./style.css";
import { Api, publicTexts, Refused } from "./api.js";
import { type PageContext, text } from "./context.js";
import { DetailView } from "./detail.js";
import { h, show } from "./dom.js";
import { applyTheme, followThemeChanges, readLaunch, tellTelegramReady } from "./launch.js";
import { OverviewView } from "./overview.js";
import { PurchasesView } from "./purchases.js";
import type { Day, Overview, Session } from "./types.js";

const root = document.getElementById("app") ?? document.body;

async function start(): Promise<void> {
  const launch = readLaunch();
  applyTheme(launch.theme, launch.colorScheme);
  followThemeChanges();
  tellTelegramReady();
  const api = new Api(launch.initData);
  try {
    const [session, overview, spending] = await Promise.all([
      api.get<Session>("session"),
      api.get<Overview>("overview"),
      api.get<{ days: Day[] }>("spending"),
    ]);
    new Page(api, session).first(overview, spending.days);
  } catch (error) {
    await refused(error, launch.languageCode);
  }
}

class Page {
  readonly #context: PageContext;
  readonly #overview: OverviewView;
  readonly #purchases: PurchasesView;
  readonly #detail: DetailView;
  readonly #status = h("div", { className: "status", role: "status", "aria-live": "polite" });
  readonly #view = h("div", { className: "view" });
  readonly #tabs;
  #from: "overview" | "purchases" = "overview";

  constructor(api: Api, session: Session) {
    this.#context = {
      api,
      locale: session.locale,
      texts: session.texts,
      premiumNames: session.premiumNames,
      say: (message, ok) => {
        this.#status.textContent = message;
        this.#status.dataset.ok = String(ok);
      },
      openPurchase: (id) => void this.#openPurchase(id),
    };
    const c = this.#context;
    document.documentElement.lang = session.locale;
    document.title = text(c, "app-title");
    this.#overview = new OverviewView(c);
    this.#purchases = new PurchasesView(c);
    this.#detail = new DetailView(c, () => void this.#show(this.#from));
    const tab = (name: "overview" | "purchases", key: "app-tab-overview" | "app-tab-purchases") =>
      h("button", { "data-tab": name, on: { click: () => void this.#show(name) } }, text(c, key));
    this.#tabs = {
      overview: tab("overview", "app-tab-overview"),
      purchases: tab("purchases", "app-tab-purchases"),
    };
    this.#overview.element.addEventListener("changed", () => void this.#show("overview"));
    show(root, h("nav", {}, this.#tabs.overview, this.#tabs.purchases), this.#status, this.#view);
    root.removeAttribute("aria-busy");
  }

  /** The first screen, from the answers fetched together at the start. */
  first(overview: Overview, days: Day[]): void {
    this.#select("overview");
    show(this.#view, this.#overview.element);
    this.#overview.draw(overview, days);
    document.body.dataset.ready = "overview";
    void this.#loadBalance();
  }

  async #show(name: "overview" | "purchases"): Promise<void> {
    this.#select(name);
    await this.#guard(async () => {
      if (name === "purchases") {
        show(this.#view, this.#purchases.element);
        await this.#purchases.load();
        return;
      }
      const api = this.#context.api;
      const [overview, spending] = await Promise.all([
        api.get<Overview>("overview"),
        api.get<{ days: Day[] }>("spending"),
      ]);
      show(this.#view, this.#overview.element);
      this.#overview.draw(overview, spending.days);
      void this.#loadBalance();
    });
  }

  #select(name: "overview" | "purchases"): void {
    this.#from = name;
    this.#overview.followGiveaways(false);
    for (const [tab, button] of Object.entries(this.#tabs)) {
      button.setAttribute("aria-current", String(tab === name));
    }
  }

  async #openPurchase(id: string): Promise<void> {
    this.#overview.followGiveaways(false);
    show(this.#view, this.#detail.element);
    await this.#guard(() => this.#detail.open(id));
  }

  async #loadBalance(): Promise<void> {
    await this.#guard(async () =>
      this.#overview.showBalance(await this.#context.api.get("balance")),
    );
  }

  /** Runs `work`; a refusal or a failure is said in the status line. */
  async #guard(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      const c = this.#context;
      c.say(text(c, errorKey(error)), false);
    }
  }
}

/** The text that says why a call failed: the signature expired, not an admin, or no answer. */
function errorKey(
  error: unknown,
): "app-error-expired" | "app-error-forbidden" | "app-error-network" {
  if (!(error instanceof Refused)) return "app-error-network";
  return error.status === 401 ? "app-error-expired" : "app-error-forbidden";
}

/** The start failed: says why in the admin's language (the public texts, without a session). */
async function refused(error: unknown, languageCode: string | undefined): Promise<void> {
  const texts = await publicTexts(languageCode).catch(() => undefined);
  const key = errorKey(error);
  root.removeAttribute("aria-busy");
  show(root, h("p", { className: "refused", "data-refused": key }, texts?.[key] ?? key));
  document.body.dataset.ready = "refused";
}

void start();
