/**
 * `npm run demo`'s entry (dist/tools/demo/run-demo.js) as a person uses it: it starts the
 * sandbox, the emulator and the real bot, the terminal chat answers, `:expire-session` makes the
 * next gift open the purchase breaker (the admin's alert shows in the terminal), and `:quit`
 * stops everything and removes its temporary folder.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { tempDir } from "../helpers/temp-dir.js";

const DEMO_JS = join(resolve(import.meta.dirname, "../.."), "dist/tools/demo/run-demo.js");

describe("npm run demo", () => {
  it("starts the whole bot, chats in the terminal, shows the breaker after :expire-session, and quits cleanly on :quit", async () => {
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
    const waitForOutput = (pattern: RegExp): Promise<void> =>
      new Promise((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no ${pattern} in:\n${output}`)), 15_000);
        const check = (): void => {
          if (!pattern.test(output)) return;
          clearTimeout(timer);
          waiters.delete(check);
          done();
        };
        waiters.add(check);
        check();
      });

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
    await waitForOutput(/The service refused the purchase: SESSION_EXPIRED.*Nothing was spent/);
    await waitForOutput(/\[private chat of Ada\] #\d+ @giftbot_demo_bot: ⛔ Purchases are paused/);
    await waitForOutput(/\[1\] ▶ Resume purchases/);
    demo.stdin.write(":restore-session\n");
    await waitForOutput(/\(sandbox: the marketplace session is valid again\)/);
    demo.stdin.write(":quit\n");

    expect(await exited).toBe(0);
    expect(output).toContain("Stopping the demo");
    expect(readdirSync(tmp).filter((name) => name.startsWith("giftbot-demo-"))).toEqual([]);
  });
});
