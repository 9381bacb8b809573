/**
 * Intent ids: random and unguessable, since they travel in callback data. Every store makes
 * them the same way.
 */
import { randomBytes } from "node:crypto";

/**
 * A new random, unguessable intent id: 16 bytes, base64url (22 characters), never starting
 * with "-": a spreadsheet reads such a cell as a formula, so the accountant's export would
 * have to mark it (`'-...`) and the id in the file would no longer be the id.
 */
export function newIntentId(): string {
  for (;;) {
    const id = randomBytes(16).toString("base64url");
    if (!id.startsWith("-")) return id;
  }
}
