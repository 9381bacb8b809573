/**
 * The open summaries a person has in a chat: kept in SQLite (a restart finds them), remembered
 * in memory, and never changed by what a caller does with a list it was given.
 */
import { describe, expect, it } from "vitest";
import { OpenSummaryStore } from "../../src/bot/open-summaries.js";
import { ledgerFixture } from "../helpers/ledger.js";

describe("open summaries", () => {
  it("are kept per chat and person, seen by a store opened later, and removed one by one", async () => {
    const stores = (await ledgerFixture()).storage.keyValues;
    const summaries = new OpenSummaryStore(stores);
    await summaries.add(7, { intentId: "a", chatId: 1, messageId: 10 });
    await summaries.add(7, { intentId: "b", chatId: 1, messageId: 11 });
    await summaries.add(7, { intentId: "c", chatId: 2, messageId: 12 });
    await summaries.remove(1, 7, "a");

    const reopened = new OpenSummaryStore(stores);
    expect((await reopened.list(1, 7)).map((s) => s.intentId)).toEqual(["b"]);
    expect((await reopened.list(2, 7)).map((s) => s.intentId)).toEqual(["c"]);
    expect(await reopened.list(1, 8)).toEqual([]);
    await reopened.clear(1, 7);
    expect(await new OpenSummaryStore(stores).list(1, 7)).toEqual([]);
  });

  it("hands out copies: changing a list given out changes nothing kept", async () => {
    const summaries = new OpenSummaryStore((await ledgerFixture()).storage.keyValues);
    await summaries.add(7, { intentId: "a", chatId: 1, messageId: 10 });
    (await summaries.list(1, 7)).pop();
    expect((await summaries.list(1, 7)).map((s) => s.intentId)).toEqual(["a"]);
  });
});
