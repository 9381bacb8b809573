/** `lang:<en|ru>`: the language picker's buttons, one per locale the bot speaks. */

/** Locales the bot speaks. */
export const LOCALES = ["en", "ru"] as const;
export type Locale = (typeof LOCALES)[number];

/** Routes every press with this prefix, well-formed or not, to the picker's handler. */
export const LANG_DATA = /^lang:/;

export function encodeLanguage(locale: Locale): string {
  return `lang:${locale}`;
}

export function decodeLanguage(data: string): Locale | undefined {
  return LOCALES.find((l) => `lang:${l}` === data);
}
