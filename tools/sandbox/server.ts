/**
 * A local simulator of the Gift Purchase Service (spec: gift-purchase-service-api.md). It lets the
 * client, the ledger and the bot be tested over real sockets against the rules of the spec
 * (form-urlencoded purchases, header checks, the shared quota, premium rejection, balances that
 * go down) and against the failures the real service can show (faults), without real money.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import {
  isPaymentMethod,
  isPremiumDuration,
  isStarsAmount,
  USERNAME_PATTERN,
} from "../../src/gifts/catalogue.js";
import { handleControl } from "./control.js";
import {
  type Currency,
  formatDecimal,
  type Price,
  parseDecimal,
  premiumPrice,
  starsPrice,
} from "./pricing.js";
import { SlidingQuota } from "./quota.js";
import type {
  Fault,
  FaultOptions,
  RecordedRequest,
  Sandbox,
  SandboxOptions,
  SandboxUser,
} from "./types.js";

export type {
  Fault,
  FaultOptions,
  RecordedRequest,
  Sandbox,
  SandboxOptions,
  SandboxUser,
} from "./types.js";

/** The defaults the sandbox starts with, exported so tests and docs can refer to them. */
export const SANDBOX_DEFAULTS = {
  host: "127.0.0.1",
  quota: { limit: 30, windowMs: 60_000 },
  balance: { ton: "100", usdt: "1000" },
} as const;

/** The service's paths (spec 4); all end with a slash. */
export const SERVICE_PATHS = {
  userInfo: "/get-user-info/",
  walletBalance: "/wallet-balance/",
  buyStars: "/buy-stars/",
  buyPremium: "/buy-premium/",
} as const;

const PURCHASE_PATHS: ReadonlySet<string> = new Set([
  SERVICE_PATHS.buyStars,
  SERVICE_PATHS.buyPremium,
]);
const WALLET_VERSIONS: ReadonlySet<string> = new Set(["auto", "v5r1", "v4r2", "v3r2"]);
const MAX_BODY_BYTES = 64 * 1024;

/** Rejects `waitForRequests` promises still pending when the sandbox closes. */
export class SandboxClosedError extends Error {
  override readonly name = "SandboxClosedError";
}

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface PendingFault {
  fault: Fault;
  path: string | undefined;
  remaining: number;
}

interface Waiter {
  count: number;
  path: string | undefined;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** Starts the sandbox on 127.0.0.1 (any free port unless told otherwise). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const quotaSetting = options.quota === undefined ? SANDBOX_DEFAULTS.quota : options.quota;
  const startingBalance = options.balance ?? SANDBOX_DEFAULTS.balance;
  const latencyMs = options.latencyMs ?? 0;
  const log = options.log;

