import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { IntentStatus, LimitName } from "../../src/ledger/types.js";
import type { ConfirmRefusal } from "../../src/purchases/types.js";
import type { PaymentMethod } from "../../src/service/types.js";
import { describe, expect, it } from "vitest";
import { commandsFor } from "../../src/bot/commands.js";
import { localesDirectory } from "../../src/bot/i18n.js";

/** Message ids of a Fluent file (top-level `key =` lines; terms and comments excluded). */
function keysOf(file: string): string[] {
  return readFileSync(join(localesDirectory(), file), "utf8")
    .split("\n")
    .map((line) => /^([a-zA-Z][a-zA-Z0-9_-]*)\s*=/.exec(line)?.[1])
    .filter((key): key is string => key !== undefined)
    .sort();
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** A literal handed straight to a method that shows text to a person, or a literal button label. */
const HARD_CODED = [
  /\b(reply|editMessageText|sendMessage|answerCallbackQuery|replyWithMarkdown|replyWithHTML)\(\s*["'`]/,
  /\bsendMessage\([^,()]+,\s*["'`]/,
  /\beditMessageText\([^,()]+,\s*[^,()]+,\s*["'`]/,
  /\btext:\s*["'`]/,
  /\.(text|url)\(\s*["'`]/,
  /\bdescription:\s*["'`]/,
];

/** Each message of a Fluent file with its whole text (continuation lines included). */
function messagesOf(file: string): Map<string, string> {
  const messages = new Map<string, string>();
  let key: string | undefined;
  for (const line of readFileSync(join(localesDirectory(), file), "utf8").split("\n")) {
    const start = /^([a-zA-Z][a-zA-Z0-9_-]*)\s*=(.*)$/.exec(line);
    if (start) {
      key = start[1] ?? "";
      messages.set(key, start[2] ?? "");
    } else if (key !== undefined && /^\s/.test(line)) {
      messages.set(key, `${messages.get(key) ?? ""}\n${line.trim()}`);
    } else {
      key = undefined;
    }
  }
  return messages;
}

describe("texts", () => {
  it("the operator's commands (signals, compose, systemd, secret files) are in admins' texts only", () => {
    const operatorWords = /SIGHUP|systemctl|docker compose|\bsudo\b|kill -HUP|_FILE\b|\.env\b/;
    for (const file of ["en.ftl", "ru.ftl"]) {
      const messages = [...messagesOf(file)];
      const withCommands = messages.filter(([, text]) => operatorWords.test(text));
      expect(
        withCommands.map(([key]) => key),
        file,
      ).toContain("admin-breaker-cause-session");
      for (const [key] of withCommands) expect(key, file).toMatch(/^admin-/);
    }
  });

  it("en.ftl and ru.ftl have exactly the same keys, none twice", () => {
    const files = readdirSync(localesDirectory()).filter((f) => f.endsWith(".ftl"));
    expect(files.sort()).toEqual(["en.ftl", "ru.ftl"]);
    const en = keysOf("en.ftl");
    const ru = keysOf("ru.ftl");
    expect(new Set(en).size).toBe(en.length);
    expect(ru).toEqual(en);
  });

  it("every key the bot's code names exists in the locale files", () => {
    const keys = new Set(keysOf("en.ftl"));
    const named = new Set<string>();
    for (const file of sourceFiles(join(process.cwd(), "src", "bot"))) {
      const source = readFileSync(file, "utf8");
      for (const match of source.matchAll(/\bt\(\s*"([a-z][a-z0-9_-]*)"/g))
        named.add(match[1] ?? "");
    }
    expect(named.size).toBeGreaterThan(40);
    expect([...named].filter((key) => !keys.has(key))).toEqual([]);
  });

  it("keys the code builds from a value exist for every value", () => {
    // Literal on purpose, and checked against the types: a new status, limit, method or refusal
    // reason fails to compile here until it is added, and then fails below until it has a text.
    const statuses = {
      draft: 1,
      queued: 1,
      sending: 1,
      succeeded: 1,
      rejected: 1,
      unconfirmed: 1,
      delivered: 1,
      not_delivered: 1,
      cancelled: 1,
      expired: 1,
    } satisfies Record<IntentStatus, 1>;
    const limits = {
      stars_per_purchase: 1,
      stars_per_user_day: 1,
      stars_per_bot_day: 1,
      premium_per_user_day: 1,
      premium_per_bot_day: 1,
    } satisfies Record<LimitName, 1>;
    const methods = { ton: 1, usdt_ton: 1 } satisfies Record<PaymentMethod, 1>;
    const refusals = {
      not_found: 1,
      not_owner: 1,
      already_processing: 1,
      already_done: 1,
      cancelled: 1,
      expired: 1,
      paused: 1,
      frozen: 1,
      busy: 1,
      limit: 1,
      recipient_unverified: 1,
      recipient_premium_unknown: 1,
      no_access: 1,
      storage: 1,
      stopping: 1,
      not_enough_stars: 1,
      stars_unavailable: 1,
    } satisfies Record<ConfirmRefusal["reason"], 1>;
    const keys = new Set(keysOf("en.ftl"));
    const built = [
      ...Object.keys(statuses).map((s) => `status-${s}`),
      ...Object.keys(limits).map((l) => `limit-${l}`),
      ...Object.keys(methods).map((m) => `method-${m}`),
      ...Object.keys(refusals).map((r) => `refusal-${r}`),
      "admin-low-balance-ton",
      "admin-low-balance-usdt",
    ];
    expect(built.filter((key) => !keys.has(key))).toEqual([]);
  });

  it("the hard-coded-string scan catches what it is meant to", () => {
    for (const line of [
      'await ctx.reply("Hello there");',
      "await ctx.editMessageText(`Done`);",
      'await ctx.api.sendMessage(chatId, "Hi");',
      'await ctx.answerCallbackQuery({ text: "Nope" });',
      'keyboard.text("Confirm", "buy:confirm:x");',
    ]) {
      expect(
        HARD_CODED.some((p) => p.test(line)),
        line,
      ).toBe(true);
    }
    expect(HARD_CODED.some((p) => p.test('await ctx.reply(ctx.t("cancel-done"));'))).toBe(false);
  });

  it("no user-facing string is hard-coded in src/bot", () => {
    const patterns = HARD_CODED;
    const offenders: string[] = [];
    for (const file of sourceFiles(join(process.cwd(), "src", "bot"))) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          if (patterns.some((p) => p.test(line)))
            offenders.push(`${file}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it("the command list exists in both languages, from the locale files", () => {
    expect(commandsFor("en").map((c) => c.command)).toEqual([
      "start",
      "stars",
      "premium",
      "history",
      "language",
      "cancel",
      "help",
    ]);
    expect(commandsFor("en").find((c) => c.command === "stars")?.description).toBe(
      "Gift Telegram Stars",
    );
    expect(commandsFor("ru").find((c) => c.command === "stars")?.description).toBe(
      "Подарить Telegram Stars",
    );
    for (const locale of ["en", "ru"] as const) {
      for (const command of commandsFor(locale)) {
        expect(command.description.length).toBeGreaterThan(2);
        expect(command.description.length).toBeLessThanOrEqual(256);
      }
    }
  });
});
