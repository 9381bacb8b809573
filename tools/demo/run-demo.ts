/**
 * `npm run demo`: the whole bot on one machine, without Telegram and without money. Starts the
 * demo's world (see demo.ts), then a terminal chat in the foreground. `:quit`, Ctrl-C or the end
 * of input stops the bot (SIGTERM, so it shuts down as in production), the emulator and the
 * sandbox, and removes the temporary folder.
 */
import { DEMO_ADMIN, DEMO_USER } from "../telegram-emulator/demo-people.js";
import { runTerminalChat } from "../telegram-emulator/terminal-chat.js";
import { type Demo, startDemo } from "./demo.js";

const GUIDE = [
  "",
  "The demo is running: the real bot, a local Telegram and a sandbox service. No money moves.",
  `You are ${DEMO_USER.first_name}, an allowed buyer. The README's walkthrough, in short:`,
  "  /start        then #1 presses button 1 of the bot's latest message that has buttons",
  '  alice_friend  a recipient; then #7 "Another amount" (#1 to #6 are presets) and a number',
  "  /premium      gift Telegram Premium (usernames starting with 'premium' already have it)",
  "  :as admin     become the admin (/balance, /purchases, /pending, /export); here admins",
  "                skip the per-person limits (LIMITS_EXEMPT_ADMINS=true, see docs/demo.md)",
  "  /giveaway     #2 Premium, #1 3 months, then :file tools/demo/giveaway-list.csv (or a list",
  "                in a message); #1 on the card confirms",
  "  :group        the demo group (as the admin: /premium @uma_user gifts a member)",
  "  :unknown-outcome   the next purchase's answer is lost: as the admin, settle it in /pending",
  "  :expire-session   the service's marketplace session expires (:restore-session mends it)",
  "  :help         every terminal command;   :quit to leave",
  "",
].join("\n");

async function runDemo(): Promise<number> {
  let demo: Demo | undefined;
  // Last resort if this process dies unexpectedly: the bot runs in its own process group.
  process.on("exit", () => {
    if (demo?.bot.exitCode === null) demo.bot.kill("SIGKILL");
  });
  let interrupted: (() => void) | undefined;
  const signalled = new Promise<void>((resolve) => {
    interrupted = resolve;
  });
  process.on("SIGINT", () => interrupted?.());
  process.on("SIGTERM", () => interrupted?.());

  process.stdout.write("Starting the demo: sandbox service, Telegram emulator, bot…\n");
  try {
    demo = await startDemo();
  } catch (error) {
    process.stderr.write(`The demo could not start: ${message(error)}\n`);
    return 1;
  }
  try {
    process.stdout.write(
      `${GUIDE}Bot logs: ${demo.logFile}\nFiles the bot sends (/export): ${demo.filesDir}\n` +
        `The admin app, as ${DEMO_ADMIN.first_name}, in your browser (docs/admin-app.md):\n${demo.adminAppLink}\n` +
        "(both removed when you quit: copy what you want to keep)\n\n",
    );
    const ended = await Promise.race([
      runTerminalChat({ url: demo.emulator.url, sandboxUrl: demo.sandbox.url }).then(
        () => "quit" as const,
      ),
      signalled.then(() => "signal" as const),
      demo.botExited.then(() => "bot" as const),
    ]);
    if (ended === "bot") {
      process.stderr.write(
        `\nThe bot stopped unexpectedly. Its last log lines:\n${demo.logTail()}\n`,
      );
      return 1;
    }
    process.stdout.write("\nStopping the demo…\n");
    return 0;
  } finally {
    await demo.stop();
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

runDemo().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`The demo failed: ${message(error)}\n`);
    process.exit(1);
  },
);
