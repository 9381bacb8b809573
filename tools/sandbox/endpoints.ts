/**
 * The simulated service's endpoints as pure handlers: a recorded request and the sandbox's state
 * in, a reply out. `answerServiceRequest` is the service's normal answer (no fault applied);
 * the server decides about faults and the quota before calling it.
 */
import { randomBytes } from "node:crypto";
import {
  isPaymentMethod,
  isPremiumDuration,
  isStarsAmount,
  USERNAME_PATTERN,
} from "../../src/gifts/catalogue.js";
import { formatDecimal, type Price, premiumPrice, starsPrice } from "./pricing.js";
import { normaliseUsername, type Recipients } from "./recipients.js";
import { failure, type Reply } from "./reply.js";
import type { MarketplaceSession } from "./session.js";
import type { RecordedRequest } from "./types.js";
import { currencyLabel, type Wallet } from "./wallet.js";

/** The service's paths; all end with a slash. */
const SERVICE_PATHS = {
  userInfo: "/get-user-info/",
  walletBalance: "/wallet-balance/",
  buyStars: "/buy-stars/",
  buyPremium: "/buy-premium/",
} as const;

/** The paths that spend money (POST). */
export const PURCHASE_PATHS: ReadonlySet<string> = new Set([
  SERVICE_PATHS.buyStars,
  SERVICE_PATHS.buyPremium,
]);

const KNOWN_PATHS: ReadonlySet<string> = new Set(Object.values(SERVICE_PATHS));
const WALLET_VERSIONS: ReadonlySet<string> = new Set(["auto", "v5r1", "v4r2", "v3r2"]);

/** What the handlers read and change. */
export interface ServiceState {
  recipients: Recipients;
  wallet: Wallet;
  session: MarketplaceSession;
}

/** The service's answer to a request when nothing misbehaves. */
export function answerServiceRequest(request: RecordedRequest, state: ServiceState): Reply {
  if (!KNOWN_PATHS.has(request.path)) return failure(404, "NOT_FOUND", "No such endpoint");
  const wantsPost = PURCHASE_PATHS.has(request.path);
  if (request.method !== (wantsPost ? "POST" : "GET")) {
    return failure(405, "METHOD_NOT_ALLOWED", `Use ${wantsPost ? "POST" : "GET"}`);
  }
  switch (request.path) {
    case SERVICE_PATHS.userInfo:
      return answerUserInfo(request, state.recipients);
    case SERVICE_PATHS.walletBalance:
      return answerWalletBalance(request, state.wallet);
    default:
      return answerPurchase(request, state);
  }
}

/** GET /get-user-info/?username=…: whether the person exists and has Premium. */
function answerUserInfo(request: RecordedRequest, recipients: Recipients): Reply {
  const username = request.query.username;
  if (username === undefined || !USERNAME_PATTERN.test(username)) {
    return failure(400, "INVALID_USERNAME", "The username does not match the pattern");
  }
  const user = recipients.get(username);
  const normalised = normaliseUsername(username);
  if (!user.exists) {
    return { status: 200, body: { ok: false, username: normalised, error: "USER_NOT_FOUND" } };
  }
  return {
    status: 200,
    body: { ok: true, username: normalised, is_premium: user.isPremium, source: "sandbox" },
  };
}

/** GET /wallet-balance/: the wallet's balances, for a well-formed `Mnemonic` header. */
function answerWalletBalance(request: RecordedRequest, wallet: Wallet): Reply {
  if (!validMnemonic(request.headers.mnemonic)) {
    return failure(400, "INVALID_MNEMONIC", "The Mnemonic header needs 12, 18 or 24 words");
  }
  return { status: 200, body: { ok: true, data: wallet.get() } };
}

/**
 * POST /buy-stars/ or /buy-premium/: validation, the marketplace session, recipient, price, then
 * the wallet is charged.
 */
function answerPurchase(request: RecordedRequest, state: ServiceState): Reply {
  const invalid = checkPurchaseRequest(request);
  if (invalid) return invalid;
  const expired = state.session.admit(sessionId(request.headers.cookie) ?? "");
  if (expired) return expired;
  const form = request.form ?? {};
  const username = form.username ?? "";
  const method = form.payment_method === "ton" ? "ton" : "usdt_ton";
  const user = state.recipients.get(username);
  if (!user.exists) return failure(400, "USER_NOT_FOUND", "No account has this username");
  const isPremium = request.path === SERVICE_PATHS.buyPremium;
  if (isPremium && user.isPremium) {
    return failure(400, "ALREADY_PREMIUM", "The recipient already has Telegram Premium");
  }
  const { price, item } = isPremium
    ? premiumItem(Number(form.duration) as 3 | 6 | 12, method)
    : starsItem(Number(form.amount), method);
  const charge = state.wallet.charge(price);
  if (!charge.charged) return charge.refusal;
  if (isPremium) state.recipients.set(username, { isPremium: true });
  return purchaseSuccess(normaliseUsername(username), item, method, price);
}

function premiumItem(months: 3 | 6 | 12, method: "usdt_ton" | "ton") {
  return { price: premiumPrice(months, method), item: { duration: months } };
}

function starsItem(amount: number, method: "usdt_ton" | "ton") {
  return { price: starsPrice(amount, method), item: { amount } };
}

function purchaseSuccess(
  username: string,
  item: Record<string, unknown>,
  method: "usdt_ton" | "ton",
  price: Price,
): Reply {
  return {
    status: 200,
    body: {
      ok: true,
      tx_hash: randomBytes(32).toString("hex"),
      data: {
        username,
        ...item,
        payment_method: method,
        price: formatDecimal(price.nano),
        currency: currencyLabel(price.currency),
      },
    },
  };
}

/** Checks everything the service requires of a purchase request; undefined when it is valid. */
function checkPurchaseRequest(request: RecordedRequest): Reply | undefined {
  if (!isForm(request.contentType) || request.form === undefined) {
    return failure(
      400,
      "UNSUPPORTED_CONTENT_TYPE",
      "Send the form as application/x-www-form-urlencoded",
    );
  }
  return checkCredentials(request.headers) ?? checkPurchaseForm(request.path, request.form);
}

function checkCredentials(headers: Record<string, string>): Reply | undefined {
  if (!validMnemonic(headers.mnemonic)) {
    return failure(400, "INVALID_MNEMONIC", "The Mnemonic header needs 12, 18 or 24 words");
  }
  if (sessionId(headers.cookie) === undefined) {
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
  return undefined;
}

function checkPurchaseForm(path: string, form: Record<string, string>): Reply | undefined {
  if (form.username === undefined || !USERNAME_PATTERN.test(form.username)) {
    return failure(400, "INVALID_USERNAME", "The username does not match the pattern");
  }
  if (path === SERVICE_PATHS.buyStars) {
    const amount = form.amount ?? "";
    if (!/^\d+$/.test(amount) || !isStarsAmount(Number(amount))) {
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

/** The value of the `stel_ssid` cookie in a Cookie header, or undefined when it has none. */
function sessionId(cookie: string | undefined): string | undefined {
  return /(?:^|;\s*)stel_ssid=([^;]+)/.exec(cookie ?? "")?.[1];
}

function validMnemonic(value: string | undefined): boolean {
  const words = (value ?? "").trim().split(/\s+/).filter(Boolean);
  return [12, 18, 24].includes(words.length);
}

/** Whether a Content-Type header names a form-urlencoded body (parameters ignored). */
export function isForm(contentType: string | undefined): boolean {
  return (
    (contentType ?? "").split(";")[0]?.trim().toLowerCase() === "application/x-www-form-urlencoded"
  );
}
