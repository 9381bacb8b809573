/**
 * Error classes of the emulator. `BotApiError` is what the bot sees (Telegram's error answer);
 * the others are for whoever drives the emulator (tests, the terminal chat).
 */

/** A Bot API refusal, answered as `{ ok: false, error_code, description }` with that HTTP status. */
export class BotApiError extends Error {
  constructor(
    readonly errorCode: number,
    readonly description: string,
    /** Telegram's `parameters`, e.g. `{ retry_after }` on 429. */
    readonly parameters?: { retry_after?: number },
  ) {
    super(description);
    this.name = "BotApiError";
  }
}

/** Shorthand for Telegram's most common refusal, "400 Bad Request: ...". */
export function badRequest(reason: string): BotApiError {
  return new BotApiError(400, `Bad Request: ${reason}`);
}

/** A control action that cannot happen (unknown user, message, button, ...). */
export class EmulatorControlError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = "EmulatorControlError";
  }
}

/** A wait that passed its bound without seeing what it waited for. */
export class EmulatorTimeoutError extends Error {
  /** Without `timeoutMs`, `what` is the whole message (as relayed from the server). */
  constructor(what: string, timeoutMs?: number) {
    super(timeoutMs === undefined ? what : `Timed out after ${timeoutMs} ms waiting for ${what}`);
    this.name = "EmulatorTimeoutError";
  }
}

/** The emulator was closed while something still waited on it. */
export class EmulatorClosedError extends Error {
  constructor() {
    super("The Telegram emulator was closed");
    this.name = "EmulatorClosedError";
  }
}
