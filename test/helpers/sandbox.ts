import { onTestFinished } from "vitest";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../tools/sandbox/server.js";

/** A sandbox closed when the current test finishes. */
export async function sandboxForTest(options?: SandboxOptions): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  onTestFinished(() => sandbox.close());
  return sandbox;
}

/** Fake but well-formed credentials: 12 words and a cookie with stel_ssid. */
export const MNEMONIC = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima";
export const COOKIE = "stel_ssid=sandbox-session; stel_token=x";

/** A POST of a form to a purchase endpoint with valid credentials unless overridden. */
export function postForm(
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      mnemonic: MNEMONIC,
      cookie: COOKIE,
      ...headers,
    },
    body: new URLSearchParams(form).toString(),
  });
}
