import { linkSync, mkdirSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { secretFileFolders, secretFilePaths, watchSecretFiles } from "../../src/config/watch.js";
import { tempDir } from "../helpers/temp-dir.js";

/** Resolves on the next `onChange`; the watch is closed when the test ends. */
function watching(
  folders: string[],
  debounceMs = 50,
  poll: { files: string[]; pollMs: number } = { files: [], pollMs: 0 },
) {
  let calls = 0;
  let waiter: (() => void) | undefined;
  const watch = watchSecretFiles(
    folders,
    () => {
      calls++;
      waiter?.();
    },
    { debounceMs, ...poll },
  );
  onTestFinished(() => watch.close());
  return {
    get calls() {
      return calls;
    },
    next: () =>
      new Promise<void>((resolve) => {
        waiter = resolve;
      }),
    watch,
  };
}

describe("secretFileFolders", () => {
  it("lists the folders of the NAME_FILE secrets that are set, each once", () => {
    expect(
      secretFileFolders({
        MARKETPLACE_COOKIE_FILE: "/run/secrets/cookie",
        WALLET_MNEMONIC_FILE: "/run/secrets/mnemonic",
        TON_API_KEY_FILE: "/etc/giftbot/ton",
        NOT_A_SECRET_FILE: "/elsewhere/x",
      }).sort(),
    ).toEqual(["/etc/giftbot", "/run/secrets"]);
    expect(secretFileFolders({})).toEqual([]);
    expect(
      secretFilePaths({ MARKETPLACE_COOKIE_FILE: "/run/secrets/cookie", BOT_TOKEN_FILE: " " }),
    ).toEqual(["/run/secrets/cookie"]);
  });
});

describe("watchSecretFiles", () => {
  it("notices a file replaced by rename, as compose and most secret tools write it", async () => {
    const dir = tempDir("giftbot-watch-");
    const file = join(dir, "cookie");
    writeFileSync(file, "stel_ssid=one");
    const watch = watching([dir]);
    const changed = watch.next();
    writeFileSync(`${file}.tmp`, "stel_ssid=two");
    renameSync(`${file}.tmp`, file);
    await changed;
    // And again: a watch on the file itself would now be stuck on the old, unlinked inode.
    const again = watch.next();
    writeFileSync(`${file}.tmp`, "stel_ssid=three");
    renameSync(`${file}.tmp`, file);
    await again;
    expect(watch.calls).toBe(2);
  });

  it("notices a Kubernetes-style swap of the ..data symlink", async () => {
    const dir = tempDir("giftbot-watch-");
    mkdirSync(join(dir, "v1"));
    mkdirSync(join(dir, "v2"));
    writeFileSync(join(dir, "v1", "cookie"), "stel_ssid=one");
    writeFileSync(join(dir, "v2", "cookie"), "stel_ssid=two");
    symlinkSync("v1", join(dir, "..data"));
    symlinkSync(join("..data", "cookie"), join(dir, "cookie"));
    const watch = watching([dir]);
    const changed = watch.next();
    symlinkSync("v2", join(dir, "..data_tmp"));
    renameSync(join(dir, "..data_tmp"), join(dir, "..data"));
    await changed;
    expect(watch.calls).toBe(1);
  });

  it("notices a compose file secret overwritten in place on the host (the container's folder sees no event)", async () => {
    // compose bind-mounts the host's file onto /run/secrets/NAME: one inode, two folders. A
    // hard link in another folder is the same arrangement without a mount.
    const host = tempDir("giftbot-host-");
    const container = tempDir("giftbot-run-secrets-");
    writeFileSync(join(host, "cookie.txt"), "stel_ssid=one");
    const mounted = join(container, "marketplace_cookie");
    linkSync(join(host, "cookie.txt"), mounted);
    const watch = watching([container], 50, { files: [mounted], pollMs: 50 });
    const changed = watch.next();
    // The operator edits the host file in place (same inode, as a bind mount requires).
    writeFileSync(join(host, "cookie.txt"), "stel_ssid=two-longer");
    await changed;
    expect(watch.calls).toBe(1);
  });

  it("runs once for a burst of events", async () => {
    const dir = tempDir("giftbot-watch-");
    const file = join(dir, "cookie");
    const watch = watching([dir], 100);
    const changed = watch.next();
    for (let i = 0; i < 5; i++) writeFileSync(file, `stel_ssid=${i}`);
    await changed;
    // A marker written after the debounce fired proves nothing else was pending.
    const marker = watch.next();
    unlinkSync(file);
    await marker;
    expect(watch.calls).toBe(2);
  });

  it("skips a folder that cannot be watched", () => {
    const watch = watchSecretFiles(["/nonexistent/giftbot/secrets"], () => undefined);
    watch.close();
    watch.close();
  });
});
