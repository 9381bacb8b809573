/**
 * The purchase circuit breaker: purchases pause by themselves when the service keeps refusing
 * them for a reason that is not the person's input. What operators of bots like this one meet
 * most is an expired marketplace session or an empty wallet: then every purchase is refused,
 * one person after another, and nobody who can fix it is told.
 *
 * The service publishes no catalogue of its `error`/`reason` values, so two things work
 * together:
 * - {@link REFUSAL_RULES}, one list of patterns, says what a refusal's text points at: the
 *   person's input (never counted), the marketplace session or the wallet (open at once);
 * - a count of consecutive refusals that are not about the input opens it for any reason the
 *   list does not know yet.
 *
 * This module decides only; it keeps no timers and does no I/O. Whoever feeds it outcomes
 * persists the opening (the ledger's pause, with the reasons) and tells the admins.
 */
import { quoteServiceText } from "../service/quote.js";
import type { FailureBody, PurchaseOutcome, Rejected } from "../service/types.js";

/** What the breaker reads of an outcome: any purchase outcome, or just its kind. */
export type BreakerInput = Rejected | { kind: Exclude<PurchaseOutcome["kind"], "rejected"> };

/** What most likely needs doing when refusals open the breaker. */
export type BreakerCause = "session" | "wallet" | "unknown";

/** How a refusal's text is read: about the input, or pointing at the operator's setup. */
export type RefusalKind = "input" | "session" | "wallet";

/** What an input refusal is about, for the buyer's sentence: who, how much, or a limit. */
type InputTopic = "recipient" | "premium" | "amount" | "limit";

export interface RefusalRule {
  kind: RefusalKind;
  pattern: RegExp;
  /** For input rules: what the buyer is told the refusal is about. */
  topic?: InputTopic;
}

/**
 * What a refusal's text points at, first match wins; extend it here when the service shows a
 * new value. Setup causes come first: "invalid session" is about the cookie, not the input.
 * Matched against the failure body's `error`, `reason` and `info` (`FailureBody` in
 * src/service/types.ts) in lower case with `_` and `-` read as spaces, so `USER_NOT_FOUND`
 * and "user not found" are one pattern.
 */
export const REFUSAL_RULES: readonly RefusalRule[] = [
  // The marketplace session: the cookie (stel_ssid) expired or was logged out, or the account
  // needs its verification (KYC) done again.
  { kind: "session", pattern: /session|cookie|stel ssid|auth|\blog ?in\b|logged out|sign in/ },
  { kind: "session", pattern: /forbidden|\bkyc\b|verification|verify your/ },
  // The paying wallet.
  {
    kind: "wallet",
    pattern: /insufficient|not enough (funds|balance|money|ton|usdt)|top up|low balance|no funds/,
  },
  // The person's input: the recipient, the amount, the duration, premium already held, a limit.
  {
    kind: "input",
    topic: "premium",
    pattern: /already (has |have |is |got )?(a )?(telegram )?premium|premium already/,
  },
  {
    kind: "input",
    topic: "recipient",
    pattern: /(invalid|bad|wrong|unknown) (user|username|recipient)/,
  },
  {
    kind: "input",
    topic: "amount",
    pattern: /(invalid|bad|wrong|unknown) (amount|duration|quantity|payment|months?)/,
  },
  {
    kind: "input",
    topic: "recipient",
    pattern: /(user|username|recipient) (is )?(not found|does not exist|unknown)/,
  },
  {
    kind: "input",
    topic: "recipient",
    pattern: /no such (user|username|recipient)|not a valid username/,
  },
  {
    kind: "input",
    topic: "amount",
    pattern: /(amount|duration|quantity|months?) (is )?(too|must|should|out of range|between)/,
  },
  { kind: "input", topic: "limit", pattern: /\blimit\b|\bexceed/ },
];

/** Default number of consecutive non-input refusals that opens the breaker (BREAKER_REFUSALS). */
export const DEFAULT_BREAKER_REFUSALS = 3;

/** Longest quoted reason kept: admins need the gist, not a page of HTML from a proxy. */
export const MAX_QUOTED_REASON = 200;

