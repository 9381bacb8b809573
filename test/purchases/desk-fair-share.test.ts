import { describe, expect, it } from "vitest";
import { deskFixture } from "../helpers/desk.js";

/** The sandbox's usernames, in the order the requests arrived. */
function namesAsked(requests: { query: Record<string, string> }[]): string[] {
  return requests.flatMap((r) => (r.query["username"] ? [r.query["username"]] : []));
}

describe("the desk's recipient checks, per person", () => {
  it("charges only checks that reach the service, and refuses the one over the allowance with when to retry", async () => {
    const { desk, sandbox } = await deskFixture({ desk: { checksPerUserMinute: 2 } });
    expect((await desk.checkRecipient("alice_one", { userId: 7 })).kind).toBe("ok");
    // Cached: free, whoever asks.
    expect((await desk.checkRecipient("alice_one", { userId: 7 })).kind).toBe("ok");
    expect((await desk.checkRecipient("bob_two", { userId: 7 })).kind).toBe("ok");
    expect(await desk.checkRecipient("carol_three", { userId: 7 })).toEqual({
      kind: "throttled",
      retryAfterSeconds: 60,
    });
    // Admins are exempt by default; another person has an allowance of their own.
    expect((await desk.checkRecipient("carol_three", { userId: 1, isAdmin: true })).kind).toBe(
      "ok",
    );
    expect((await desk.checkRecipient("dave_four", { userId: 8 })).kind).toBe("ok");
    expect(namesAsked(sandbox.requests)).toEqual([
      "alice_one",
      "bob_two",
      "carol_three",
      "dave_four",
    ]);
    expect(desk.fairShare().throttledChecks.map((p) => p.userId)).toEqual([7]);
  });

  it("a person's newer check replaces their queued one; whoever shared the replaced read asks again as its owner", async () => {
    // One request per 400 ms window: the second and later checks wait in the client's queue.
    const { desk, sandbox } = await deskFixture({
      client: { quota: { limit: 1, windowMs: 400 } },
      desk: { checksPerUserMinute: 5 },
    });
    await desk.checkRecipient("zed_first", { userId: 9 });
    const mine = desk.checkRecipient("alice_shared", { userId: 1 });
    // Joins person 1's queued read of the same name, for free.
    const theirs = desk.checkRecipient("alice_shared", { userId: 2 });
    // Person 1 moves on: their queued check of alice is superseded, never sent.
    const newer = desk.checkRecipient("bob_newer", { userId: 1 });
    expect(await mine).toEqual({ kind: "superseded" });
    expect((await newer).kind).toBe("ok");
    expect((await theirs).kind).toBe("ok");
    expect(namesAsked(sandbox.requests)).toEqual(["zed_first", "bob_newer", "alice_shared"]);
  });
});
