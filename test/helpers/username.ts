/** A {@link Username} for a fixture, through the one parser; a typo in a test fails loudly. */
import { parseUsername, type Username } from "../../src/gifts/username.js";

export function username(name: string): Username {
  const parsed = parseUsername(name);
  if (parsed === undefined) throw new Error(`not a username: ${name}`);
  return parsed;
}