  const state = {
    requests: [] as RecordedRequest[],
    faults: [] as PendingFault[],
    users: new Map<string, SandboxUser>(),
    balance: { ton: parseDecimal(startingBalance.ton), usdt: parseDecimal(startingBalance.usdt) },
    quota: quotaSetting ? new SlidingQuota(quotaSetting.limit, quotaSetting.windowMs) : undefined,
    waiters: [] as Waiter[],
    timers: new Set<NodeJS.Timeout>(),
    closed: false,
  };

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        state.timers.delete(timer);
        resolve();
      }, ms);
      state.timers.add(timer);
    });

  const countMatching = (path: string | undefined): number =>
    path === undefined
      ? state.requests.length
      : state.requests.filter((r) => r.path === path).length;

  const notifyWaiters = (): void => {
    state.waiters = state.waiters.filter((waiter) => {
      if (countMatching(waiter.path) < waiter.count) return true;
      waiter.resolve();
      return false;
    });
  };

  const takeFault = (path: string): Fault | undefined => {
    const index = state.faults.findIndex((f) => f.path === undefined || f.path === path);
    const pending = state.faults[index];
    if (!pending) return undefined;
    pending.remaining -= 1;
    if (pending.remaining <= 0) state.faults.splice(index, 1);
    return pending.fault;
  };

  const userFor = (username: string): Required<SandboxUser> => {
    const key = normaliseUsername(username);
    const set = state.users.get(key) ?? {};
    return {
      exists: set.exists ?? !key.startsWith("nobody"),
      isPremium: set.isPremium ?? key.startsWith("premium"),
    };
  };

  const sandbox: Sandbox = {
    url: "",
    requests: state.requests,
    purchaseRequests: () =>
      state.requests.filter((r) => r.method === "POST" && PURCHASE_PATHS.has(r.path)),
    injectFault(fault: Fault, faultOptions: FaultOptions = {}) {
      state.faults.push({ fault, path: faultOptions.path, remaining: faultOptions.times ?? 1 });
    },
    clearFaults() {
      state.faults.length = 0;
    },
    setUser(username: string, user: SandboxUser) {
      const key = normaliseUsername(username);
      state.users.set(key, { ...state.users.get(key), ...user });
    },
    setBalance(balance) {
      state.balance = { ton: parseDecimal(balance.ton), usdt: parseDecimal(balance.usdt) };
    },
    getBalance: () => ({
      ton: formatDecimal(state.balance.ton),
      usdt: formatDecimal(state.balance.usdt),
    }),
    waitForRequests(count: number, path?: string) {
      if (countMatching(path) >= count) return Promise.resolve();
      if (state.closed) return Promise.reject(new SandboxClosedError("the sandbox is closed"));
      return new Promise<void>((resolve, reject) => {
        state.waiters.push({ count, path, resolve, reject });
      });
    },
    reset() {
      state.requests.length = 0;
      state.faults.length = 0;
      state.users.clear();
      state.quota?.clear();
      sandbox.setBalance(startingBalance);
    },
    async close() {
      if (state.closed) return;
      state.closed = true;
      for (const timer of state.timers) clearTimeout(timer);
      state.timers.clear();
      for (const waiter of state.waiters) {
        waiter.reject(new SandboxClosedError("the sandbox closed before the requests arrived"));
      }
      state.waiters = [];
      const closing = once(server, "close");
      server.close();
      server.closeAllConnections();
      await closing;
    },
  };

  /** Carries out a purchase request: validation, recipient, price, balance. */
  const purchase = (request: RecordedRequest): Reply => {
    const invalid = checkPurchaseRequest(request);
    if (invalid) return invalid;
    const form = request.form ?? {};
    const username = form.username ?? "";
    const method = form.payment_method === "ton" ? "ton" : "usdt_ton";
    const user = userFor(username);
    if (!user.exists) {
      return failure(400, "USER_NOT_FOUND", "No account has this username");
    }
    const isPremiumPurchase = request.path === SERVICE_PATHS.buyPremium;
    let price: Price;
    let item: Record<string, unknown>;
    if (isPremiumPurchase) {
      if (user.isPremium) {
        return failure(400, "ALREADY_PREMIUM", "The recipient already has Telegram Premium");
      }
      const months = Number(form.duration) as 3 | 6 | 12;
      price = premiumPrice(months, method);
      item = { duration: months };
    } else {
      const amount = Number(form.amount);
      price = starsPrice(amount, method);
      item = { amount };
    }
    const available = state.balance[price.currency];
    if (available < price.nano) {
      return {
        status: 400,
        body: {
          ok: false,
          error: "INSUFFICIENT_BALANCE",
          reason: `Not enough ${currencyLabel(price.currency)} in the wallet`,
          insufficient: true,
          info: {
            currency: currencyLabel(price.currency),
            required: formatDecimal(price.nano),
            available: formatDecimal(available),
          },
        },
      };
    }
    state.balance[price.currency] = available - price.nano;
    if (isPremiumPurchase) sandbox.setUser(username, { isPremium: true });
    const txHash = randomBytes(32).toString("hex");
    return {
      status: 200,
      body: {
        ok: true,
        tx_hash: txHash,
        data: {
          username: normaliseUsername(username),
          ...item,
          payment_method: method,
          price: formatDecimal(price.nano),
          currency: currencyLabel(price.currency),
        },
      },
    };
  };

  /** The normal answer of the service to a request (no fault). */
  const route = (request: RecordedRequest): Reply => {
    const known = Object.values(SERVICE_PATHS) as string[];
    if (!known.includes(request.path)) return failure(404, "NOT_FOUND", "No such endpoint");
    const wantsPost = PURCHASE_PATHS.has(request.path);
    if (request.method !== (wantsPost ? "POST" : "GET")) {
      return failure(405, "METHOD_NOT_ALLOWED", `Use ${wantsPost ? "POST" : "GET"}`);
    }
    if (request.path === SERVICE_PATHS.userInfo) {
      const username = request.query.username;
      if (username === undefined || !USERNAME_PATTERN.test(username)) {
        return failure(400, "INVALID_USERNAME", "The username does not match the pattern");
      }
      const user = userFor(username);
      if (!user.exists) {
        return {
          status: 200,
          body: { ok: false, username: normaliseUsername(username), error: "USER_NOT_FOUND" },
        };
      }
      return {
        status: 200,
        body: {
          ok: true,
          username: normaliseUsername(username),
          is_premium: user.isPremium,
          source: "sandbox",
        },
      };
    }
    if (request.path === SERVICE_PATHS.walletBalance) {
      if (!validMnemonic(request.headers.mnemonic)) {
        return failure(400, "INVALID_MNEMONIC", "The Mnemonic header needs 12, 18 or 24 words");
      }
      return {
        status: 200,
        body: {
          ok: true,
          data: { ton: formatDecimal(state.balance.ton), usdt: formatDecimal(state.balance.usdt) },
        },
      };
    }
    return purchase(request);
  };

  /** The answer when a fault (other than delay) applies. */
  const faultReply = (
    fault: Fault,
    request: RecordedRequest,
  ): Reply | "drop" | { trickleMs: number } => {
    const isPurchase = PURCHASE_PATHS.has(request.path);
    const executed =
      fault.type !== "status" && fault.type !== "delay" && fault.executed === true && isPurchase
        ? route(request)
        : undefined;
    switch (fault.type) {
      case "status":
        return statusFault(fault);
      case "drop":
        return "drop";
      case "malformed":
        return { status: 200, body: MALFORMED_BODY };
      case "huge": {
        const base =
          executed?.status === 200 ? (executed.body as Record<string, unknown>) : { ok: true };
        const bytes = fault.bytes ?? HUGE_DEFAULT_BYTES;
        return { status: 200, body: { ...base, padding: "x".repeat(bytes) } };
      }
      case "trickle":
        return { trickleMs: fault.intervalMs ?? TRICKLE_DEFAULT_MS };
      case "unconfirmed": {
        if (executed && executed.status !== 200) return executed;
        const txHash = executed ? (executed.body as { tx_hash?: string }).tx_hash : undefined;
        return {
          status: 400,
          body: {
            ok: false,
            error: "UNCONFIRMED",
            reason: "The transfer was sent but its confirmation did not arrive in time",
            unconfirmed: true,
            transient: true,
            ...(txHash ? { tx_hash: txHash } : {}),
          },
        };
      }
      default:
        return route(request);
    }
  };

  const send = async (res: ServerResponse, request: RecordedRequest, reply: Reply) => {
    if (latencyMs > 0) await sleep(latencyMs);
    if (res.destroyed) return;
    const isText = typeof reply.body === "string";
    res.writeHead(reply.status, {
      "content-type": isText ? "text/plain; charset=utf-8" : "application/json; charset=utf-8",
      ...reply.headers,
    });
    res.end(isText ? (reply.body as string) : JSON.stringify(reply.body));
    log?.(`${request.method} ${request.path} -> ${reply.status}`);
  };

  /** Headers and the start of a JSON body, then a byte per interval until the client leaves. */
  const trickle = async (res: ServerResponse, request: RecordedRequest, intervalMs: number) => {
    if (res.destroyed) return;
    let gone = false;
    res.once("close", () => {
      gone = true;
    });
    // A write racing the client's disconnect must not crash the sandbox.
    res.on("error", () => {
      gone = true;
    });
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    res.write('{"ok":true,"padding":"');
    log?.(`${request.method} ${request.path} -> 200 (trickling)`);
    // Ends when the client closes the socket or close() destroys it (and clears the timers).
    while (!gone && !res.destroyed && !state.closed) {
      await sleep(intervalMs);
      if (!gone && !res.destroyed && !state.closed) res.write("x");
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const at = Date.now();
    const url = new URL(req.url ?? "/", "http://sandbox.invalid");
    const raw = await readBody(req);
    if (url.pathname.startsWith("/__sandbox/")) {
      const reply = handleControl(sandbox, req.method ?? "GET", url.pathname, raw, (limit) => {
        state.quota = limit ? new SlidingQuota(limit.limit, limit.windowMs) : undefined;
      });
      res.writeHead(reply.status, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(reply.body));
      return;
    }
    const contentType = req.headers["content-type"];
    const request: RecordedRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: flattenHeaders(req.headers),
      form:
        raw !== undefined && isForm(contentType)
          ? Object.fromEntries(new URLSearchParams(raw))
          : undefined,
      contentType,
      at,
    };
    state.requests.push(request);
    notifyWaiters();
    if (raw === undefined) {
      state.quota?.record(at);
      await send(res, request, failure(413, "BODY_TOO_LARGE", "The body is too large"));
      return;
    }

    const fault = takeFault(request.path);
    if (fault && fault.type !== "delay") {
      state.quota?.record(at);
      const reply = faultReply(fault, request);
      if (reply === "drop") {
        log?.(`${request.method} ${request.path} -> dropped`);
        req.socket.destroy();
        return;
      }
      if ("trickleMs" in reply) {
        await trickle(res, request, reply.trickleMs);
        return;
      }
      await send(res, request, reply);
      return;
    }
    const admission = state.quota?.tryAdmit(at);
    if (admission && !admission.admitted) {
      const seconds = admission.retryAfterSeconds;
      await send(res, request, {
        status: 429,
        body: {
          ok: false,
          error: "FLOOD_WAIT",
          reason: `Too many requests: wait ${seconds} s`,
          retry_after: seconds,
        },
        headers: { "retry-after": String(seconds) },
      });
      return;
    }
    if (fault?.type === "delay") await sleep(fault.ms);
    if (state.closed) return;
    await send(res, request, route(request));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // Only a bug of the sandbox lands here; answer 500 rather than hang the client.
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ ok: false, error: "SANDBOX_ERROR" }));
      }
    });
  });
  server.listen(options.port ?? 0, options.host ?? SANDBOX_DEFAULTS.host);
  await once(server, "listening");
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  sandbox.url = `http://${host}:${address.port}`;
  return sandbox;
}

