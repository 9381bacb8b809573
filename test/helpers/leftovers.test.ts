import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it, onTestFinished } from "vitest";
import { processesOfRun, RUN_MARKER } from "./leftovers.js";

describe("the test run's leftover check", () => {
  it.skipIf(process.platform !== "linux")(
    "finds a process carrying the run's marker until it is gone",
    async () => {
      const marker = `${RUN_MARKER}=leftover-check-${process.pid}`;
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 60_000)"], {
        env: { PATH: process.env.PATH ?? "", [RUN_MARKER]: marker.split("=")[1] ?? "" },
        stdio: "ignore",
      });
      const exited = once(child, "exit");
      onTestFinished(async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill("SIGKILL");
          await exited;
        }
      });
      await once(child, "spawn");
      // As seen from the vitest process (this worker's parent): the worker is its child, so
      // not counted; the worker's child is. Other tests' processes running from this checkout
      // at the same moment are found too, so only this child's presence is asserted.
      const pids = (before: Set<number>) =>
        processesOfRun(marker, before, process.ppid).map((p) => p.pid);
      expect(pids(new Set())).toContain(child.pid);
      expect(pids(new Set())).not.toContain(process.pid);
      expect(pids(new Set([child.pid ?? 0]))).not.toContain(child.pid);
      child.kill("SIGKILL");
      await exited;
      expect(pids(new Set())).not.toContain(child.pid);
    },
  );
});
