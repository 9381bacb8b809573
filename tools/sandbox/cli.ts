/**
 * `npm run sandbox`: the simulator as a standalone process for the demo and manual tries.
 * Settings: HOST (default 127.0.0.1), PORT (default 8081), SANDBOX_QUOTA_PER_MINUTE (default 30,
 * 0 lifts the quota). Logs one line per request, never header values.
 */
import { startSandbox } from "./server.js";

function readInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    process.stderr.write(`${name} must be a non-negative integer\n`);
    process.exit(2);
  }
  return value;
}

const port = readInteger("PORT", 8081);
const perMinute = readInteger("SANDBOX_QUOTA_PER_MINUTE", 30);
const sandbox = await startSandbox({
  host: process.env.HOST || "127.0.0.1",
  port,
  quota: perMinute === 0 ? false : { limit: perMinute, windowMs: 60_000 },
  log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
});
process.stdout.write(`Gift Purchase Service sandbox listening on ${sandbox.url}\n`);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
