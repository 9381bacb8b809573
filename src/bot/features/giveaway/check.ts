/**
 * A giveaway's recipients checked with the service before the admin confirms: who can receive
 * the gift, who already has Premium (a Premium gift to them would be refused), who does not
 * exist, and who could not be checked now (the service busy or unreachable: checked again at
 * the purchase, never guessed). One check at a time through the desk, as the admin's own checks:
 * the quota and its fair share apply, and a person's own check never replaces another of theirs.
 */
import type { GiftKind } from "../../../gifts/catalogue.js";
import type { Username } from "../../../gifts/username.js";
import type { PurchaseDesk } from "../../../purchases/types.js";

export interface CheckedRecipients {
  canReceive: Username[];
  /** Only for a Premium giveaway: these already have Premium. */
  hasPremium: Username[];
  notFound: Username[];
  /** Not checked (the service busy or unreachable). */
  unchecked: Username[];
}

export interface CheckOptions {
  kind: GiftKind;
  /** The admin running the giveaway (the checks are charged to them, as admin). */
  adminId: number;
  /** Told after each check, for the progress message. */
  onChecked?: (done: number, total: number) => void;
  /** Asked before each check: true stops the checks (the admin cancelled). */
  stopped?: () => boolean;
  /**
   * Waits `ms` (resolving early once stopped). Given, a check the service or the admin's
   * allowance put off (429, CHECKS_PER_USER_MINUTE) or a newer check of the admin's replaced
   * is asked again after the wait it names, up to {@link MAX_TRIES_PER_NAME} times; without
   * it, that name is left unchecked at once.
   */
  wait?: (ms: number) => Promise<void>;
}

/** How often one name is asked at most when the answer is "not now". */
const MAX_TRIES_PER_NAME = 4;

export async function checkRecipients(
  desk: Pick<PurchaseDesk, "checkRecipient">,
  names: readonly Username[],
  options: CheckOptions,
): Promise<CheckedRecipients> {
  const result: CheckedRecipients = { canReceive: [], hasPremium: [], notFound: [], unchecked: [] };
  for (const [index, name] of names.entries()) {
    if (options.stopped?.() === true) {
      result.unchecked.push(...names.slice(index));
      break;
    }
    const check = await checkOne(desk, name, options);
    sortInto(result, name, check, options.kind);
    options.onChecked?.(index + 1, names.length);
  }
  return result;
}

type Check = Awaited<ReturnType<PurchaseDesk["checkRecipient"]>>;

/** One name, asked again after the wait a "not now" answer names (see {@link CheckOptions.wait}). */
async function checkOne(
  desk: Pick<PurchaseDesk, "checkRecipient">,
  name: Username,
  options: CheckOptions,
): Promise<Check> {
  for (let tries = 1; ; tries++) {
    const check = await desk.checkRecipient(name, { userId: options.adminId, isAdmin: true });
    const waitMs = retryAfterMs(check);
    if (waitMs === undefined || options.wait === undefined || tries >= MAX_TRIES_PER_NAME) {
      return check;
    }
    await options.wait(waitMs);
    if (options.stopped?.() === true) return check;
  }
}

/** How long to wait before asking again, or undefined when the answer is final. */
function retryAfterMs(check: Check): number | undefined {
  if (check.kind === "rate_limited" || check.kind === "throttled") {
    return Math.max(1, check.retryAfterSeconds) * 1000;
  }
  return check.kind === "superseded" ? 0 : undefined;
}

function sortInto(result: CheckedRecipients, name: Username, check: Check, kind: GiftKind): void {
  switch (check.kind) {
    case "ok":
      // A premium holder can still receive stars; unknown premium is checked again at the claim.
      if (kind === "premium" && check.isPremium === true) result.hasPremium.push(check.username);
      else result.canReceive.push(check.username);
      return;
    case "not_found":
    case "invalid_username":
      result.notFound.push(name);
      return;
    default:
      result.unchecked.push(name);
  }
}
