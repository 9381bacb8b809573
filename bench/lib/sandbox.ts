/**
 * The parent's handle on the sandbox child (bench/sandbox-child.ts): its URL, and the list of
 * answers it gave (time, path, status) for counting 429s and quota use.
 */
import type { ChildProcess } from "node:child_process";
import { ask, forkBenchModule, waitForExit } from "./child.js";

/** One answer the sandbox gave. `status` is "dropped" for a destroyed socket. */
export interface SandboxAnswer {
  at: number;
  path: string;
  status: string;
}

export type SandboxChildRequest =
  | { type: "start"; quota: { limit: number; windowMs: number } | false }
  | { type: "answers" }
  | { type: "usernames" }
  | { type: "clear" }
  | { type: "close" };

export type SandboxChildReply =
  | { type: "ready"; url: string }
  | { type: "answers"; answers: SandboxAnswer[] }
  | { type: "usernames"; usernames: string[] }
  | { type: "cleared" }
  | { type: "closed" }
  | { error: string };

export interface BenchSandbox {
  url: string;
  answers(): Promise<SandboxAnswer[]>;
  /** The username of every request that named one (checks and purchases), in arrival order. */
  usernames(): Promise<string[]>;
  clear(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the sandbox in its own process on 127.0.0.1 (any free port). */
export async function startSandboxProcess(
  quota: { limit: number; windowMs: number } | false,
): Promise<BenchSandbox> {
  const child: ChildProcess = forkBenchModule("sandbox-child.ts");
  const ready = await ask<{ url: string }>(child, { type: "start", quota });
  return {
    url: ready.url,
    answers: async () =>
      (await ask<{ answers: SandboxAnswer[] }>(child, { type: "answers" })).answers,
    usernames: async () =>
      (await ask<{ usernames: string[] }>(child, { type: "usernames" })).usernames,
    clear: async () => {
      await ask(child, { type: "clear" });
    },
    close: async () => {
      if (child.connected) await ask(child, { type: "close" }).catch(() => undefined);
      await waitForExit(child);
    },
  };
}
