import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { handleShutdownSignals } from "../../src/run/shutdown.js";

// SIGUSR2 stands in for SIGTERM so the test process itself is never asked to stop.
const signal = "SIGUSR2" as const;

function install(stop: () => Promise<void>, graceMs = 5_000) {
  const exits: number[] = [];
  let exited!: (code: number) => void;
  const firstExit = new Promise<number>((resolve) => (exited = resolve));
  const remove = handleShutdownSignals({
    stop,
    graceMs,
    logger: silentLogger,
    signals: [signal],
    exit: (code) => {
      exits.push(code);
      exited(code);
    },
  });
  return { exits, firstExit, remove };
}

describe("handleShutdownSignals", () => {
  it("waits for the work in flight, then exits 0", async () => {
    let release!: () => void;
    let stopCalled!: () => void;
    const stopStarted = new Promise<void>((resolve) => (stopCalled = resolve));
    const { exits, firstExit, remove } = install(() => {
      stopCalled();
      return new Promise<void>((resolve) => (release = resolve));
    });
    try {
      process.kill(process.pid, signal);
      await stopStarted;
      expect(exits).toEqual([]);
      release();
      expect(await firstExit).toBe(0);
    } finally {
      remove();
    }
  });

  it("exits at once on a second signal", async () => {
    let stopCalled!: () => void;
    const stopStarted = new Promise<void>((resolve) => (stopCalled = resolve));
    const { firstExit, remove } = install(() => {
      stopCalled();
      return new Promise<void>(() => {});
    });
    try {
      process.kill(process.pid, signal);
      await stopStarted;
      process.kill(process.pid, signal);
      expect(await firstExit).toBe(130);
    } finally {
      remove();
    }
  });

  it("gives up with exit code 1 when the grace period runs out", async () => {
    const { firstExit, remove } = install(() => new Promise<void>(() => {}), 20);
    try {
      process.kill(process.pid, signal);
      expect(await firstExit).toBe(1);
    } finally {
      remove();
    }
  });
});
