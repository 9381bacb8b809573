import { describe, expect, it } from "vitest";
import { postForm, sandboxForTest } from "../../helpers/sandbox.js";
import { chatOnStreams, startEmulator } from "./harness.js";

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

  it(":unknown-outcome lets recipient checks through and carries out the next purchase without answering", async () => {
    const emu = await startEmulator();
    const sandbox = await sandboxForTest();
    const chat = chatOnStreams(emu.url, sandbox.url);
    await chat.waitFor(/Type :help for commands\./);
    chat.type(":unknown-outcome");
    await chat.waitFor(/\(sandbox: the next purchase will go through, but its answer is lost/);

    const check = await fetch(`${sandbox.url}/get-user-info/?username=al_ice`);
    expect(check.status).toBe(200);
    await expect(
      postForm(`${sandbox.url}/buy-premium/`, { username: "al_ice", duration: "3" }),
    ).rejects.toThrow();
    expect(sandbox.getBalance().usdt).not.toBe("1000");
    // Only the next purchase: the one after it is answered.
    const next = await postForm(`${sandbox.url}/buy-stars/`, { username: "al_ice", amount: "50" });
    expect(next.status).toBe(200);
  });

  it("says so when no sandbox was given", async () => {
    const emu = await startEmulator();
    const chat = chatOnStreams(emu.url, undefined);
    await chat.waitFor(/Type :help for commands\./);
    chat.type(":expire-session");
    await chat.waitFor(/\(no sandbox: give the chat SANDBOX_URL/);
  });
});
