/** The giveaway's list as CSV: every entry with its check, formulas from pasted text neutralised. */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { giveawayListCsv } from "../../../src/bot/features/giveaway/list-csv.js";
import { parseUsername, type Username } from "../../../src/gifts/username.js";

const name = (text: string): Username => parseUsername(text) ?? expect.unreachable(text);

describe("the giveaway's list as CSV", () => {
  it("has one row per entry with what the check found, and neutralises a pasted formula", () => {
    const csv = giveawayListCsv(
      {
        canReceive: [name("alice_friend")],
        hasPremium: [name("premium_pat")],
        notFound: [name("nobody_here")],
        unchecked: [name("bob_gifts")],
      },
      ['=HYPERLINK("http://x")', "a;=1+1"],
    );
    const rows = parse<Record<string, string>>(csv, { columns: true });
    expect(rows).toEqual([
      { recipient: "alice_friend", check: "can_receive" },
      { recipient: "premium_pat", check: "has_premium" },
      { recipient: "nobody_here", check: "not_found" },
      { recipient: "bob_gifts", check: "not_checked" },
      { recipient: `'=HYPERLINK("http://x")`, check: "not_a_username" },
      { recipient: "a;'=1+1", check: "not_a_username" },
    ]);
  });
});
