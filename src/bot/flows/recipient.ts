/**
 * What the bot says about a recipient the service could not take, in the private flow and in
 * groups. One mapping from the desk's answer to a text; the two audiences only word it
 * differently (a private flow asks for another username, a group points back at /premium).
 */
import type { Username } from "../../gifts/username.js";
import type { IntentKind } from "../../ledger/types.js";
import type { RecipientCheck } from "../../purchases/types.js";
import type { Translate } from "../context.js";
import type { Audience } from "../purchase-views.js";

type Problem = "has_premium" | Exclude<RecipientCheck["kind"], "ok">;

/** The locale key of each problem, per audience. */
const PROBLEM_TEXTS: Record<Audience, Record<Problem, string>> = {
  private: {
    has_premium: "flow-recipient-has-premium",
    invalid_username: "flow-recipient-invalid",
    not_found: "flow-recipient-not-found",
    refused: "flow-recipient-refused",
    rate_limited: "flow-recipient-rate-limited",
    unavailable: "flow-recipient-unavailable",
    throttled: "flow-recipient-throttled",
    superseded: "flow-recipient-superseded",
  },
  group: {
    has_premium: "group-recipient-has-premium",
    invalid_username: "group-usage",
    not_found: "group-recipient-not-found",
    refused: "group-recipient-unavailable",
    rate_limited: "group-recipient-busy",
    unavailable: "group-recipient-unavailable",
    throttled: "group-recipient-throttled",
    superseded: "group-recipient-superseded",
  },
};

/**
 * Why `check` (of the recipient the person named as `username`) stops a gift of `kind`, or
 * `undefined` when the recipient can be gifted. Premium cannot be gifted to someone who has it.
 */
export function recipientProblem(
  t: Translate,
  audience: Audience,
  kind: IntentKind,
  username: Username,
  check: RecipientCheck,
): string | undefined {
  if (check.kind === "ok") {
    if (kind !== "premium" || check.isPremium !== true) return undefined;
    return t(PROBLEM_TEXTS[audience].has_premium, { username: check.username });
  }
  return t(PROBLEM_TEXTS[audience][check.kind], {
    username,
    seconds:
      check.kind === "rate_limited" || check.kind === "throttled"
        ? Math.max(1, check.retryAfterSeconds)
        : 0,
  });
}
