/**
 * A URL may carry `user:password@`. A password is a secret like any other: what is logged or
 * shown is the URL without it.
 */

/** Whether `url` names a user or a password (an unreadable URL names none). */
export function hasCredentials(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.username !== "" || parsed.password !== "";
}

/** `url` with its user and password taken out, and no trailing slash added. */
export function withoutCredentials(url: string): string {
  if (!hasCredentials(url)) return url;
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  return parsed.toString().replace(/\/+$/, "");
}
