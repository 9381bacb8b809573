/**
 * A buyer never reads the service's own words: its error codes, its instructions meant for the
 * operator (a cookie's name, the wallet's state) or anything in English inside a Russian chat.
 * Every refusal the service contract and the sandbox know is walked in both languages, through
 * the real bot, the real client and the sandbox; the buyer's texts are checked against a list of
 * forbidden words, and the admins are told when the refusal needs them.
 */
import { describe, expect, it } from "vitest";
import type { Fault } from "../../tools/sandbox/types.js";
import { chatPerson } from "../../tools/testing/chat-person.js";
import { ADMIN, adminWorld, BUYER } from "../helpers/admin-bot.js";

/** Every error code the contract names (§7) or the sandbox answers. */
const ERROR_CODES = [
  "FLOOD_WAIT",
  "RATE_LIMIT_UNAVAILABLE",
  "SESSION_EXPIRED",
  "INSUFFICIENT_BALANCE",
  "USER_NOT_FOUND",
  "ALREADY_PREMIUM",
  "INVALID_USERNAME",
  "INVALID_AMOUNT",
  "INVALID_DURATION",
  "INVALID_PAYMENT_METHOD",
  "INVALID_MNEMONIC",
  "INVALID_COOKIE",
  "INVALID_WALLET_VERSION",
  "UNSUPPORTED_CONTENT_TYPE",
  "UNCONFIRMED",
  "INJECTED_FAULT",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "BODY_TOO_LARGE",
  "PRICE_GUARD",
  "SANDBOX_ERROR",
] as const;

const FORBIDDEN = [
  "SESSION",
  "cookie",
  "stel_",
  "USDT in the wallet",
  "Mnemonic",
  "marketplace",
  "HTTP",
  ...ERROR_CODES,
];

type Language = "en" | "ru";

/** The statuses that are not 400: the two the contract names. */
const STATUS_OF: Partial<Record<string, number>> = { FLOOD_WAIT: 429, RATE_LIMIT_UNAVAILABLE: 503 };

/** The service's sentences as the sandbox words them, operator instructions included. */
const REASON_OF: Partial<Record<string, string>> = {
  SESSION_EXPIRED: "marketplace session expired: log in again and send the new cookie (stel_ssid)",
  INSUFFICIENT_BALANCE: "Not enough USDT in the wallet",
  USER_NOT_FOUND: "No account has this username",
  ALREADY_PREMIUM: "The recipient already has Telegram Premium",
  INVALID_USERNAME: "The username does not match the pattern",
  INVALID_AMOUNT: "amount must be an integer from 50 to 1000000",
  INVALID_DURATION: "duration must be 3, 6 or 12",
  INVALID_PAYMENT_METHOD: "payment_method must be usdt_ton or ton",
  INVALID_MNEMONIC: "The Mnemonic header needs 12, 18 or 24 words",
  INVALID_COOKIE: "The Cookie header must carry stel_ssid",
  INVALID_WALLET_VERSION: "Wallet-Version must be auto, v5r1, v4r2 or v3r2",
  UNSUPPORTED_CONTENT_TYPE: "Send the form as application/x-www-form-urlencoded",
  UNCONFIRMED: "The transfer was sent but its confirmation did not arrive in time",
  NOT_FOUND: "No such endpoint",
  METHOD_NOT_ALLOWED: "Use POST",
  BODY_TOO_LARGE: "The body is too large",
  PRICE_GUARD: "The price moved more than the guard allows",
};

/** One refusal: how the sandbox gives it, and whether it needs the admins. */
interface RefusalCase {
  name: string;
  /** Sets the sandbox up so the next purchase meets it. */
  arrange: (sandbox: Awaited<ReturnType<typeof adminWorld>>["h"]["sandbox"]) => void;
  /** The breaker opens at once: the admins must be told. */
  needsAdmins: boolean;
}

function purchaseFault(status: number, body: Record<string, unknown>): RefusalCase["arrange"] {
  return (sandbox) => {
    const fault: Fault = { type: "status", status, body: { ok: false, ...body } };
    sandbox.injectFault(fault, { path: "/buy-stars/" });
  };
}

