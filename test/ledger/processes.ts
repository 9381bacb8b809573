/**
 * Child processes running the TypeScript fixtures under test/ledger/fixtures. Node itself runs
 * them with tsx as a loader (`--import tsx`), not the `tsx` command: that command is a wrapper
 * that starts a second node process, so its PID is not the process that claims, and killing it
 * would leave the claiming process running.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { onTestFinished } from "vitest";

const FIXTURES = join(process.cwd(), "test/ledger/fixtures");

/** Spawns a fixture; it is SIGKILLed (and waited for) when the test ends if it still runs. */
export function spawnFixture(script: string, args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ["--import", "tsx", join(FIXTURES, script), ...args], {
    stdio: "pipe",
  });
  const exited = once(child, "exit");
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
  });
  return child;
}

/** Resolves with the child's next stdout line; rejects if it exits first. */
export function nextLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  const lines = createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => {
      lines.close();
      reject(new Error(`fixture exited (${code}) before writing a line`));
    };
    lines.once("line", (line) => {
      child.off("exit", onExit);
      lines.close();
      resolve(line);
    });
    child.once("exit", onExit);
  });
}
