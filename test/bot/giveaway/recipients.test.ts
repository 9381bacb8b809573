/** A giveaway's recipients, read from a message or a file. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_INVALID_SHOWN,
  recipientsFromFile,
  recipientsFromText,
} from "../../../src/bot/features/giveaway/recipients.js";
import { parseUsername } from "../../../src/gifts/username.js";

describe("a giveaway's recipients", () => {
  it("reads names, @names and t.me links separated by spaces, commas, semicolons and lines", () => {
    const list = recipientsFromText(
      "alice_friend, @bob_gifts;https://t.me/carol_star\n  t.me/dave_user?start=1\tERIN_HERE",
      200,
    );
    expect(list.recipients).toEqual([
      "alice_friend",
      "bob_gifts",
      "carol_star",
      "dave_user",
      "ERIN_HERE",
    ]);
    expect(list).toMatchObject({ invalid: [], invalidCount: 0, overLimit: 0, duplicates: 0 });
  });

  it("merges the same person written twice, in any case or form, keeping the first spelling", () => {
    const list = recipientsFromText("Alice_Friend @alice_friend t.me/ALICE_FRIEND bob_gifts", 200);
    expect(list.recipients).toEqual(["Alice_Friend", "bob_gifts"]);
    expect(list.duplicates).toBe(2);
  });

  it("lists back what is not a username, and buys for nobody it cannot read", () => {
    const list = recipientsFromText("ok_name @@double 12345 a-b https://example.com/x ab", 200);
    expect(list.recipients).toEqual(["ok_name"]);
    expect(list.invalid).toEqual(["@@double", "12345", "a-b", "https://example.com/x", "ab"]);
    expect(list.invalidCount).toBe(5);
  });

  it("keeps the first `max` and counts the rest", () => {
    const names = Array.from({ length: 30 }, (_, i) => `person_${String(i).padStart(2, "0")}`);
    const list = recipientsFromText(names.join("\n"), 25);
    expect(list.recipients).toEqual(names.slice(0, 25));
    expect(list.overLimit).toBe(5);
  });

  it("shows at most a screenful of invalid entries, and says how many there were", () => {
    const list = recipientsFromText(Array.from({ length: 50 }, () => "no!").join(" "), 200);
    expect(list.invalid).toHaveLength(MAX_INVALID_SHOWN);
    expect(list.invalidCount).toBe(50);
  });

  it("reads a .csv's username column, skipping its header row, and a .txt as a message", () => {
    const csv = 'username,prize\n"@alice_friend",1\nbob_gifts;2\r\nt.me/carol_star,3\n';
    expect(recipientsFromFile("winners.CSV", csv, 200).recipients).toEqual([
      "alice_friend",
      "bob_gifts",
      "carol_star",
    ]);
    // Without a header row, the first row is a winner like the others.
    expect(recipientsFromFile("w.csv", "dave_user,1\n", 200).recipients).toEqual(["dave_user"]);
    expect(recipientsFromFile("w.txt", "username alice_friend", 200).recipients).toEqual([
      "username",
      "alice_friend",
    ]);
  });

  it("reads every cell of a .csv without a header: a one-row list loses nobody", () => {
    const list = recipientsFromFile("w.csv", "alice_friend,bob_gifts;carol_star\tdave_user\n", 200);
    expect(list.recipients).toEqual(["alice_friend", "bob_gifts", "carol_star", "dave_user"]);
    // A prize column is listed back, not guessed at.
    const prizes = recipientsFromFile("w.csv", "erin_here,1\nfrank_ok,2\n", 200);
    expect(prizes.recipients).toEqual(["erin_here", "frank_ok"]);
    expect(prizes.invalid).toEqual(["1", "2"]);
  });

  it("reads the column a .csv's header names as usernames, not a display name beside it", () => {
    const csv = "Name,Username,Prize\nAlice,@alice_friend,1\nBobby,t.me/bob_gifts,2\n";
    const list = recipientsFromFile("winners.csv", csv, 200);
    expect(list.recipients).toEqual(["alice_friend", "bob_gifts"]);
    expect(list.invalidCount).toBe(0);
    // "name" alone still names the column.
    expect(recipientsFromFile("w.csv", "name\ncarol_star\n", 200).recipients).toEqual([
      "carol_star",
    ]);
  });

  it("reads a .csv's quoted cells whole: a comma or a line break inside quotes splits nothing", () => {
    const csv = 'username,note\n"@alice_friend","won, twice"\n"bob_gifts","line\nbreak"\n';
    const list = recipientsFromFile("w.csv", csv, 200);
    expect(list.recipients).toEqual(["alice_friend", "bob_gifts"]);
    expect(list.invalidCount).toBe(0);
    const noHeader = recipientsFromFile("w.csv", '"Smith, John",@carol_star\n', 200);
    expect(noHeader.recipients).toEqual(["carol_star"]);
    expect(noHeader.invalid).toEqual(["Smith, John"]);
  });

  it("never throws, and never returns an invalid or duplicate name, or more than the maximum", () => {
    const piece = fc.oneof(
      fc.string(),
      fc.stringMatching(/^@?[A-Za-z][A-Za-z0-9_]{3,31}$/),
      fc.stringMatching(/^(https?:\/\/)?t\.me\/[A-Za-z][A-Za-z0-9_]{3,31}$/),
      fc.constantFrom(",", ";", "\n", " ", "\t", '"', "@", "username"),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        (pieces, max, asCsv) => {
          const text = pieces.join("");
          const list = asCsv
            ? recipientsFromFile("list.csv", text, max)
            : recipientsFromText(text, max);
          expect(list.recipients.length).toBeLessThanOrEqual(max);
          for (const name of list.recipients) expect(parseUsername(name)).toBe(name);
          const lower = list.recipients.map((name) => name.toLowerCase());
          expect(new Set(lower).size).toBe(lower.length);
        },
      ),
      { numRuns: 500 },
    );
  });
});
