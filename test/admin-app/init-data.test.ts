/**
 * Who may call the admins' app: init data signed with this bot's token, recent, of an admin.
 * Signed as Telegram signs it (tools/testing/init-data.ts), checked by @grammyjs/validator.
 */
import { describe, expect, it } from "vitest";
import { checkInitData, type InitDataRules } from "../../src/admin-app/init-data.js";
import { signInitData } from "../../tools/testing/init-data.js";

const TOKEN = "424242:the-bot-token-of-these-tests";
const NOW = 1_800_000_000;
const ADA = { id: 1001, first_name: "Ada", language_code: "ru" };
const rules: InitDataRules = {
  token: TOKEN,
  maxAgeSeconds: 3600,
  isAdmin: (userId) => userId === ADA.id,
  nowSeconds: () => NOW,
};
const header = (data: string) => `tma ${data}`;

describe("the admins' app's init data", () => {
  it("lets an admin in with recent data signed with the bot's token", () => {
    const check = checkInitData(header(signInitData(TOKEN, ADA, { authDate: NOW - 3599 })), rules);
    expect(check).toEqual({
      ok: true,
      user: { id: ADA.id, languageCode: "ru" },
      authDate: NOW - 3599,
    });
  });

  it("answers 401 without data, for another token's signature or any field changed", () => {
    expect(checkInitData(undefined, rules)).toMatchObject({ status: 401, reason: "missing" });
    expect(checkInitData("Bearer x", rules)).toMatchObject({ status: 401, reason: "missing" });
    expect(checkInitData(header("a".repeat(9000)), rules)).toMatchObject({ reason: "missing" });
    const other = signInitData("999:another-bot", ADA, { authDate: NOW });
    expect(checkInitData(header(other), rules)).toMatchObject({ status: 401, reason: "forged" });
    const good = signInitData(TOKEN, ADA, { authDate: NOW });
    const younger = good.replace(`auth_date=${NOW}`, `auth_date=${NOW + 1}`);
    expect(younger).not.toBe(good);
    expect(checkInitData(header(younger), rules)).toMatchObject({ reason: "forged" });
    const noHash = good.replace(/&hash=[0-9a-f]+/, "");
    expect(checkInitData(header(noHash), rules)).toMatchObject({ reason: "forged" });
  });

  it("answers 401 for data older than the setting, or from the future", () => {
    const old = signInitData(TOKEN, ADA, { authDate: NOW - 3601 });
    expect(checkInitData(header(old), rules)).toMatchObject({ status: 401, reason: "stale" });
    const ahead = signInitData(TOKEN, ADA, { authDate: NOW + 120 });
    expect(checkInitData(header(ahead), rules)).toMatchObject({ status: 401, reason: "stale" });
    expect(checkInitData(header(old), { ...rules, maxAgeSeconds: 7200 }).ok).toBe(true);
  });

  it("answers 403 for a real Telegram user who is not an admin", () => {
    const uma = signInitData(TOKEN, { id: 1002, first_name: "Uma" }, { authDate: NOW });
    expect(checkInitData(header(uma), rules)).toEqual({
      ok: false,
      status: 403,
      reason: "not_admin",
    });
  });
});
