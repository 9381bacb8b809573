/**
 * Whether the bot is taking updates, for `/readyz`: not while it starts (connecting, recovering
 * purchases a previous process left in flight), not once shutdown has begun (readiness goes
 * first, before anything closes), and not while Telegram cannot be reached.
 */
import type { TelegramState } from "./telegram-watch.js";

/**
 * `standby`: another process holds the sender lease (a rolling deploy's old one); this one takes
 * over when it is released or expires. Reported ready (200), so an orchestrator goes on with the
 * rollout and stops the old process, which is what hands the lease over.
 */
type Phase = "starting" | "standby" | "taking_updates" | "stopping";

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
      const serving = phase === "taking_updates" || phase === "standby";
      return { ready: serving && reachable !== false, phase, telegram: link };
    },
  };
}
