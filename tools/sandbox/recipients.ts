/**
 * Who exists in the simulated messenger and who already has Premium. By default everyone exists
 * except usernames starting with "nobody", and usernames starting with "premium" already have
 * Premium, so tests get every recipient case without set-up; `set` overrides one person.
 */
import type { SandboxUser } from "./types.js";

/** The service's form of a username: without "@", lower-case. */
export function normaliseUsername(username: string): string {
  return username.replace(/^@/, "").toLowerCase();
}

export class Recipients {
  private readonly overrides = new Map<string, SandboxUser>();

  /** The recipient's state: the overrides set for them, else the defaults of their name. */
  get(username: string): Required<SandboxUser> {
    const key = normaliseUsername(username);
    const set = this.overrides.get(key) ?? {};
    return {
      exists: set.exists ?? !key.startsWith("nobody"),
      isPremium: set.isPremium ?? key.startsWith("premium"),
    };
  }

  /** Overrides the given fields of one recipient; the others keep their value. */
  set(username: string, user: SandboxUser): void {
    const key = normaliseUsername(username);
    this.overrides.set(key, { ...this.overrides.get(key), ...user });
  }

  clear(): void {
    this.overrides.clear();
  }
}
