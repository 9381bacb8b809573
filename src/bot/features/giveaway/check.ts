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
}

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
    const check = await desk.checkRecipient(name, { userId: options.adminId, isAdmin: true });
    sortInto(result, name, check, options.kind);
    options.onChecked?.(index + 1, names.length);
  }
  return result;
}

function sortInto(
  result: CheckedRecipients,
  name: Username,
  check: Awaited<ReturnType<PurchaseDesk["checkRecipient"]>>,
  kind: GiftKind,
): void {
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
