/**
 * `menu:stars` | `menu:premium`: the start menu's buttons, which begin a flow.
 * Untrusted like all callback data: {@link decodeMenu} accepts only what {@link encodeMenu} makes.
 */

/** Routes every press with this prefix, well-formed or not, to the menu's handler. */
export const MENU_DATA = /^menu:/;

export type MenuAction = "stars" | "premium";

export function encodeMenu(action: MenuAction): string {
  return `menu:${action}`;
}

export function decodeMenu(data: string): MenuAction | undefined {
  if (data === "menu:stars") return "stars";
  if (data === "menu:premium") return "premium";
  return undefined;
}