const PURCHASE_REFUSALS: RefusalCase[] = [
  { name: "session expired", arrange: (s) => s.expireSession(), needsAdmins: true },
  { name: "wallet drained", arrange: (s) => s.drainWallet(), needsAdmins: true },
  ...ERROR_CODES.map((code) => ({
    name: code,
    arrange: purchaseFault(STATUS_OF[code] ?? 400, {
      error: code,
      reason: REASON_OF[code] ?? "The request was refused",
      ...(code === "UNCONFIRMED" ? { unconfirmed: true } : {}),
      ...(code === "PRICE_GUARD" ? { price_guard: true } : {}),
      ...(code in STATUS_OF ? { retry_after: 0 } : {}),
    }),
    needsAdmins: ["SESSION_EXPIRED", "INSUFFICIENT_BALANCE", "INVALID_COOKIE"].includes(code),
  })),
  {
    name: "insufficient, with the wallet's figures",
    arrange: purchaseFault(400, {
      error: "INSUFFICIENT_BALANCE",
      reason: "Not enough USDT in the wallet",
      insufficient: true,
      info: { currency: "USDT", required: "1.5", available: "0.2" },
    }),
    needsAdmins: true,
  },
];

const CONFIRM: Record<Language, string> = { en: "✅ Confirm", ru: "✅ Подтвердить" };

function forbiddenIn(text: string): string[] {
  return FORBIDDEN.filter((word) => text.toLowerCase().includes(word.toLowerCase()));
}

describe("a buyer never reads the service's own words", () => {
  for (const language of ["en", "ru"] as const) {
    it.each(PURCHASE_REFUSALS)(`in ${language}: a purchase refused ($name)`, async (c) => {
      const { h, features } = await adminWorld();
      const buyer = chatPerson(h, { ...BUYER, language_code: language });
      await buyer.command("stars");
      await buyer.say("bob_gifts");
      await buyer.pressButton("⭐ 100");
      const before = h.telegram.mark();
      c.arrange(h.sandbox);
      await buyer.pressButton(CONFIRM[language]);
      await features.idle();
      expect(h.sandbox.purchaseRequests()).toHaveLength(1);
      const texts = buyer
        .callsSince(before)
        .map((call) => call.payload.text)
        .filter((text): text is string => typeof text === "string");
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) expect(forbiddenIn(text)).toEqual([]);
      if (language === "ru") {
        for (const text of texts) expect(text).not.toMatch(/\b(the|was|service|refused)\b/i);
      }
      const outcome = texts.at(-1) ?? "";
      expect(outcome).toMatch(
        language === "en"
          ? /Nothing was spent|Do not try again/
          : /Ничего не списано|Не пытайтесь повторить/,
      );
      const alerts = h.telegram
        .callsSince(before)
        .filter((call) => call.method === "sendMessage" && call.payload.chat_id === ADMIN.id)
        .map((call) => String(call.payload.text));
      if (c.needsAdmins) {
        expect(alerts.some((text) => text.startsWith("⛔"))).toBe(true);
        expect(outcome).toMatch(
          language === "en" ? /the admins have been told/ : /администраторы уже знают/,
        );
      } else {
        expect(outcome).not.toMatch(/the admins have been told|администраторы уже знают/);
      }
    });

    it.each(ERROR_CODES.filter((code) => !["FLOOD_WAIT", "RATE_LIMIT_UNAVAILABLE"].includes(code)))(
      `in ${language}: a recipient check refused (%s)`,
      async (code) => {
        const { h } = await adminWorld();
        const buyer = chatPerson(h, { ...BUYER, language_code: language });
        await buyer.command("stars");
        h.sandbox.injectFault(
          {
            type: "status",
            status: 400,
            body: {
              ok: false,
              error: code,
              reason: "log in again and send the new cookie (stel_ssid)",
            },
          },
          { path: "/get-user-info/" },
        );
        const before = h.telegram.mark();
        await buyer.say("bob_gifts");
        const reply = buyer
          .callsSince(before)
          .map((call) => String(call.payload.text))
          .join("\n");
        expect(reply).toContain("@bob_gifts");
        expect(forbiddenIn(reply)).toEqual([]);
      },
    );
  }
});
