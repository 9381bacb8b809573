import { onTestFinished } from "vitest";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../tools/sandbox/server.js";
import {
  createGiftServiceClient,
  type GiftServiceClientOptions,
} from "../../src/service/client.js";
import type { GiftServiceClientWithQuota } from "../../src/service/types.js";
export { capturingLogger } from "./log-capture.js";

export const CREDENTIALS = {
  mnemonic: "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima",
  cookie: "stel_ssid=test-session-id; stel_token=test-token",
};

/** A sandbox without quota unless asked, closed after the test. */
export async function sandboxForTest(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ quota: false, ...options });
  onTestFinished(() => sandbox.close());
  return sandbox;
}

/** A client of this sandbox, closed after the test (before the sandbox: hooks run in reverse). */
export function clientFor(
  sandbox: Sandbox,
  options: Partial<GiftServiceClientOptions> = {},
): GiftServiceClientWithQuota {
  const client = createGiftServiceClient({
    baseUrl: sandbox.url,
    credentials: CREDENTIALS,
    quota: { limit: 1000, windowMs: 60_000 },
    ...options,
  });
  onTestFinished(() => client.close());
  return client;
}

/** Headers as the sandbox saw them, without the ones the HTTP stack adds by itself. */
export function sentHeaders(headers: Record<string, string>): Record<string, string> {
  const { host: _host, connection: _connection, "content-length": _length, ...rest } = headers;
  return rest;
}
