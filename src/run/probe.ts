/**
 * The container's health check: `node dist/src/run/probe.js /livez` asks the bot's own health
 * server and exits 0 when it answers 200, 1 otherwise (or after 4 s). The image has no curl,
 * and this reads the same settings as the bot: HEALTH_PORT, else PORT (webhook mode serves the
 * probes on the webhook's port), on 127.0.0.1 since the bot listens on every interface inside.
 *
 * It imports nothing from the bot: it runs every 30 seconds and must start fast.
 */
import { get } from "node:http";

const path = process.argv[2] ?? "/livez";
const port = Number(process.env.HEALTH_PORT || process.env.PORT || 8080);

const request = get({ host: "127.0.0.1", port, path, timeout: 4000 }, (response) => {
  response.resume();
  process.exitCode = response.statusCode === 200 ? 0 : 1;
  if (process.exitCode !== 0) process.stderr.write(`${path}: ${response.statusCode}\n`);
});
request.on("timeout", () => request.destroy(new Error("no answer within 4 s")));
request.on("error", (error) => {
  process.stderr.write(`${path}: ${error.message}\n`);
  process.exitCode = 1;
});
