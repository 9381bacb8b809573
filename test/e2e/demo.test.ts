/**
 * `npm run demo`'s entry (dist/tools/demo/run-demo.js) as a person uses it: it starts the
 * sandbox, the emulator and the real bot, the README's walkthrough works as the README prints it
 * (its lines are read from README.md and typed one by one), `:expire-session` makes the next gift
 * open the purchase breaker (the admin's alert shows in the terminal), and `:quit` stops
 * everything and removes its temporary folder.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { tempDir } from "../helpers/temp-dir.js";

const ROOT = resolve(import.meta.dirname, "../..");
const DEMO_JS = join(ROOT, "dist/tools/demo/run-demo.js");

/**
 * The lines the README's demo walkthrough tells a person to type, in order: the `text` block of
 * "See the whole bot in a minute". A line that starts a step holds what to type, then two or more
 * spaces and what it does; an indented line goes on with the words of the step above.
 */
function readmeWalkthrough(): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## See the whole bot in a minute"));
  const block = /```text\n([\s\S]*?)\n```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .filter((line) => line !== "" && !/^\s/.test(line))
    .map((line) => line.split(/ {2,}/)[0] ?? "");
}

/**
 * What each line of the walkthrough must bring, in the README's order. The README's lines are
 * checked against these: a step added, removed or changed in one and not the other fails.
 */
