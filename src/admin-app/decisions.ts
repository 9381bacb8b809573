/**
 * The API's writes: the same operations the chat's buttons call, with the same effects and the
 * chat's own words for the answer. Settling goes through the desk's admin door (the desk tells
 * the buyer and the admins' alerts), the pause through the same door, a giveaway through its
 * runner (whose progress edits the admin's message in the chat). Only the replica that holds
 * the sender lease acts: another would hold the breaker's pause in memory apart, or start a
 * giveaway's loop that its fence refuses; it answers 409 with a clear message instead.
 */
import type { AppUser } from "./init-data.js";
import type { AdminAppDeps } from "./types.js";

/** What a write answers: the HTTP status and a sentence in the admin's language. */
export interface WriteAnswer {
  status: number;
  ok: boolean;
  message: string;
}

export type GiveawayAction = "pause" | "resume" | "cancel";

export class AppDecisions {
  readonly #deps: AdminAppDeps;

  constructor(deps: AdminAppDeps) {
    this.#deps = deps;
  }

  /** Refused unless this replica sends purchases. */
  standby(locale: string): WriteAnswer | undefined {
    if (this.#deps.lease.holdsLease()) return undefined;
    return { status: 409, ok: false, message: this.#t(locale, "app-refused-standby") };
  }

  /** Delivered / Not delivered on an unknown outcome, as the chat's buttons do. */
  async settle(user: AppUser, locale: string, id: string, delivered: boolean) {
    const { desk, records } = this.#deps;
    const result = await desk.admin.resolve(id, user.id, delivered);
    if (!result.ok) {
      const intent = await records.getIntent(id);
      if (intent === undefined) return this.#answer(404, locale, "app-refused-not-found");
      const status = this.#t(locale, `status-${intent.status}`);
      return this.#answer(409, locale, "admin-resolved-already", { status });
    }
    const done = this.#t(
      locale,
      delivered ? "app-done-settled-delivered" : "app-done-settled-not-delivered",
    );
    if (result.unconfirmedLeft > 0) {
      return ok(
        `${done}\n${this.#t(locale, "admin-resolve-left", { count: result.unconfirmedLeft })}`,
      );
    }
    // The desk's settlement event tells the requester and those who met the hold (the bot
    // listens to it): nothing more to do here than to say what still holds purchases.
    const { paused } = await records.status();
    const next = paused ? "admin-resolve-resumed-paused" : "admin-resolve-resumed";
    return ok(`${done}\n${this.#t(locale, next)}`);
  }

  /** The kill switch, as /pause. */
  async pause(user: AppUser, locale: string): Promise<WriteAnswer> {
    await this.#deps.desk.admin.pause(user.id);
    return ok(this.#t(locale, "admin-paused"));
  }

  /** Lifts the pause (an admin's or the breaker's), as /resume. */
  async resume(user: AppUser, locale: string): Promise<WriteAnswer> {
    const { desk, records } = this.#deps;
    await desk.admin.resume(user.id);
    const { paused, unconfirmed } = await records.status();
    if (!paused && unconfirmed === 0) await this.#deps.purchasesReopened();
    return ok(
      unconfirmed > 0
        ? this.#t(locale, "admin-resumed-frozen", { count: unconfirmed })
        : this.#t(locale, "admin-resumed"),
    );
  }

  /** Pause, Resume or "Cancel the rest" on a giveaway, as its progress message's buttons. */
  async giveaway(locale: string, batchId: string, action: GiveawayAction): Promise<WriteAnswer> {
    const runner = this.#deps.giveaways;
    const state = await runner.state(batchId);
    if (state === undefined) return this.#answer(404, locale, "app-refused-not-found");
    switch (action) {
      case "pause":
        return this.#acted(locale, await runner.pause(batchId), "giveaway-paused");
      case "cancel":
        return this.#acted(locale, await runner.cancel(batchId), "giveaway-cancelled-rest");
      case "resume": {
        // As the chat's Resume: never a batch a restore stopped, and only while purchases are
        // open (else it would stop again at once).
        if (state.batch.stopReason === "restored") {
          return this.#answer(409, locale, "giveaway-resume-restored");
        }
        const { paused, unconfirmed } = await this.#deps.records.status();
        if (paused || unconfirmed > 0) return this.#answer(409, locale, "giveaway-resume-closed");
        return this.#acted(
          locale,
          (await runner.resume(batchId)) === "resumed",
          "giveaway-resumed",
        );
      }
    }
  }

  #acted(locale: string, acted: boolean, key: string): WriteAnswer {
    return acted ? ok(this.#t(locale, key)) : this.#answer(409, locale, "flow-button-inactive");
  }

  #answer(
    status: number,
    locale: string,
    key: string,
    variables?: Record<string, string | number>,
  ): WriteAnswer {
    return { status, ok: false, message: sentence(this.#t(locale, key, variables)) };
  }

  #t(locale: string, key: string, variables?: Record<string, string | number>): string {
    return this.#deps.texts.t(locale, key, variables);
  }
}

function ok(message: string): WriteAnswer {
  return { status: 200, ok: true, message };
}

/** A text that starts lower-case (a chat line's continuation) as a sentence. */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