/** Default size of the `huge` fault's padding: twice a client's usual 1 MiB limit. */
const HUGE_DEFAULT_BYTES = 2 * 1024 * 1024;
/** Default pause between the bytes of the `trickle` fault. */
const TRICKLE_DEFAULT_MS = 50;

/** A truncated JSON document: what a proxy cutting off a response could deliver. */
const MALFORMED_BODY = '{"ok":true,"data":{"tx_';

function statusFault(fault: Extract<Fault, { type: "status" }>): Reply {
  const defaults: Record<number, { error: string; wait: boolean }> = {
    429: { error: "FLOOD_WAIT", wait: true },
    503: { error: "RATE_LIMIT_UNAVAILABLE", wait: true },
  };
  const known = defaults[fault.status];
  const body =
    fault.body !== undefined
      ? fault.body
      : {
          ok: false,
          error: known?.error ?? "INJECTED_FAULT",
          ...(known ? { retry_after: 1 } : {}),
        };
  const headers = { ...(known && !fault.body ? { "retry-after": "1" } : {}), ...fault.headers };
  return { status: fault.status, body, headers };
}

/** Checks everything the spec requires of a purchase request; undefined when it is valid. */
function checkPurchaseRequest(request: RecordedRequest): Reply | undefined {
  if (!isForm(request.contentType) || request.form === undefined) {
    return failure(
      400,
      "UNSUPPORTED_CONTENT_TYPE",
      "Send the form as application/x-www-form-urlencoded",
    );
  }
  const { headers, form } = request;
  if (!validMnemonic(headers.mnemonic)) {
    return failure(400, "INVALID_MNEMONIC", "The Mnemonic header needs 12, 18 or 24 words");
  }
  if (!/(?:^|;\s*)stel_ssid=[^;]+/.test(headers.cookie ?? "")) {
    return failure(400, "INVALID_COOKIE", "The Cookie header must carry stel_ssid");
  }
  const version = headers["wallet-version"];
  if (version !== undefined && !WALLET_VERSIONS.has(version)) {
    return failure(
      400,
      "INVALID_WALLET_VERSION",
      "Wallet-Version must be auto, v5r1, v4r2 or v3r2",
    );
  }
  if (form.username === undefined || !USERNAME_PATTERN.test(form.username)) {
    return failure(400, "INVALID_USERNAME", "The username does not match the pattern");
  }
  if (request.path === SERVICE_PATHS.buyStars) {
    const amount = form.amount ?? "";
    const value = Number(amount);
    if (!/^\d+$/.test(amount) || !isStarsAmount(value)) {
      return failure(400, "INVALID_AMOUNT", "amount must be an integer from 50 to 1000000");
    }
  } else if (!isPremiumDuration(Number(form.duration ?? ""))) {
    return failure(400, "INVALID_DURATION", "duration must be 3, 6 or 12");
  }
  const method = form.payment_method;
  if (method !== undefined && !isPaymentMethod(method)) {
    return failure(400, "INVALID_PAYMENT_METHOD", "payment_method must be usdt_ton or ton");
  }
  return undefined;
}

function failure(status: number, error: string, reason: string): Reply {
  return { status, body: { ok: false, error, reason } };
}

function validMnemonic(value: string | undefined): boolean {
  const words = (value ?? "").trim().split(/\s+/).filter(Boolean);
  return [12, 18, 24].includes(words.length);
}

function isForm(contentType: string | undefined): boolean {
  return (
    (contentType ?? "").split(";")[0]?.trim().toLowerCase() === "application/x-www-form-urlencoded"
  );
}

function normaliseUsername(username: string): string {
  return username.replace(/^@/, "").toLowerCase();
}

function currencyLabel(currency: Currency): string {
  return currency === "ton" ? "TON" : "USDT";
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

/** Reads the body as text; undefined when it exceeds the limit. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
