/**
 * Building the four requests of the service (docs/service-contract.md §3): path, method,
 * query or form, and exactly the headers each endpoint takes. The recipient check carries no
 * credential at all, the balance read only the wallet's, and the purchases the whole set.
 *
 * The headers are read when the request is sent, not when it is built: a request can wait in
 * the quota for minutes (behind a 429's hold), and a marketplace cookie rotated meanwhile must
 * go with it, or the purchase would leave with a session the marketplace has ended and most
 * likely come back ambiguous, which freezes purchases until an admin settles it.
 */
import type { GiftServiceCredentials } from "./options.js";
import type { CredentialSource } from "./credential-source.js";
import type { Priority } from "./quota.js";
import { normaliseMnemonic } from "./secrets.js";
import type { PremiumPurchase, StarsPurchase } from "./types.js";

/** The service's paths; all end with a slash. */
const SERVICE_PATHS = {
  userInfo: "/get-user-info/",
  walletBalance: "/wallet-balance/",
  buyStars: "/buy-stars/",
  buyPremium: "/buy-premium/",
} as const;

/** What a request is, in log lines (never a value it carries). */
type Operation = "get_user_info" | "wallet_balance" | "buy_stars" | "buy_premium";

/** One request, ready to be sent once its turn in the quota comes. */
export interface ServiceRequest {
  operation: Operation;
  priority: Priority;
  method: "GET" | "POST";
  path: string;
  query?: Record<string, string>;
  /** Read at the moment the request is sent, after its wait in the quota. */
  headers: () => Record<string, string>;
  form?: Record<string, string>;
}

const NO_HEADERS = (): Record<string, string> => ({});

/** `GET /get-user-info/?username=...`, sent as given (the optional `@` included). */
export function userInfoRequest(username: string): ServiceRequest {
  return {
    operation: "get_user_info",
    priority: "read",
    method: "GET",
    path: SERVICE_PATHS.userInfo,
    query: { username },
    headers: NO_HEADERS,
  };
}

/**
 * `GET /wallet-balance/` with the wallet phrase and the optional provider key only; `bulk` for
 * a giveaway's read (after everyone, as its purchases).
 */
export function walletBalanceRequest(
  credentials: CredentialSource,
  priority: "shared_read" | "bulk" = "shared_read",
): ServiceRequest {
  return {
    operation: "wallet_balance",
    priority,
    method: "GET",
    path: SERVICE_PATHS.walletBalance,
    headers: () => walletHeaders(credentials.current()),
  };
}

function walletHeaders(credentials: GiftServiceCredentials): Record<string, string> {
  const headers: Record<string, string> = { Mnemonic: normaliseMnemonic(credentials.mnemonic) };
  if (credentials.apiKey) headers["Api-Key"] = credentials.apiKey;
  return headers;
}

/** `POST /buy-stars/` as a form; the payment method only when chosen. */
export function starsPurchaseRequest(
  input: StarsPurchase,
  credentials: CredentialSource,
): ServiceRequest {
  const form: Record<string, string> = { username: input.username, amount: String(input.amount) };
  if (input.paymentMethod) form.payment_method = input.paymentMethod;
  return purchaseRequest("buy_stars", SERVICE_PATHS.buyStars, form, credentials);
}

/** `POST /buy-premium/` as a form; the duration is sent as chosen, never changed. */
export function premiumPurchaseRequest(
  input: PremiumPurchase,
  credentials: CredentialSource,
): ServiceRequest {
  const form: Record<string, string> = {
    username: input.username,
    duration: String(input.duration),
  };
  if (input.paymentMethod) form.payment_method = input.paymentMethod;
  return purchaseRequest("buy_premium", SERVICE_PATHS.buyPremium, form, credentials);
}

function purchaseRequest(
  operation: "buy_stars" | "buy_premium",
  path: string,
  form: Record<string, string>,
  credentials: CredentialSource,
): ServiceRequest {
  return {
    operation,
    priority: "purchase",
    method: "POST",
    path,
    headers: () => purchaseHeaders(credentials.current()),
    form,
  };
}

/** Every credential header a purchase takes; optional ones are omitted when unset. */
function purchaseHeaders(credentials: GiftServiceCredentials): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": "application/x-www-form-urlencoded",
    Mnemonic: normaliseMnemonic(credentials.mnemonic),
    Cookie: credentials.cookie,
  };
  if (credentials.walletVersion) headers["Wallet-Version"] = credentials.walletVersion;
  if (credentials.walletAddress) headers["Wallet-Address"] = credentials.walletAddress;
  if (credentials.proxy) headers.Proxy = credentials.proxy;
  if (credentials.apiKey) headers["Api-Key"] = credentials.apiKey;
  if (credentials.userAgent) headers["User-Agent"] = credentials.userAgent;
  return headers;
}
