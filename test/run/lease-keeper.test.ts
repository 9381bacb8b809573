/**
 * Whose lease may be taken before its expiry: only a holder on this host whose process is gone.
 */
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { isDeadHereOwner, leaseOwnerId } from "../../src/run/lease-keeper.js";

describe("a lease holder known to be gone", () => {
  it("is one on this host whose pid no process has, or has this very process's pid", () => {
    const exited = spawnSync(process.execPath, ["-e", "0"]).pid;
    expect(isDeadHereOwner(`${hostname()}:${exited}:abcd`)).toBe(true);
    expect(isDeadHereOwner(`${hostname()}:${process.pid}:abcd`)).toBe(true);
  });

  it("is never a live process, another host's, or an owner id it cannot read", () => {
    expect(isDeadHereOwner(`${hostname()}:${process.ppid}:abcd`)).toBe(false);
    expect(isDeadHereOwner(`another-host:${process.pid}:abcd`)).toBe(false);
    expect(isDeadHereOwner("garbage")).toBe(false);
    expect(leaseOwnerId()).toMatch(new RegExp(`^${hostname()}:${process.pid}:[0-9a-f]{8}$`));
  });
});
