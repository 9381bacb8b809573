import type { Api } from "grammy";
import { describe, expect, it } from "vitest";
import { GroupAdminChecker } from "../../../src/bot/access/group-admins.js";
import { createTestClock } from "../../../tools/testing/clock.js";

/** Just enough of grammY's Api: getChatMember answering from a script. */
function fakeApi(answer: () => Promise<{ status: string }>) {
  let calls = 0;
  const api = {
    getChatMember: () => {
      calls++;
      return answer();
    },
  } as unknown as Api;
  return { api, calls: () => calls };
}

describe("GroupAdminChecker", () => {
  it("reuses an answer for the cache time per chat and user, and `fresh` always asks", async () => {
    const clock = createTestClock();
    let status = "administrator";
    const { api, calls } = fakeApi(() => Promise.resolve({ status }));
    const checker = new GroupAdminChecker({ ttlMs: 30_000, now: clock });
    expect(await checker.check(api, -1, 7)).toBe("admin");
    status = "member";
    expect(await checker.check(api, -1, 7)).toBe("admin");
    expect(await checker.check(api, -2, 7)).toBe("not_admin");
    expect(calls()).toBe(2);
    expect(await checker.check(api, -1, 7, { fresh: true })).toBe("not_admin");
    // The fresh answer replaced the cached one.
    expect(await checker.check(api, -1, 7)).toBe("not_admin");
    status = "creator";
    clock.advance(30_000);
    expect(await checker.check(api, -1, 7)).toBe("admin");
    expect(calls()).toBe(4);
  });

  it("treats Telegram's 400 as not an administrator, and anything else as unknown, never cached", async () => {
    let failure: Error = Object.assign(new Error("Bad Request: user not found"), {
      error_code: 400,
    });
    const { api, calls } = fakeApi(() => Promise.reject(failure));
    const checker = new GroupAdminChecker();
    expect(await checker.check(api, -1, 7)).toBe("not_admin");
    failure = Object.assign(new Error("Too Many Requests"), { error_code: 429 });
    expect(await checker.check(api, -1, 8)).toBe("unknown");
    expect(await checker.check(api, -1, 8)).toBe("unknown");
    expect(calls()).toBe(3);
  });
});
