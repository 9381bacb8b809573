/**
 * Which recipient check of each owner is the latest one sent with `replace`
 * (docs/service-contract.md §6). The scheduler supersedes an owner's older checks while they
 * are queued; this covers the one case it cannot see: an older check that was in flight when
 * the newer came, answered 429/503, and would go back in line for a retry. Only owners with a
 * check in progress are remembered.
 */
import type { Owner } from "./quota.js";

/** One check in progress. */
export interface CheckTicket {
  readonly key: string;
}

export class LatestChecks {
  private readonly owners = new Map<string, { latest: CheckTicket; active: number }>();

  /** Registers a new check of this owner; it is now their latest. */
  begin(owner: Owner): CheckTicket {
    const ticket: CheckTicket = { key: String(owner) };
    const entry = this.owners.get(ticket.key);
    if (entry) {
      entry.latest = ticket;
      entry.active++;
    } else {
      this.owners.set(ticket.key, { latest: ticket, active: 1 });
    }
    return ticket;
  }

  /** Whether a newer check of the same owner has begun since this one. */
  isSuperseded(ticket: CheckTicket): boolean {
    const entry = this.owners.get(ticket.key);
    return entry !== undefined && entry.latest !== ticket;
  }

  /** The check ended (any outcome); the owner is forgotten once none is in progress. */
  end(ticket: CheckTicket): void {
    const entry = this.owners.get(ticket.key);
    if (!entry) return;
    entry.active--;
    if (entry.active <= 0) this.owners.delete(ticket.key);
  }
}
