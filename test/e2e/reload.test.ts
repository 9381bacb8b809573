/**
 * Rotating the marketplace cookie in the real process, as an operator with container secrets
 * does: MARKETPLACE_COOKIE_FILE, a new file, SIGHUP (or nothing at all: the folder watch). The
 * sandbox records the headers each purchase carried.
 */
import { linkSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DEMO_ADMIN,
  DEMO_USER,
  Person,
  secretsIn,
  starsSummary,
  startBot,
  startWorld,
} from "../helpers/built-process.js";

const OLD_COOKIE = "stel_ssid=E2eOldSession1; stel_token=E2eOldToken1";
const NEW_COOKIE = "stel_ssid=E2eNewSession2; stel_token=E2eNewToken2";

/** Writes a new file and renames it over the old one, as secret mounts are updated. */
function replace(path: string, content: string): void {
  writeFileSync(`${path}.next`, content);
  renameSync(`${path}.next`, path);
}

/** Buys 50 stars for `recipient` and resolves with the headers the sandbox received. */
async function buy(
  world: Awaited<ReturnType<typeof startWorld>>,
  person: Person,
  recipient: string,
): Promise<Record<string, string>> {
  const before = world.sandbox.purchaseRequests().length;
  const summary = await starsSummary(person, recipient);
  await person.press(summary, "✅ Confirm");
  await person.waitForText(summary.id, /Delivered/);
  const requests = world.sandbox.purchaseRequests();
  expect(requests).toHaveLength(before + 1);
  return requests.at(-1)?.headers ?? {};
}

describe("rotating the marketplace cookie without a restart", () => {
  it("SIGHUP with a new cookie file: the next purchase carries the new Cookie, nothing else changes", async () => {
    const world = await startWorld();
    // The bot reads the cookie through a link whose target lives in another folder, so the
    // folder watch does not see the change: only the SIGHUP can make the bot take it.
    const secrets = join(world.dir, "secrets");
    const store = join(world.dir, "store");
    mkdirSync(secrets);
    mkdirSync(store);
    writeFileSync(join(store, "cookie"), `${OLD_COOKIE}\n`);
    symlinkSync(join(store, "cookie"), join(secrets, "marketplace_cookie"));
    const bot = await startBot(world, {
      MARKETPLACE_COOKIE: "",
      MARKETPLACE_COOKIE_FILE: join(secrets, "marketplace_cookie"),
      // The files' status is not read either: only the signal can make the bot take it.
      SECRET_POLL_SECONDS: "0",
    });
    const uma = new Person(world.emulator, DEMO_USER.id);

    const first = await buy(world, uma, "alice_friend");
    expect(first.cookie).toBe(OLD_COOKIE);

    replace(join(store, "cookie"), `${NEW_COOKIE}\n`);
    bot.child.kill("SIGHUP");
    const line = await bot.waitForLog(
      (entry) => entry.msg === "settings reloaded" && entry.reason === "SIGHUP",
    );
    expect(line).toMatchObject({ changed: ["MARKETPLACE_COOKIE"], needsRestart: [], refused: [] });

    const second = await buy(world, uma, "bob_friend");
    expect(second.cookie).toBe(NEW_COOKIE);
    // Every other header is the same (the length differs with the recipient's name).
    const { cookie: _first, "content-length": _l1, ...firstRest } = first;
    const { cookie: _second, "content-length": _l2, ...secondRest } = second;
    expect(secondRest).toEqual(firstRest);

    // A bad new value is refused: the old one stays, the log names it, the admin is told.
    replace(join(store, "cookie"), "session=E2eNoStelSsid3\n");
    bot.child.kill("SIGHUP");
    const refused = await bot.waitForLog(
      (entry) => typeof entry.msg === "string" && entry.msg.includes("refused"),
    );
    expect(refused.refused).toEqual([expect.stringMatching(/^MARKETPLACE_COOKIE: /)]);
    await new Person(world.emulator, DEMO_ADMIN.id).waitForMessage(
      /not taken.*MARKETPLACE_COOKIE/s,
    );
    const third = await buy(world, uma, "carol_friend");
    expect(third.cookie).toBe(NEW_COOKIE);

    const output = bot.output();
    for (const value of ["E2eOldSession1", "E2eNewSession2", "E2eNewToken2", "E2eNoStelSsid3"]) {
      expect(output).not.toContain(value);
    }
    expect(secretsIn(output, bot.env)).toEqual([]);
  });

  it("a cookie file replaced in its folder is taken without any signal", async () => {
    const world = await startWorld();
    const cookieFile = join(world.dir, "marketplace_cookie");
    writeFileSync(cookieFile, OLD_COOKIE);
    const bot = await startBot(world, {
      MARKETPLACE_COOKIE: "",
      MARKETPLACE_COOKIE_FILE: cookieFile,
    });
    const uma = new Person(world.emulator, DEMO_USER.id);
    expect((await buy(world, uma, "alice_friend")).cookie).toBe(OLD_COOKIE);

    replace(cookieFile, NEW_COOKIE);
    await bot.waitForLog(
      (entry) =>
        entry.msg === "settings reloaded" &&
        entry.reason === "secret file changed" &&
        Array.isArray(entry.changed) &&
        entry.changed.includes("MARKETPLACE_COOKIE"),
    );
    expect((await buy(world, uma, "bob_friend")).cookie).toBe(NEW_COOKIE);
  });

  it("a compose file secret overwritten in place on the host is taken without any signal", async () => {
    const world = await startWorld();
    // The bind mount of compose's file secrets: the host's file and /run/secrets/NAME are one
    // inode in two folders (a hard link here), and the operator writes the host's in place.
    const host = join(world.dir, "host");
    const runSecrets = join(world.dir, "run-secrets");
    mkdirSync(host);
    mkdirSync(runSecrets);
    writeFileSync(join(host, "marketplace_cookie.txt"), OLD_COOKIE);
    linkSync(join(host, "marketplace_cookie.txt"), join(runSecrets, "marketplace_cookie"));
    const bot = await startBot(world, {
      MARKETPLACE_COOKIE: "",
      MARKETPLACE_COOKIE_FILE: join(runSecrets, "marketplace_cookie"),
      SECRET_POLL_SECONDS: "1",
    });
    const uma = new Person(world.emulator, DEMO_USER.id);
    expect((await buy(world, uma, "alice_friend")).cookie).toBe(OLD_COOKIE);

    writeFileSync(join(host, "marketplace_cookie.txt"), NEW_COOKIE);
    await bot.waitForLog(
      (entry) =>
        entry.msg === "settings reloaded" &&
        entry.reason === "secret file changed" &&
        Array.isArray(entry.changed) &&
        entry.changed.includes("MARKETPLACE_COOKIE"),
    );
    expect((await buy(world, uma, "bob_friend")).cookie).toBe(NEW_COOKIE);
  });
});
