import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { runTerminalChat } from "../../../tools/telegram-emulator/terminal-chat.js";
import { postForm, sandboxForTest } from "../sandbox/helpers.js";
import { onCleanup, startEmulator } from "./harness.js";

/** The terminal chat in this process, on streams, with event-based waits on its output. */
function chatOnStreams(url: string, sandboxUrl: string | undefined) {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = "";
  const listeners = new Set<() => void>();
  output.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    for (const listener of [...listeners]) listener();
  });
  const done = runTerminalChat({ url, sandboxUrl, input, output });
  onCleanup(async () => {
    input.end();
    await done;
  });
  const waitFor = (pattern: RegExp): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (!pattern.test(text)) return;
        listeners.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`no ${pattern} in terminal output:\n${text}`));
      }, 8_000);
      listeners.add(check);
      check();
    });
  return { type: (line: string) => input.write(`${line}\n`), waitFor };
}

describe("terminal chat: steering the sandbox", () => {
  it("expires and restores the marketplace session, drains and refills the wallet; :help lists them", async () => {
    const emu = await startEmulator();
    const sandbox = await sandboxForTest();
    const chat = chatOnStreams(emu.url, sandbox.url);
    await chat.waitFor(/Type :help for commands\./);

    chat.type(":help");
    await chat.waitFor(/:expire-session .*\n {2}:restore-session /);
    chat.type(":expire-session");
    await chat.waitFor(/\(sandbox: the marketplace session expired/);
    expect(sandbox.sessionExpired()).toBe(true);
    const refused = await postForm(`${sandbox.url}/buy-stars/`, {
      username: "al_ice",
      amount: "50",
    });
    expect(await refused.json()).toMatchObject({ error: "SESSION_EXPIRED" });

    chat.type(":restore-session");
    await chat.waitFor(/\(sandbox: the marketplace session is valid again\)/);
    expect(sandbox.sessionExpired()).toBe(false);
    const served = await postForm(`${sandbox.url}/buy-stars/`, {
      username: "al_ice",
      amount: "50",
    });
    expect(served.status).toBe(200);

    chat.type(":drain-wallet");
    await chat.waitFor(/\(sandbox: the wallet is empty/);
    expect(sandbox.getBalance()).toEqual({ ton: "0", usdt: "0" });
    chat.type(":refill-wallet");
    await chat.waitFor(/\(sandbox: the wallet has its starting balance again\)/);
    expect(sandbox.getBalance()).toEqual({ ton: "100", usdt: "1000" });
  });

  it("says so when no sandbox was given", async () => {
    const emu = await startEmulator();
    const chat = chatOnStreams(emu.url, undefined);
    await chat.waitFor(/Type :help for commands\./);
    chat.type(":expire-session");
    await chat.waitFor(/\(no sandbox: give the chat SANDBOX_URL/);
  });
});
