/**
 * The emulator as a standalone process, for the demo and manual tries.
 * Settings: HOST (default 127.0.0.1), PORT (default 8082), EMULATOR_BOT_TOKEN (the token the bot
 * must use; default a fixed local-only token), EMULATOR_BOT_USERNAME. With EMULATOR_DEMO_PEOPLE=1
 * the demo admin, user and group are added at start. The token is never printed.
 */
import { TelegramEmulatorClient } from "./client.js";
import { setUpDemoPeople } from "./demo-people.js";
import { startTelegramEmulator } from "./server.js";

const rawPort = process.env.PORT ?? "";
const port = rawPort === "" ? 8082 : Number(rawPort);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write("PORT must be a port number\n");
  process.exit(2);
}
const token = process.env.EMULATOR_BOT_TOKEN;
const botUsername = process.env.EMULATOR_BOT_USERNAME;
const emulator = await startTelegramEmulator({
  host: process.env.HOST || "127.0.0.1",
  port,
  ...(token ? { token } : {}),
  ...(botUsername ? { botUsername } : {}),
});
if (process.env.EMULATOR_DEMO_PEOPLE === "1")
  await setUpDemoPeople(new TelegramEmulatorClient(emulator.url));
process.stdout.write(
  `Telegram Bot API emulator listening on ${emulator.url} (TELEGRAM_API_ROOT=${emulator.apiRoot})\n`,
);

let stopping = false;
const stop = (): void => {
  if (stopping) process.exit(1);
  stopping = true;
  emulator.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
