/**
 * Whose lease may be taken before its expiry: only a holder whose process is certainly gone,
 * judged on this boot and in this PID namespace (src/run/lease-owner.ts).
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { hostname } from "node:os";
import { describe, expect, it, onTestFinished } from "vitest";
import { fileURLToPath } from "node:url";
import { isDeadHereOwner, leaseOwnerId } from "../../src/run/lease-owner.js";

const FIXTURE = fileURLToPath(new URL("fixtures/print-lease-owner.ts", import.meta.url));

/** This process's owner id split into host, pid, random, boot, namespace and start time. */
function ownParts(): string[] {
  const parts = leaseOwnerId().split(":");
  expect(parts).toHaveLength(6);
  return parts;
}

/** An owner id like this process's, with some parts replaced. */
function ownerLikeMine(replace: {
  pid?: number;
  namespace?: string;
  start?: string;
  boot?: string;
}) {
  const [host, pid, random, boot, namespace, start] = ownParts();
  return [
    host,
    replace.pid ?? pid,
    random,
    replace.boot ?? boot,
    replace.namespace ?? namespace,
    replace.start ?? start,
  ].join(":");
}

/** The owner id a child node process gives itself; the child runs until the test ends. */
async function liveChildOwner(): Promise<string> {
  // tsx as a loader (not the `tsx` command, a wrapper): the child's pid is the process itself.
  const child = spawn(process.execPath, ["--import", "tsx", FIXTURE], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
  });
  const [line] = (await once(child.stdout, "data")) as [Buffer];
  return line.toString().trim();
}

describe("a lease owner id", () => {
  it("names the host and pid for an operator, and the boot, PID namespace and start time that judge it", () => {
    const [host, pid, random, boot, namespace, start] = ownParts();
    expect(host).toBe(hostname());
    expect(pid).toBe(String(process.pid));
    expect(random).toMatch(/^[0-9a-f]{8}$/);
    expect(boot).toMatch(/^[0-9a-f-]{36}$/);
    expect(namespace).toMatch(/^\d+$/);
    expect(start).toMatch(/^\d+$/);
  });
});

describe("a lease holder known to be gone", () => {
  it("is one in this PID namespace whose pid no process has now", () => {
    const exited = spawnSync(process.execPath, ["-e", "0"]).pid;
    expect(isDeadHereOwner(ownerLikeMine({ pid: exited }))).toBe(true);
  });

  it("is one whose pid a process started at another time has now (this one included)", () => {
    expect(isDeadHereOwner(ownerLikeMine({ start: "1" }))).toBe(true);
  });

  it("is never a live process: this one, or another one here", async () => {
    expect(isDeadHereOwner(leaseOwnerId())).toBe(false);
    expect(isDeadHereOwner(await liveChildOwner())).toBe(false);
  });

  it("is never a process in another container with the same host name, even with this pid (both PID 1)", () => {
    // Another PID namespace on the same kernel: its PID 1 is not this process, and nothing
    // here can see whether it runs.
    const otherContainer = ownerLikeMine({ namespace: "4026599999", start: "12345" });
    expect(isDeadHereOwner(otherContainer)).toBe(false);
    // The same seen from a process whose own pid is not 1: still another namespace.
    expect(isDeadHereOwner(ownerLikeMine({ pid: 1, namespace: "4026599999" }))).toBe(false);
  });

  it("is never one of another boot or host, nor an owner id without a mark or unreadable", () => {
    const exited = spawnSync(process.execPath, ["-e", "0"]).pid;
    const otherBoot = "00000000-0000-0000-0000-000000000000";
    expect(isDeadHereOwner(ownerLikeMine({ pid: exited, boot: otherBoot }))).toBe(false);
    const [, ...rest] = ownerLikeMine({ pid: exited }).split(":");
    expect(isDeadHereOwner(["another-host", ...rest].join(":"))).toBe(false);
    // The form of earlier versions (host, pid, random): nothing to judge it by.
    expect(isDeadHereOwner(`${hostname()}:${exited}:abcd`)).toBe(false);
    expect(isDeadHereOwner(`${hostname()}:${process.pid}:abcd`)).toBe(false);
    expect(isDeadHereOwner("garbage")).toBe(false);
  });
});
