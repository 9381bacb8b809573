import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { InlineKeyboard } from "grammy";
import { describe, expect, it } from "vitest";
import { DEMO_ADMIN, DEMO_GROUP, DEMO_USER } from "../../../tools/telegram-emulator/demo-people.js";
import { botFor, onCleanup, runBot, startEmulator } from "./harness.js";

/** The terminal chat as its own process, read line by line with bounded, event-based waits. */
function spawnTerminalChat(url: string): {
  child: ChildProcessWithoutNullStreams;
  type: (line: string) => void;
  waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<string>;
  exited: Promise<number | null>;
} {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "tools/telegram-emulator/terminal-chat.ts", url],
    {
      cwd: process.cwd(),
      env: { ...process.env, EMULATOR_URL: "" },
    },
  );
  let output = "";
  let consumed = 0;
  const listeners = new Set<() => void>();
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
    for (const listener of [...listeners]) listener();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  onCleanup(async () => {
    if (child.exitCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
  });
  const waitForOutput = (pattern: RegExp, timeoutMs = 8_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const match = pattern.exec(output.slice(consumed));
        if (match === null) return;
        consumed += match.index + match[0].length;
        listeners.delete(check);
        clearTimeout(timer);
        resolve(match[0]);
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`no ${pattern} in terminal output:\n${output}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });
  return { child, type: (line) => child.stdin.write(`${line}\n`), waitForOutput, exited };
}

describe("terminal chat", () => {
  it("lets a person chat, press numbered buttons (#N) and act as the admin in the demo group", async () => {
    const emu = await startEmulator();
    const bot = botFor(emu);
    bot.command("start", (ctx) =>
      ctx.reply(`Hi ${ctx.from?.first_name}`, {
        reply_markup: new InlineKeyboard()
          .text("Stars", "stars")
          .text("Premium", "premium")
          .row()
          .url("Docs", "https://example.org"),
      }),
    );
    bot.command("admins", async (ctx) => {
      const admins = await ctx.getChatAdministrators();
      await ctx.reply(`admins: ${admins.map((admin) => admin.user.first_name).join(", ")}`);
    });
    bot.callbackQuery(["stars", "premium"], async (ctx) => {
      await ctx.answerCallbackQuery({ text: `picked ${ctx.callbackQuery.data}` });
      await ctx.editMessageText(`You picked ${ctx.callbackQuery.data}`);
    });
    await runBot(bot);

    const terminal = spawnTerminalChat(emu.url);
    await terminal.waitForOutput(/Type :help for commands\./, 15_000);
    terminal.type("/start");
    await terminal.waitForOutput(
      /#2 @gift_test_bot: Hi Uma\n {4}\[1\] Stars {3}\[2\] Premium\n {4}\[3\] Docs ↗/,
    );
    terminal.type("#2");
    await terminal.waitForOutput(/\(toast\) picked premium/);
    await terminal.waitForOutput(/#2 @gift_test_bot \(edited\): You picked premium/);
    expect(emu.callbackAnswers.map((answer) => answer.userId)).toEqual([DEMO_USER.id]);

    terminal.type(":as admin");
    terminal.type(":group");
    await terminal.waitForOutput(/You are Ada \(id 1001\), in the group "Gift demo group"\./);
    terminal.type("/admins");
    await terminal.waitForOutput(/@gift_test_bot: admins: Ada/);
    expect(emu.chat(DEMO_GROUP.id).map((message) => [message.from.id, message.text])).toEqual([
      [DEMO_ADMIN.id, "/admins"],
      [emu.botInfo.id, "admins: Ada"],
    ]);

    terminal.type(":quit");
    expect(await terminal.exited).toBe(0);
  });
});
