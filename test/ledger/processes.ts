/** Child processes running the TypeScript fixtures under test/ledger/fixtures through tsx. */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { onTestFinished } from "vitest";

const TSX = join(process.cwd(), "node_modules/.bin/tsx");
const FIXTURES = join(process.cwd(), "test/ledger/fixtures");

/** Spawns a fixture; it is SIGKILLed when the test ends if it still runs. */
export function spawnFixture(script: string, args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(TSX, [join(FIXTURES, script), ...args], { stdio: "pipe" });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
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
