/**
 * Child processes of the bench: each phase that must be measured apart (the sandbox on its own
 * core, a bot process whose RSS is read, a fresh process that resumes a parked flow) runs as a
 * forked TypeScript module speaking one request and one reply over IPC.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";

/** A forked bench module, run through tsx with `gc()` exposed (memory is read after a GC). */
export function forkBenchModule(relativePath: string, env: NodeJS.ProcessEnv = {}): ChildProcess {
  const file = fileURLToPath(new URL(`../${relativePath}`, import.meta.url));
  return fork(file, [], {
    execArgv: ["--import", "tsx", "--expose-gc"],
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
}

/** Sends one message and resolves with the child's next message; rejects if it exits first. */
export function ask<T>(child: ChildProcess, message: unknown, timeoutMs = 120_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`the child did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (reply: unknown): void => {
      cleanup();
      const error = (reply as { error?: string }).error;
      if (error !== undefined) reject(new Error(`child failed: ${error}`));
      else resolve(reply as T);
    };
    const onExit = (code: number | null): void => {
      cleanup();
      reject(new Error(`the child exited (${code}) before answering`));
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
    };
    child.on("message", onMessage);
    child.once("exit", onExit);
    child.send(message as Parameters<ChildProcess["send"]>[0]);
  });
}

/** Waits for a child to end, killing it (by its own pid only) if it does not within `ms`. */
export function waitForExit(child: ChildProcess, ms = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Reads one IPC message in a child, answers it, and reports a failure as `{ error }`. */
export function serveOnce<Q, R>(handler: (request: Q) => Promise<R>): void {
  process.once("message", (request: Q) => {
    handler(request).then(
      (reply) => process.send?.(reply),
      (error: unknown) =>
        process.send?.({
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
    );
  });
}
