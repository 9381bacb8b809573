import { describe, expect, it } from "vitest";
import { CredentialHolder } from "../../src/service/credential-source.js";
import { GiftServiceConfigError } from "../../src/service/errors.js";

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
    try {
      holder.replace(bad);
    } catch (error) {
      expect(String(error)).not.toContain("Broken");
    }
  });
});
