import { describe, expect, it } from "vitest";
import { CredentialHolder } from "../../src/service/credential-source.js";
import { GiftServiceConfigError } from "../../src/service/errors.js";
import { CREDENTIALS, clientFor, sandboxForTest } from "../helpers/service.js";

const MNEMONIC = Array.from(
  { length: 24 },
  (_, i) => `holderword${String(i).padStart(2, "0")}q`,
).join(" ");
const OLD = {
  mnemonic: MNEMONIC,
  cookie: "stel_ssid=OldHolderSsid111",
  proxy: "http://u:OldProxyPass@p:1",
};
const NEW = { mnemonic: MNEMONIC, cookie: "stel_ssid=NewHolderSsid222" };

describe("CredentialHolder", () => {
  it("hands out the newest credentials, and scrubs the old and the new ones alike", () => {
    const holder = new CredentialHolder(OLD);
    expect(holder.current().cookie).toBe(OLD.cookie);
    holder.replace(NEW);
    expect(holder.current()).toEqual(NEW);
    const text = holder
      .scrubber()
      .text("late echo: OldHolderSsid111 OldProxyPass / now NewHolderSsid222");
    expect(text).not.toMatch(/OldHolderSsid111|OldProxyPass|NewHolderSsid222/);
  });

  it("keeps the old credentials when the new ones cannot be sent as headers, naming no value", () => {
    const holder = new CredentialHolder(OLD);
    const bad = { ...NEW, cookie: "stel_ssid=Broken\r\nX-Injected: 1" };
    expect(() => holder.replace(bad)).toThrow(GiftServiceConfigError);
    expect(() => holder.replace(bad)).toThrow(/credential cookie/);
    expect(() => holder.replace({ ...NEW, cookie: " " })).toThrow(/cookie is empty/);
    expect(holder.current().cookie).toBe(OLD.cookie);
    let refusal: unknown;
    try {
      holder.replace(bad);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GiftServiceConfigError);
    expect(String(refusal)).not.toContain("Broken");
  });
});

/** A promise resolved by the first call of `fire`. */
function signal(): { fire: () => void; fired: Promise<void> } {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fire, fired };
}

describe("credentials rotated while a purchase waits in the quota", () => {
  it("the purchase goes out with the cookie current when it is sent, not when it was asked", async () => {
    const sandbox = await sandboxForTest();
    const holder = new CredentialHolder({ ...CREDENTIALS, cookie: "stel_ssid=BeforeTheHold1" });
    const client = clientFor(sandbox, { credentials: holder });
    // A 429 with a short Retry-After holds every later request of the client.
    sandbox.injectFault({
      type: "status",
      status: 429,
      body: { ok: false, error: "FLOOD_WAIT" },
      headers: { "retry-after": "1" },
    });
    const held = signal();
    const read = client.getUserInfo("alice_1", { onQueued: held.fire });
    // The read's retry waits for the hold: so will the purchase asked now.
    await held.fired;
    const queued = signal();
    const purchase = client.buyStars(
      { username: "alice_1", amount: 50, paymentMethod: "ton" },
      { onQueued: queued.fire },
    );
    await queued.fired;
    holder.replace({ ...CREDENTIALS, cookie: "stel_ssid=RotatedMeanwhile2" });
    expect(await purchase).toMatchObject({ kind: "success" });
    expect(await read).toMatchObject({ kind: "success" });
    expect(sandbox.purchaseRequests().map((r) => r.headers.cookie)).toEqual([
      "stel_ssid=RotatedMeanwhile2",
    ]);
  });
});