/** One refusal as admins see it quoted. */
export interface QuotedRefusal {
  /** The intent the refusal answered, so an admin can look it up. */
  intentId: string;
  /** When it was recorded (ms since the epoch). */
  at: number;
  status: number;
  /** The service's own words (error/reason/info), trimmed to {@link MAX_QUOTED_REASON}. */
  reason: string;
  kind: RefusalKind | "unknown";
}

/** Why the breaker is open: JSON-serialisable, so it can be persisted with the pause. */
export interface BreakerOpening {
  cause: BreakerCause;
  /** The refusals that opened it, oldest first (the consecutive run, at most the threshold). */
  refusals: QuotedRefusal[];
  at: number;
}

/** What feeding one outcome did. */
export type BreakerEvent =
  | { kind: "opened"; opening: BreakerOpening }
  /** A refusal counted, not (yet) enough to open. */
  | { kind: "counted"; consecutive: number; refusal: QuotedRefusal }
  /** A refusal recorded while already open (a purchase that was in flight). */
  | { kind: "refused_while_open"; refusal: QuotedRefusal }
  | { kind: "ignored" }
  | { kind: "reset" };

export interface BreakerOptions {
  /** Consecutive non-input refusals that open it; default {@link DEFAULT_BREAKER_REFUSALS}. */
  threshold?: number;
  rules?: readonly RefusalRule[];
  /** Restored from the persisted pause at start: purchases stay paused across a restart. */
  openedBefore?: BreakerOpening | undefined;
}

/**
 * A persisted opening read back (the ledger keeps it as JSON), or undefined when it does not
 * have the shape: then the pause still holds, only the quoted reasons are lost.
 */
export function asOpening(value: unknown): BreakerOpening | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { cause, refusals, at } = value as Record<string, unknown>;
  if (cause !== "session" && cause !== "wallet" && cause !== "unknown") return undefined;
  if (!Array.isArray(refusals) || typeof at !== "number") return undefined;
  const valid = refusals.every(
    (r: unknown) =>
      typeof r === "object" &&
      r !== null &&
      typeof (r as QuotedRefusal).intentId === "string" &&
      typeof (r as QuotedRefusal).reason === "string" &&
      typeof (r as QuotedRefusal).at === "number",
  );
  return valid ? { cause, refusals: refusals as QuotedRefusal[], at } : undefined;
}

/** The text the rules are matched against: the body's error, reason and info. */
function refusalText(body: FailureBody | undefined, detail?: string): string {
  const parts: string[] = [];
  for (const value of [body?.error, body?.reason, body?.info]) {
    if (value === undefined || value === null) continue;
    parts.push(typeof value === "string" ? value : safeJson(value));
  }
  if (parts.length === 0 && detail !== undefined) parts.push(detail);
  return parts.join(" | ").replace(/\s+/g, " ").trim();
}

/**
 * What a buyer is told a definite refusal is about: an input topic, the operator's setup
 * (session or wallet: the breaker opens at once, so the admins are told), or unknown. Read by
 * the same rules as {@link classifyRefusal}, so the buyer's sentence and the breaker agree.
 */
export type BuyerRefusal = InputTopic | "session" | "wallet" | "unknown";

/** {@link BuyerRefusal} of a definite refusal. */
export function buyerRefusal(
  body: FailureBody | undefined,
  detail?: string,
  rules: readonly RefusalRule[] = REFUSAL_RULES,
): BuyerRefusal {
  if (isSet(body?.insufficient)) return "wallet";
  const rule = matchingRule(body, detail, rules);
  if (rule === undefined) return "unknown";
  return rule.kind === "input" ? (rule.topic ?? "unknown") : rule.kind;
}

/**
 * What a definite refusal points at. The body's `insufficient` (purchase failures may carry
 * it: `FailureBody`) means the wallet, whatever the text says.
 */
export function classifyRefusal(
  body: FailureBody | undefined,
  detail?: string,
  rules: readonly RefusalRule[] = REFUSAL_RULES,
): RefusalKind | "unknown" {
  if (isSet(body?.insufficient)) return "wallet";
  return matchingRule(body, detail, rules)?.kind ?? "unknown";
}

