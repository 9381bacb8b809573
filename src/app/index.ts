/** The composition root's public surface: `main` and the end-to-end tests build the bot here. */
export type { App, AppOverrides } from "./types.js";
export { DatabaseUnreachableError, openApp } from "./open.js";
export { trackUpdates, type UpdateTracker } from "./in-flight.js";
export { tellRequestersOutcomeUnknown } from "./recovered.js";
export { DatabaseDamagedError, DatabaseTooNewError } from "../storage/sqlite/errors.js";
export { DatabaseLockedError } from "../storage/sqlite/file-lock.js";
