/**
 * Clean-up that runs when this process ends, however it ends: Ctrl-C (SIGINT), `timeout`
 * (SIGTERM) and a killed CI job end vitest (or the bench) without its teardown. A shell in a session
 * of its own (so the signal that ends this process does not reach it) reads a pipe from this
 * process until the kernel closes it, at this process's exit, then runs its clean-up. Nothing
 * else holds that pipe: Node opens it close-on-exec, so no process this one starts inherits it.
 */
import { spawn } from "node:child_process";

export interface ExitGuard {
  /** Lets the guard run its clean-up now and exit (after a normal clean-up it finds nothing). */
  release(): void;
}

/**
 * Runs the shell commands `cleanUp` (its arguments `$1`, `$2`... are `args`) once this process
 * has ended, or once {@link ExitGuard.release} is called. Output is discarded.
 */
export function guardExit(name: string, cleanUp: string, args: readonly string[]): ExitGuard {
  const script = `trap '' INT HUP; cat >/dev/null; ${cleanUp}`;
  const guard = spawn("sh", ["-c", script, name, ...args], {
    detached: true,
    stdio: ["pipe", "ignore", "ignore"],
  });
  // Neither the guard nor its pipe keeps this process alive.
  guard.unref();
  (guard.stdin as unknown as { unref(): void }).unref();
  return { release: () => guard.stdin.end() };
}
