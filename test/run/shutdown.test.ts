import pino from "pino";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/shared/logger.js";
import { exitAfterLogs, handleShutdownSignals } from "../../src/run/shutdown.js";

// SIGUSR2 stands in for SIGTERM so the test process itself is never asked to stop.
const signal = "SIGUSR2" as const;

function install(stop: () => Promise<void>, graceMs = 5_000, clock = { now: 0 }) {
  const exits: number[] = [];
  let exited!: (code: number) => void;
  const firstExit = new Promise<number>((resolve) => (exited = resolve));
  const remove = handleShutdownSignals({
    stop,
    graceMs,
    logger: silentLogger,
    signals: [signal],
    now: () => clock.now,
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
    const clock = { now: 1_000_000 };
    const { firstExit, remove } = install(
      () => {
        stopCalled();
        return new Promise<void>(() => {});
      },
      5_000,
      clock,
    );
    try {
      process.kill(process.pid, signal);
      await stopStarted;
      clock.now += 1_500;
      process.kill(process.pid, signal);
      expect(await firstExit).toBe(130);
    } finally {
      remove();
    }
  });

  it("takes the same signal again within a second as the same stop (Ctrl-C reaches the bot and npm, which forwards it)", async () => {
    let release!: () => void;
    let stopCalled!: () => void;
    const stopStarted = new Promise<void>((resolve) => (stopCalled = resolve));
    const clock = { now: 1_000_000 };
    const { exits, firstExit, remove } = install(
      () => {
        stopCalled();
        return new Promise<void>((resolve) => (release = resolve));
      },
      5_000,
      clock,
    );
    try {
      process.kill(process.pid, signal);
      await stopStarted;
      clock.now += 7;
      // Listeners run in the order they were added: this one, after the handler's, says it ran.
      const repeatSeen = new Promise((resolve) => process.once(signal, resolve));
      process.kill(process.pid, signal);
      await repeatSeen;
      expect(exits).toEqual([]);
      release();
      expect(await firstExit).toBe(0);
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

describe("exitAfterLogs", () => {
  it("exits only once the logger's destination has written every line", async () => {
    const lines: string[] = [];
    let release!: () => void;
    const destination = {
      write: (line: string) => void lines.push(line),
      // The destination answers a flush only when the test lets it, as a slow stdout would.
      flush: (done: () => void) => {
        release = done;
      },
    };
    const logger = pino({ level: "info" }, destination);
    const exits: number[] = [];
    let exited!: () => void;
    const exitedNow = new Promise<void>((resolve) => (exited = resolve));
    logger.info("stopped cleanly");
    exitAfterLogs(logger, 0, (code) => {
      exits.push(code);
      exited();
    });
    await Promise.resolve();
    expect(exits).toEqual([]);
    release();
    await exitedNow;
    expect(exits).toEqual([0]);
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(["stopped cleanly"]);
  });
});
