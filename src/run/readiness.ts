/**
 * Whether the bot is taking updates, for `/readyz`: not while it starts (connecting, recovering
 * purchases a previous process left in flight), not once shutdown has begun (readiness goes
 * first, before anything closes), and not while Telegram cannot be reached.
 */
import type { TelegramState } from "./telegram-watch.js";

export type Phase = "starting" | "taking_updates" | "stopping";

export interface ReadinessReport {
  ready: boolean;
  phase: Phase;
  telegram: "reachable" | "unreachable" | "unknown";
}

export interface Readiness {
  set(phase: Phase): void;
  report(): ReadinessReport;
}

/** `telegram` is read on every report (the Telegram watch's state). */
export function trackReadiness(telegram: () => TelegramState): Readiness {
  let phase: Phase = "starting";
  return {
    // Stopping is final: a start that finishes after a signal does not make the bot ready.
    set: (next) => {
      if (phase !== "stopping") phase = next;
    },
    report: () => {
      const { reachable } = telegram();
      const link = reachable === undefined ? "unknown" : reachable ? "reachable" : "unreachable";
      return { ready: phase === "taking_updates" && reachable !== false, phase, telegram: link };
    },
  };
}
