/**
 * The purchase breaker in the real process, with real SQLite: the service refuses purchases
 * for a reason that is not the buyer's input, purchases pause by themselves, every admin gets
 * one message, a Confirm meanwhile sends nothing and says why, and /resume or the button
 * reopens purchases. The refusals come from the sandbox: its generic fault control (a 400 body
 * the bot does not recognise), an expired marketplace session and a drained wallet.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  buttons,
  DEMO_ADMIN,
  DEMO_USER,
  Person,
  starsSummary,
  startBot,
  startWorld,
} from "../helpers/built-process.js";

const ALERT = /paused by themselves/;

describe("the purchase breaker", () => {
  it("three refusals not about the input pause purchases: one admin message, the next Confirm sends nothing, Resume reopens", async () => {
    const world = await startWorld();
    await startBot(world);
    const uma = new Person(world.emulator, DEMO_USER.id);
    const ada = new Person(world.emulator, DEMO_ADMIN.id);
    world.sandbox.injectFault(
      {
        type: "status",
        status: 400,
        body: { ok: false, error: "UPSTREAM_FAILED", reason: "fragment returned an error page" },
      },
      { path: "/buy-stars/", times: 3 },
    );

    for (const recipient of ["alice_friend", "bob_friend", "carol_friend"]) {
      const summary = await starsSummary(uma, recipient);
      await uma.press(summary, "✅ Confirm");
      await uma.waitForText(summary.id, /The purchase was refused\. Nothing was spent\./);
    }
    expect(world.sandbox.purchaseRequests()).toHaveLength(3);

    const alert = await ada.waitForMessage(ALERT);
    expect(alert.text).toContain("3 purchases in a row");
    expect(alert.text).toContain("fragment returned an error page");
    expect(buttons(alert)).toEqual([["▶ Resume purchases"]]);

    // The next Confirm sends nothing and says why.
    const next = await starsSummary(uma, "dave_friend");
    const answer = await uma.press(next, "✅ Confirm");
    expect(answer.text).toMatch(/paused for now.*Nothing was spent/s);
    expect(world.sandbox.purchaseRequests()).toHaveLength(3);

    // Exactly one alert, even after the press.
    const alerts = world.emulator
      .chat(DEMO_ADMIN.id)
      .filter((m) => m.fromBot && ALERT.test(m.text));
    expect(alerts).toHaveLength(1);

    // The button reopens purchases; the held summary can be confirmed now.
    await ada.press(alert, "▶ Resume purchases");
    await ada.waitForText(alert.id, /Purchases reopened by /);
    await uma.press(next, "✅ Confirm");
    await uma.waitForText(next.id, /Delivered: 50 Telegram Stars to @dave_friend/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(4);
  });

  it("an expired marketplace session pauses at once; the pause survives a restart; a new cookie on SIGHUP and /resume reopen", async () => {
    const world = await startWorld();
    const cookieFile = join(world.dir, "marketplace_cookie");
    writeFileSync(cookieFile, "stel_ssid=E2eExpiring1\n");
    const env = { MARKETPLACE_COOKIE: "", MARKETPLACE_COOKIE_FILE: cookieFile };
    const first = await startBot(world, env);
    const uma = new Person(world.emulator, DEMO_USER.id);
    const ada = new Person(world.emulator, DEMO_ADMIN.id);
    // The sandbox refuses every purchase with this stel_ssid (SESSION_EXPIRED), as the service does.
    world.sandbox.expireSession();

    const summary = await starsSummary(uma, "alice_friend");
    await uma.press(summary, "✅ Confirm");
    await uma.waitForText(
      summary.id,
      /The shop cannot buy gifts right now, and the admins have been told\./,
    );
    const alert = await ada.waitForMessage(ALERT);
    expect(alert.text).toContain("marketplace session expired");
    expect(alert.text).toContain("MARKETPLACE_COOKIE_FILE");
    expect(alert.text).toContain("SIGHUP");
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);

    first.child.kill("SIGTERM");
    await first.exited;
    const second = await startBot(world, env);
    const held = await starsSummary(uma, "bob_friend");
    expect((await uma.press(held, "✅ Confirm")).text).toMatch(/Nothing was spent/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);

    // The operator logs in again: a new cookie in the file, SIGHUP, then /resume.
    writeFileSync(cookieFile, "stel_ssid=E2eFresh2\n");
    second.child.kill("SIGHUP");
    await second.waitForLog((entry) => entry.msg === "settings reloaded");
    const resumed = await ada.say("/resume");
    expect(resumed.text).toMatch(/open again/);
    await uma.press(held, "✅ Confirm");
    await uma.waitForText(held.id, /Delivered/);
    const requests = world.sandbox.purchaseRequests();
    expect(requests).toHaveLength(2);
    expect(requests.at(-1)?.headers.cookie).toBe("stel_ssid=E2eFresh2");
  });

  it("a dry wallet pauses at once and says to top it up; the Resume button reopens once it is refilled", async () => {
    const world = await startWorld();
    await startBot(world);
    const uma = new Person(world.emulator, DEMO_USER.id);
    const ada = new Person(world.emulator, DEMO_ADMIN.id);
    world.sandbox.drainWallet();

    const summary = await starsSummary(uma, "alice_friend");
    await uma.press(summary, "✅ Confirm");
    await uma.waitForText(
      summary.id,
      /The shop cannot buy gifts right now, and the admins have been told\./,
    );
    const alert = await ada.waitForMessage(ALERT);
    expect(alert.text).toContain("Top up the wallet");
    expect(buttons(alert)).toEqual([["▶ Resume purchases"]]);

    const held = await starsSummary(uma, "bob_friend");
    expect((await uma.press(held, "✅ Confirm")).text).toMatch(
      /paused for now.*Nothing was spent/s,
    );
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);

    world.sandbox.refillWallet();
    await ada.press(alert, "▶ Resume purchases");
    await ada.waitForText(alert.id, /Purchases reopened by /);
    await uma.press(held, "✅ Confirm");
    await uma.waitForText(held.id, /Delivered/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(2);
  });
});
