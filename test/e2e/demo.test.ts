/**
 * `npm run demo`'s entry (dist/tools/demo/run-demo.js) as a person uses it: it starts the
 * sandbox, the emulator and the real bot, the README's walkthrough works as written (buttons
 * pressed with `#N`, a typed number sent as the amount), `:expire-session` makes the next gift
 * open the purchase breaker (the admin's alert shows in the terminal), and `:quit` stops
 * everything and removes its temporary folder.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { tempDir } from "../helpers/temp-dir.js";

const DEMO_JS = join(resolve(import.meta.dirname, "../.."), "dist/tools/demo/run-demo.js");

/** The demo as a child process, its output, and a way to wait for what it prints. */
function startDemo() {
  // The demo's temporary folder goes under TMPDIR: it must be gone after :quit.
  const tmp = tempDir("giftbot-demo-test-");
  const demo = spawn(process.execPath, [DEMO_JS], {
    env: { PATH: process.env.PATH ?? "", TMPDIR: tmp },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((done) => demo.once("close", (code) => done(code)));
  onTestFinished(async () => {
    if (demo.exitCode !== null || demo.signalCode !== null) return;
    // SIGTERM first: the demo then stops its bot, which runs in a process group of its own
    // and would outlive a SIGKILLed demo. SIGKILL only if it does not stop in time.
    demo.kill("SIGTERM");
    const late = setTimeout(() => demo.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(late);
  });
  let output = "";
  const waiters = new Set<() => void>();
  demo.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of waiters) waiter();
  });
  demo.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  /** Resolves once `pattern` is printed (after output position `from`, default anywhere). */
  const waitForOutput = (pattern: RegExp, from = 0): Promise<void> =>
    new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no ${pattern} in:\n${output}`)), 15_000);
      const check = (): void => {
        if (!pattern.test(output.slice(from))) return;
        clearTimeout(timer);
        waiters.delete(check);
        done();
      };
      waiters.add(check);
      check();
    });
  /** Types one line; resolves to the output position before it, for waits on what follows. */
  const type = (line: string): number => {
    const from = output.length;
    demo.stdin.write(`${line}\n`);
    return from;
  };
  return { tmp, demo, exited, waitForOutput, type, output: () => output };
}

describe("npm run demo", () => {
  it("the README's walkthrough: #N presses the latest message's button, a typed number is the amount", async () => {
    const { exited, waitForOutput, type } = startDemo();
    await waitForOutput(/Type :help for commands\./);
    // The guide printed at start names the button the amount keyboard really has.
    await waitForOutput(/#7 +"Another amount"/);
    await waitForOutput(/\[1\] ⭐ Gift stars/, type("/start"));
    await waitForOutput(/Who should get the stars\?/, type("#1"));
    await waitForOutput(/\[7\] Another amount/, type("alice_friend"));
    await waitForOutput(/Send the number of stars/, type("#7"));
    let from = type("120");
    await waitForOutput(/Gift: 120 Telegram Stars[\s\S]*\[1\] ✅ Confirm/, from);
    from = type("#1");
    await waitForOutput(/✅ Delivered: 120 Telegram Stars to @alice_friend/, from);
    // As the admin, the accountant's export arrives as a document.
    await waitForOutput(/You are Ada/, type(":as admin"));
    await waitForOutput(/📎 purchases-[\d-]+\.csv \(\d+ bytes\)/, type("/export"));
    type(":quit");
    expect(await exited).toBe(0);
  });

  it(":unknown-outcome makes the next purchase unknown for /pending, /export is saved in the demo's folder, and a giveaway runs", async () => {
    const { tmp, exited, waitForOutput, type, output } = startDemo();
    await waitForOutput(/Type :help for commands\./);
    const filesDir = /Files the bot sends \(\/export\): (\S+)/.exec(output())?.[1] ?? "";
    expect(filesDir.startsWith(tmp)).toBe(true);
    await waitForOutput(
      /the next purchase will go through, but its answer is lost/,
      type(":unknown-outcome"),
    );
    await waitForOutput(/\[1\] ⭐ Gift stars/, type("/start"));
    await waitForOutput(/Who should get the stars\?/, type("#1"));
    await waitForOutput(/\[1\] ⭐ 50/, type("alice_friend"));
    await waitForOutput(/\[1\] ✅ Confirm/, type("#1"));
    let from = type("#1");
    await waitForOutput(
      /⚠️ A purchase ended with an unknown outcome: 50 Telegram Stars to @alice_friend/,
      from,
    );

    from = type(":as admin");
    await waitForOutput(/You are Ada/, from);
    from = type("/pending");
    await waitForOutput(
      /One purchase is waiting for a check[\s\S]*\[1\] ✅ Delivered {3}\[2\] ❌ Not delivered/,
      from,
    );
    from = type("#1");
    await waitForOutput(/Settled as delivered by admin/, from);

    from = type("/export");
    await waitForOutput(
      /📎 purchases-[\d-]+\.csv \(\d+ bytes\)[^\n]*\n {4}saved as \S+\.csv/,
      from,
    );
    const saved = /saved as (\S+\.csv)/.exec(output().slice(from))?.[1] ?? "";
    expect(saved.startsWith(filesDir)).toBe(true);
    const csv = readFileSync(saved, "utf8");
    expect(csv.split("\n")[0]).toContain("purchase_id");
    expect(csv).toContain("alice_friend");

    // The README's giveaway walkthrough, as the admin.
    await waitForOutput(/\[1\] ⭐ Stars/, type("/giveaway"));
    await waitForOutput(/\[1\] ⭐ 50/, type("#1"));
    await waitForOutput(/Send the recipients/, type("#1"));
    from = type("alice_friend bob_gifts premium_pat nobody_one x!");
    await waitForOutput(/✅ Can receive \(3\)[\s\S]*\[1\] ✅ Confirm/, from);
    from = type("#1");
    await waitForOutput(/🎁 Giveaway over: 3 delivered/, from);
    await waitForOutput(
      /📎 giveaway-[A-Za-z0-9_-]{12}\.csv \(\d+ bytes\)[^\n]*\n {4}saved as/,
      from,
    );
    type(":quit");
    expect(await exited).toBe(0);
  });

  it("starts the whole bot, chats in the terminal, shows the breaker after :expire-session, and quits cleanly on :quit", async () => {
    const { tmp, demo, exited, waitForOutput, output } = startDemo();
    await waitForOutput(/Type :help for commands\./);
    expect(readdirSync(tmp).filter((name) => name.startsWith("giftbot-demo-"))).toHaveLength(1);
    demo.stdin.write("/start\n");
    await waitForOutput(/@giftbot_demo_bot: Hi, Uma!/);
    await waitForOutput(/\[1\] ⭐ Gift stars/);
    demo.stdin.write(":expire-session\n");
    await waitForOutput(/\(sandbox: the marketplace session expired/);
    // A gift now: the service refuses it, the breaker opens, and the admin's alert shows up.
    demo.stdin.write("#1\n");
    await waitForOutput(/Who should get the stars\?/);
    demo.stdin.write("alice_friend\n");
    await waitForOutput(/\[1\] ⭐ 50/);
    demo.stdin.write("#1\n");
    await waitForOutput(/\[1\] ✅ Confirm/);
    demo.stdin.write("#1\n");
    await waitForOutput(
      /The shop cannot buy gifts right now, and the admins have been told\. Nothing was spent/,
    );
    await waitForOutput(/\[private chat of Ada\] #\d+ @giftbot_demo_bot: ⛔ Purchases are paused/);
    await waitForOutput(/\[1\] ▶ Resume purchases/);
    demo.stdin.write(":restore-session\n");
    await waitForOutput(/\(sandbox: the marketplace session is valid again\)/);
    demo.stdin.write(":quit\n");

    expect(await exited).toBe(0);
    expect(output()).toContain("Stopping the demo");
    expect(readdirSync(tmp).filter((name) => name.startsWith("giftbot-demo-"))).toEqual([]);
  });
});
