import { Api } from "grammy";
import { describe, expect, it } from "vitest";
import {
  decodeFlow,
  decodeLanguage,
  decodeMenu,
  decodeSummary,
  encodeFlow,
  encodeLanguage,
  encodeMenu,
  encodeSummary,
  type FlowAction,
  type SummaryAction,
} from "../../src/bot/callback-data/index.js";
import { parseWholeNumber } from "../../src/bot/flows/whole-number.js";
import { parseUsername } from "../../src/gifts/username.js";
import { formatDecimal } from "../../src/bot/format.js";
import { registerCommands } from "../../src/bot/index.js";
import { createTelegramFake } from "../../tools/testing/telegram-fake.js";

const ID = "AbCdEfGhIjKlMnOpQrSt_-";

describe("callback data", () => {
  it("round-trips every format and stays within 64 bytes", () => {
    const flows: FlowAction[] = [
      { type: "amount", amount: 2500 },
      { type: "amount-other" },
      { type: "duration", months: 12 },
      { type: "cancel" },
    ];
    for (const action of flows) {
      expect(decodeFlow(encodeFlow(action))).toEqual(action);
      // Telegram refuses callback data over 64 bytes (UTF-8).
      expect(Buffer.byteLength(encodeFlow(action), "utf8")).toBeLessThanOrEqual(64);
    }
    const summaries: SummaryAction[] = [
      { type: "confirm", intentId: ID },
      { type: "cancel", intentId: ID },
      { type: "method", intentId: ID, method: "usdt_ton" },
    ];
    for (const action of summaries) {
      expect(decodeSummary(encodeSummary(action))).toEqual(action);
      expect(Buffer.byteLength(encodeSummary(action), "utf8")).toBeLessThanOrEqual(64);
    }
    expect(decodeMenu(encodeMenu("premium"))).toBe("premium");
    expect(decodeLanguage(encodeLanguage("ru"))).toBe("ru");
  });

  it("rejects anything that is not exactly a known shape", () => {
    for (const data of [
      "flow:amount:77",
      "flow:amount:0100",
      "flow:amount:1e3",
      "flow:duration:4",
      "flow:duration:3:x",
      "flow:cancel:x",
      "flow:",
    ]) {
      expect(decodeFlow(data), data).toBeUndefined();
    }
    for (const data of [
      "buy:confirm",
      "buy:confirm:",
      "buy:confirm:short",
      `buy:confirm:${ID}:x`,
      `buy:confirm:${ID}!`,
      `buy:method:${ID}`,
      `buy:method:${ID}:btc`,
      `buy:delete:${ID}`,
      `sell:confirm:${ID}`,
    ]) {
      expect(decodeSummary(data), data).toBeUndefined();
    }
    expect(decodeMenu("menu:gold")).toBeUndefined();
    expect(decodeLanguage("lang:de")).toBeUndefined();
  });
});

describe("what a person types", () => {
  it("accepts @name, name and t.me links; refuses what the service's pattern refuses", () => {
    expect(parseUsername("@bob_gifts")).toBe("bob_gifts");
    expect(parseUsername("  bob_gifts ")).toBe("bob_gifts");
    expect(parseUsername("t.me/bob_gifts")).toBe("bob_gifts");
    expect(parseUsername("https://t.me/bob_gifts/")).toBe("bob_gifts");
    expect(parseUsername("http://telegram.me/bob_gifts?start=1")).toBe("bob_gifts");
    for (const bad of [
      "bob",
      "1bob_gifts",
      "bob-gifts",
      "@@bob_gifts",
      "t.me/",
      "a".repeat(33),
      "bob gifts",
    ]) {
      expect(parseUsername(bad), bad).toBeUndefined();
    }
  });

  it("reads whole numbers with the grouping people type, nothing else", () => {
    expect(parseWholeNumber("1500")).toBe(1500);
    expect(parseWholeNumber("1,500")).toBe(1500);
    expect(parseWholeNumber("1 500")).toBe(1500);
    expect(parseWholeNumber("1\u00a0000\u00a0000")).toBe(1_000_000);
    for (const bad of ["1.5", "12,50", "-100", "1e3", "", "abc", "100 stars", "1,5000"]) {
      expect(parseWholeNumber(bad), bad).toBeUndefined();
    }
  });

  it("formats decimal balances from the string, for each locale", () => {
    expect(formatDecimal("en", "12345.123456789")).toBe("12,345.123456789");
    expect(formatDecimal("ru", "12345.5")).toBe("12\u00a0345,5");
    expect(formatDecimal("en", "not a number")).toBeUndefined();
    expect(formatDecimal("en", undefined)).toBeUndefined();
  });
});

describe("registerCommands", () => {
  it("sets the command list for private chats, by default and per language", async () => {
    const telegram = createTelegramFake();
    const api = new Api("123:TEST", { fetch: telegram.fetch });
    await registerCommands({ api });
    const calls = telegram.callsOf("setMyCommands");
    expect(calls.map((c) => c.payload.language_code)).toEqual([undefined, "en", "ru"]);
    for (const call of calls) {
      expect(call.payload.scope).toEqual({ type: "all_private_chats" });
    }
    const ru = calls[2]?.payload.commands as { command: string; description: string }[];
    expect(ru.find((c) => c.command === "cancel")?.description).toBe("Отменить текущее действие");
  });
});
