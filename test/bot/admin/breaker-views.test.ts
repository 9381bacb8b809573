import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  breakerOpenedText,
  readHealthText,
  reloadRefusedText,
} from "../../../src/bot/admin-notifications/breaker-views.js";
import type { BreakerOpening } from "../../../src/purchases/breaker.js";
import { translators } from "../../helpers/translators.js";

const T0 = Date.UTC(2030, 0, 1, 12, 5);
const OPERATIONS = readFileSync(
  join(fileURLToPath(new URL("../../..", import.meta.url)), "docs/operations.md"),
  "utf8",
);
/** Sending the bot SIGHUP under compose, under the shipped systemd unit, and with `npm start`. */
const RELOAD_COMMANDS = [
  "docker compose kill -s HUP bot",
  "sudo systemctl reload giftbot",
  `kill -HUP "$(pgrep -P <npm's pid>)"`,
];

const opening = (cause: BreakerOpening["cause"], count = 3): BreakerOpening => ({
  cause,
  at: T0,
  refusals: Array.from({ length: count }, (_, i) => ({
    intentId: `intent${i}`,
    at: T0 + i * 60_000,
    status: 400,
    reason: `upstream said no #${i}`,
    kind: "unknown" as const,
  })),
});

describe("breaker and outage texts", () => {
  it("quote every refusal with its time and id, in both languages", async () => {
    const { en, ru } = await translators();
    for (const [t, locale] of [
      [en, "en"],
      [ru, "ru"],
    ] as const) {
      const text = breakerOpenedText(t, locale, opening("unknown"), undefined);
      for (let i = 0; i < 3; i++) {
        expect(text).toContain(`intent${i}`);
        expect(text).toContain(`upstream said no #${i}`);
      }
      expect(text).toContain("12:05");
      expect(text).toContain("12:07");
      // Each time says its zone once: the locale text adds none of its own.
      expect(text).toMatch(/12:05 UTC, /);
      expect(text).not.toMatch(/UTC UTC/);
    }
    expect(breakerOpenedText(en, "en", opening("unknown"), undefined)).toContain(
      "3 purchases in a row",
    );
  });

  it("name the likely fix: a new cookie and SIGHUP for the session, a top-up for the wallet", async () => {
    const { en, ru } = await translators();
    const session = breakerOpenedText(en, "en", opening("session", 1), undefined);
    expect(session).toContain("refused a purchase");
    expect(session).toContain("MARKETPLACE_COOKIE_FILE");
    expect(session).toContain("SIGHUP");
    // The command for each way the bot runs, as docs/operations.md gives them, in both languages.
    for (const [t, locale] of [
      [en, "en"],
      [ru, "ru"],
    ] as const) {
      const text = breakerOpenedText(t, locale, opening("session", 1), undefined);
      for (const command of RELOAD_COMMANDS) {
        expect(text, locale).toContain(command);
        expect(OPERATIONS, command).toContain(command);
      }
      expect(text, locale).toContain("sudo tee secrets/marketplace_cookie");
      expect(text, locale).toContain("/etc/giftbot/secrets/marketplace_cookie");
    }
    const wallet = breakerOpenedText(en, "en", opening("wallet", 1), "UQwallet");
    expect(wallet).toContain("Top up the wallet UQwallet");
    expect(breakerOpenedText(ru, "ru", opening("wallet", 1), "UQwallet")).toContain(
      "Пополните кошелёк UQwallet",
    );
  });

  it("say how long reads have failed and when they came back", async () => {
    const { en } = await translators();
    expect(readHealthText(en, { kind: "outage", since: T0, failures: 4 }, T0 + 125_000)).toContain(
      "for 3 min (4 failed)",
    );
    expect(
      readHealthText(en, { kind: "recovered", since: T0, downForMs: 600_000, failures: 9 }, T0),
    ).toContain("unreachable for 10 min");
  });

  it("name refused settings without values", async () => {
    const { ru } = await translators();
    expect(reloadRefusedText(ru, ["MARKETPLACE_COOKIE", "LIMIT_STARS_PER_DAY"])).toContain(
      "MARKETPLACE_COOKIE, LIMIT_STARS_PER_DAY",
    );
  });
});