const WALKTHROUGH: ReadonlyArray<readonly [typed: string, shows: RegExp]> = [
  ["/start", /\[1\] ⭐ Gift stars {3}\[2\] 💎 Gift premium/],
  ["#1", /Who should get the stars\?/],
  ["alice_friend", /\[7\] Another amount/],
  ["12o", /That is not a whole number from 50 to 10,000/],
  ["#7", /\(you pressed "Another amount" on #\d+\)[\s\S]*Send the number of stars/],
  [
    "120",
    /Gift: 120 Telegram Stars[\s\S]*Estimated cost: not known yet \(prices are not quoted in advance[\s\S]*\[1\] ✅ Confirm/,
  ],
  ["#1", /✅ Delivered: 120 Telegram Stars to @alice_friend\.\nCost: 1\.8 USDT/],
  ["/premium", /Who should get Telegram Premium\?/],
  ["bob_gifts", /\[1\] 3 months/],
  [
    "#1",
    /Gift: Telegram Premium for 3 months[\s\S]*Estimated cost: not known yet[\s\S]*\[1\] ✅ Confirm/,
  ],
  ["#1", /✅ Delivered: Telegram Premium for 3 months to @bob_gifts\.\nCost: 12 USDT/],
  ["/history", /Telegram Premium for 3 months to @bob_gifts: delivered, cost: 12 USDT/],
  [":as admin", /You are Ada/],
  ["/giveaway", /\[1\] ⭐ Stars {3}\[2\] 💎 Premium/],
  ["#2", /\[1\] 3 months/],
  ["#1", /Send the recipients/],
  [
    ":file tools/demo/giveaway-list.csv",
    /Ada \(you\): 📎 giveaway-list\.csv \(\d+ bytes\)[\s\S]*✅ Can receive \(3\): @alice_friend, @carl_gifts, @dana_gifts\n💎 Already have Premium \(2\): @bob_gifts, @premium_pat\n❓ Not found \(1\): @nobody_one[\s\S]*Estimated cost: about 36 USDT \(from one recent purchase\)[\s\S]*\[3\] 📄 Download the list/,
  ],
  ["#3", /📎 giveaway[\w-]*\.csv \(\d+ bytes\)\n {4}saved as \S+\.csv/],
  // The list's message has no buttons: #1 is the card's Confirm.
  ["#1", /\(you pressed "✅ Confirm" on #\d+\)[\s\S]*🎁 Giveaway over: 3 delivered/],
  ["/topup 2500", /Telegram Stars for the bot[\s\S]*\[1\] Pay ⭐️2500/],
  [
    "#1",
    /⭐ Thank you: 2,500 Telegram Stars were added to the bot's balance \(charge \S+\)\. The bot now holds 2,500 Stars\./,
  ],
  [":group", /You are Ada \(id 1001\), in the group "Gift demo group"\./],
  // After a Premium giveaway of 3, the admin's own Premium gift in the group still goes.
  ["/premium @uma_user", /Telegram Premium for @uma_user: for how long\?/],
  [
    "#1",
    /Gift: Telegram Premium for 3 months\nPayment: 1,000 Telegram Stars from the bot's own balance[\s\S]*\[1\] ✅ Confirm/,
  ],
  ["#1", /✅ Delivered: Telegram Premium for 3 months to @uma_user/],
  [":private", /You are Ada \(id 1001\), in the private chat of Ada\./],
  [":unknown-outcome", /the next purchase will go through, but its answer is lost/],
  ["/stars", /Who should get the stars\?/],
  ["alice_friend", /\[1\] ⭐ 50/],
  ["#1", /Estimated cost: about 0\.75 USDT \(from one recent purchase\)[\s\S]*\[1\] ✅ Confirm/],
  ["#1", /⚠️ The outcome is unknown/],
  [
    "/pending",
    /One purchase is waiting for a check[\s\S]*\[1\] ✅ Delivered {3}\[2\] ❌ Not delivered/,
  ],
  ["#1", /Settled as delivered/],
  [":quit", /Stopping the demo/],
];

/** The demo as a child process, its output, and a way to wait for what it prints. */
function startDemo() {
  // The demo's temporary folder goes under TMPDIR: it must be gone after :quit.
  const tmp = tempDir("giftbot-demo-test-");
  // From the checkout's root, as `npm run demo` runs (the walkthrough's file path starts there).
  const demo = spawn(process.execPath, [DEMO_JS], {
    cwd: ROOT,
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
  it("runs the README's walkthrough as printed: a mistyped amount, a giveaway from a file, #1 after its list, the group after it", async () => {
    const typed = readmeWalkthrough();
    expect(typed).toEqual(WALKTHROUGH.map(([line]) => line));
    const { exited, waitForOutput, type } = startDemo();
    await waitForOutput(/Type :help for commands\./);
    // The guide printed at start names the button the amount keyboard really has.
    await waitForOutput(/#7 +"Another amount"/);
    for (const [line, shows] of WALKTHROUGH) await waitForOutput(shows, type(line));
    expect(await exited).toBe(0);
  });

  it("a giveaway from a list in a message, and /export saved in the demo's folder", async () => {
    const { tmp, exited, waitForOutput, type, output } = startDemo();
    await waitForOutput(/Type :help for commands\./);
    const filesDir = /Files the bot sends \(\/export\): (\S+)/.exec(output())?.[1] ?? "";
    expect(filesDir.startsWith(tmp)).toBe(true);
    await waitForOutput(/You are Ada/, type(":as admin"));
    await waitForOutput(/\[1\] ⭐ Stars/, type("/giveaway"));
    await waitForOutput(/\[1\] ⭐ 50/, type("#1"));
    await waitForOutput(/Send the recipients/, type("#1"));
    let from = type("alice_friend bob_gifts premium_pat nobody_one x!");
    // The first stars card: no purchase measured yet, and it says so.
    await waitForOutput(
      /✅ Can receive \(3\)[\s\S]*Estimated cost: not known yet \(the service quotes no prices[\s\S]*\[1\] ✅ Confirm/,
      from,
    );
    from = type("#1");
    await waitForOutput(/🎁 Giveaway over: 3 delivered/, from);
    await waitForOutput(
      /📎 giveaway-[A-Za-z0-9_-]{12}\.csv \(\d+ bytes\)[^\n]*\n {4}saved as/,
      from,
    );

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
    expect(csv).toContain("bob_gifts");
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
