/**
 * The ledger's moves for a gift through Telegram whose outcome is unknown (issue #39), the same
 * on SQLite and PostgreSQL: a proof found among the bot's Star transactions settles it as
 * delivered with no admin, the proof kept beside the answer; a search that found nothing is
 * kept on it for the admin; neither touches an intent an admin settled first.
 */
import { describe, expect, it } from "vitest";
import { NOON } from "../helpers/ledger.js";
import { ambiguous, ledgerContract } from "./ledger-fixture.js";
import { STORES } from "./stores.js";

describe.each(STORES)("$name: a gift's proof through Telegram", (store) => {
  /** An intent whose answer left it unconfirmed, and a second one waiting behind it. */
  async function unknown() {
    const fixture = await ledgerContract(store);
    const intent = await fixture.draft();
    expect((await fixture.ledger.claim(intent.id, 1)).ok).toBe(true);
    await fixture.ledger.recordOutcome(intent.id, ambiguous, NOON + 1_000);
    const waiting = await fixture.draft();
    expect(await fixture.other.claim(waiting.id, 1)).toMatchObject({ ok: false, reason: "frozen" });
    // What the ambiguous answer left on it, which a proof or a search is kept beside.
    const answer = (await fixture.other.get(intent.id))?.response;
    expect(answer).toMatchObject({ body: ambiguous.body });
    return { ...fixture, intent, waiting, answer };
  }

  it("settles it as delivered with no admin, the proof beside the answer, and purchases reopen", async () => {
    const { ledger, other, intent, waiting, answer } = await unknown();
    const proof = { transaction: "tx-1", starsBefore: 500, starsAfter: 400 };
    const settled = await ledger.settleByProof(intent.id, proof, "found", NOON + 5_000);
    expect(settled).toMatchObject({
      unconfirmedLeft: 0,
      intent: { status: "delivered", outcomeDetail: "found", resolvedAt: NOON + 5_000 },
    });
    expect(settled?.intent.resolvedBy).toBeUndefined();
    expect((await other.get(intent.id))?.response).toEqual({ answer, proof });
    expect((await other.history(intent.id)).slice(-1)).toEqual([
      { from: "unconfirmed", to: "delivered", at: NOON + 5_000, actor: undefined },
    ]);
    expect((await other.claim(waiting.id, 1)).ok).toBe(true);
  });

  it("keeps a search beside the answer, the intent still unconfirmed, then the proof beside both", async () => {
    const { ledger, other, intent, answer } = await unknown();
    const search = { looked: 3, starsBefore: 500, starsAfter: 500 };
    expect(await ledger.noteSearch(intent.id, search, NOON + 2_000)).toBe(true);
    const noted = await other.get(intent.id);
    expect(noted).toMatchObject({ status: "unconfirmed" });
    expect(noted?.response).toEqual({ answer, search });
    expect(await other.unconfirmedCount()).toBe(1);

    await other.settleByProof(intent.id, { transaction: "tx-2" }, "found later", NOON + 3_000);
    expect((await ledger.get(intent.id))?.response).toEqual({
      answer,
      search,
      proof: { transaction: "tx-2" },
    });
  });

  it("leaves an intent an admin settled first as the admin settled it", async () => {
    const { ledger, other, intent, answer } = await unknown();
    await other.resolve(intent.id, 7, false, NOON + 2_000);
    expect(await ledger.settleByProof(intent.id, { transaction: "tx-3" }, "found")).toBeUndefined();
    expect(await ledger.noteSearch(intent.id, { looked: 1 })).toBe(false);
    expect(await other.get(intent.id)).toMatchObject({
      status: "not_delivered",
      resolvedBy: 7,
      response: answer,
    });
  });
});