/** The first rule whose pattern the refusal's text matches. */
function matchingRule(
  body: FailureBody | undefined,
  detail: string | undefined,
  rules: readonly RefusalRule[],
): RefusalRule | undefined {
  const text = refusalText(body, detail).toLowerCase().replace(/[_-]+/g, " ");
  if (text === "") return undefined;
  return rules.find((rule) => rule.pattern.test(text));
}

/**
 * Counts consecutive definite refusals not about the input; opens after `threshold` of them,
 * or at once on one pointing at the session or the wallet. A success closes the count. While
 * open, it stays open until {@link close} (an admin's /resume). Right after a close, the next
 * refusal of the kind that opened it opens it again at once: the admin resumed, but if the
 * cause was not mended, people should not pay for finding out `threshold` more times.
 */
export class PurchaseBreaker {
  readonly #threshold: number;
  readonly #rules: readonly RefusalRule[];
  #run: QuotedRefusal[] = [];
  #opening: BreakerOpening | undefined;
  /** The cause of the last opening, until a success shows it was mended. */
  #probation: BreakerCause | undefined;

  constructor(options: BreakerOptions = {}) {
    const threshold = options.threshold ?? DEFAULT_BREAKER_REFUSALS;
    if (!Number.isInteger(threshold) || threshold < 1) {
      throw new RangeError("the breaker threshold must be a whole number of at least 1");
    }
    this.#threshold = threshold;
    this.#rules = options.rules ?? REFUSAL_RULES;
    this.#opening = options.openedBefore;
    this.#probation = options.openedBefore?.cause;
  }

  get isOpen(): boolean {
    return this.#opening !== undefined;
  }

  /** Why it is open, or undefined while closed. */
  get opening(): BreakerOpening | undefined {
    return this.#opening;
  }

  get threshold(): number {
    return this.#threshold;
  }

  /** Consecutive non-input refusals counted since the last success or close. */
  get consecutive(): number {
    return this.#run.length;
  }

  /**
   * Feeds one purchase outcome. Only what the service answered counts: an ambiguous outcome
   * freezes purchases by itself (the ledger), and one the client refused never left.
   */
  record(outcome: BreakerInput, intentId: string, now: number): BreakerEvent {
    if (outcome.kind === "success") {
      this.#probation = undefined;
      if (this.#run.length === 0) return { kind: "ignored" };
      this.#run = [];
      return { kind: "reset" };
    }
    if (outcome.kind !== "rejected") return { kind: "ignored" };
    const kind = classifyRefusal(outcome.body, outcome.detail, this.#rules);
    if (kind === "input") return { kind: "ignored" };
    const refusal: QuotedRefusal = {
      intentId,
      at: now,
      status: outcome.status,
      reason: quote(refusalText(outcome.body, outcome.detail)),
      kind,
    };
    if (this.#opening !== undefined) return { kind: "refused_while_open", refusal };
    this.#run = [...this.#run, refusal].slice(-this.#threshold);
    const cause: BreakerCause = kind === "unknown" ? "unknown" : kind;
    const opensNow =
      cause !== "unknown" || this.#run.length >= this.#threshold || this.#probation === cause;
    if (!opensNow) return { kind: "counted", consecutive: this.#run.length, refusal };
    this.#opening = { cause, refusals: this.#run, at: now };
    this.#run = [];
    return { kind: "opened", opening: this.#opening };
  }

  /**
   * An admin resumed purchases: closes it (if open) and starts counting afresh, keeping the
   * last cause on probation. Returns the opening it closed, if any.
   */
  close(): BreakerOpening | undefined {
    const closed = this.#opening;
    this.#opening = undefined;
    this.#run = [];
    if (closed !== undefined) this.#probation = closed.cause;
    return closed;
  }
}

function quote(text: string): string {
  if (text === "") return "(no reason given)";
  return quoteServiceText(text, MAX_QUOTED_REASON);
}

function isSet(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (typeof value === "string") return value.trim() !== "" && value.toLowerCase() !== "false";
  return true;
}

function safeJson(value: unknown): string {
  try {
    // JSON.stringify returns undefined for undefined and functions, whatever its type says.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}
