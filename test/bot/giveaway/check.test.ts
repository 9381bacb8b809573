/** A giveaway's recipients checked through the desk, against the sandbox service. */
import { describe, expect, it } from "vitest";
import { checkRecipients } from "../../../src/bot/features/giveaway/check.js";
import { parseUsername, type Username } from "../../../src/gifts/username.js";
import { deskFixture } from "../../helpers/desk.js";

const names = (...list: string[]): Username[] =>
  list.map((name) => parseUsername(name) ?? expect.unreachable(name));

describe("a giveaway's check", () => {
  it("sorts the recipients: can receive, already Premium, not found; one check each, in order", async () => {
    const f = await deskFixture();
    const progress: string[] = [];
    const list = names("alice_friend", "premium_pat", "nobody_here", "bob_gifts");
    const checked = await checkRecipients(f.desk, list, {
      kind: "premium",
      adminId: 1,
      onChecked: (done, total) => progress.push(`${done}/${total}`),
    });
    expect(checked).toEqual({
      canReceive: ["alice_friend", "bob_gifts"],
      hasPremium: ["premium_pat"],
      notFound: ["nobody_here"],
      unchecked: [],
    });
    expect(progress).toEqual(["1/4", "2/4", "3/4", "4/4"]);
    expect(f.sandbox.requests.filter((r) => r.path === "/get-user-info/")).toHaveLength(4);
  });

  it("for stars, a Premium holder can receive too", async () => {
    const f = await deskFixture();
    const checked = await checkRecipients(f.desk, names("premium_pat"), {
      kind: "stars",
      adminId: 1,
    });
    expect(checked.canReceive).toEqual(["premium_pat"]);
  });

  it("stops when cancelled: the rest is left unchecked, nothing more is asked of the service", async () => {
    const f = await deskFixture();
    let done = 0;
    const checked = await checkRecipients(
      f.desk,
      names("alice_friend", "bob_gifts", "carol_star"),
      {
        kind: "stars",
        adminId: 1,
        onChecked: (n) => (done = n),
        stopped: () => done >= 1,
      },
    );
    expect(checked.canReceive).toEqual(["alice_friend"]);
    expect(checked.unchecked).toEqual(["bob_gifts", "carol_star"]);
  });
});
