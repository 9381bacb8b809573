/**
 * Reading the wallet-balance body, whose shape the service does not publish
 * (docs/service-contract.md §3.2). Several shapes seen in the wild are accepted; the amounts stay
 * decimal strings, and an unknown shape is reported as unrecognised rather than crashing or
 * guessing.
 */
import { type Answer, rejectedFrom } from "./answer.js";
import type { RawBody, ReadOutcome, WalletBalance } from "./types.js";

const TON_KEYS = ["ton", "ton_balance", "balance_ton", "tonBalance", "balanceTon", "TON"];
const USDT_KEYS = [
  "usdt",
  "usdt_balance",
  "balance_usdt",
  "usdtBalance",
  "balanceUsdt",
  "USDT",
  "usdt_ton",
];
const CONTAINER_KEYS = ["data", "balance", "balances", "result", "wallet"];
/** When a currency key holds an object, its amount is under one of these. */
const AMOUNT_KEYS = ["balance", "amount", "value", "available"];
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A number the service sent as JSON becomes its shortest decimal text (String(n)), never a
 * float computation; exponent forms (1e-7) are spelled out digit by digit.
 */
export function numberToDecimal(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const text = String(value);
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign = "", whole = "", fraction = "", exponentText = "0"] = match;
  const digits = whole + fraction;
  const point = whole.length + Number(exponentText);
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + "0".repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

function toDecimal(value: unknown, depth = 0): string | undefined {
  if (typeof value === "string") {
    const trimmed = value.trim();
    return DECIMAL.test(trimmed) ? trimmed : undefined;
  }
  if (typeof value === "number") return numberToDecimal(value);
  if (isObject(value) && depth === 0) {
    for (const key of AMOUNT_KEYS) {
      const found = toDecimal(value[key], 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function pick(container: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const found = toDecimal(container[key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Candidate objects holding the balances, nearest first: the body, then known containers. */
function containers(body: RawBody): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [body];
  for (const key of CONTAINER_KEYS) {
    const inner = body[key];
    if (!isObject(inner)) continue;
    found.push(inner);
    for (const nestedKey of CONTAINER_KEYS) {
      const nested = inner[nestedKey];
      if (isObject(nested)) found.push(nested);
    }
  }
  return found;
}

/** Reads the balances from a wallet-balance body, whatever its known shape. */
export function extractBalance(body: RawBody): WalletBalance {
  let ton: string | undefined;
  let usdt: string | undefined;
  for (const container of containers(body)) {
    ton ??= pick(container, TON_KEYS);
    usdt ??= pick(container, USDT_KEYS);
  }
  return { ton, usdt, recognised: ton !== undefined || usdt !== undefined };
}

/**
 * A wallet-balance answer (HTTP 200, a JSON object): a well-formed failure body is a refusal,
 * anything else is read for balances, unknown shapes reported as unrecognised.
 */
export function classifyBalanceAnswer(answer: Answer): ReadOutcome<WalletBalance> {
  const json = answer.json as RawBody;
  if (json.ok === false) {
    const rejected = rejectedFrom(answer);
    if (rejected) return rejected;
  }
  return { kind: "success", value: extractBalance(json), body: json };
}
