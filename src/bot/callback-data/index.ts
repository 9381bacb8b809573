/**
 * Every callback data string the bot puts on a button, one file per prefix, each with strict
 * encode/decode pairs and the prefix pattern its handler is routed by (`callbackQuery(...)`).
 *
 * Callback data comes back from the person's client, so it is untrusted input: anyone can forge
 * it. Decoders accept only the exact shapes the encoders produce and return `undefined` for
 * anything else, so a handler never acts on half-parsed data; a handler routed by prefix answers
 * data it cannot decode as invalid. Telegram caps callback data at 64 bytes, which every format
 * here stays well under.
 *
 * | prefix  | file       | buttons                                                        |
 * | ------- | ---------- | -------------------------------------------------------------- |
 * | `menu:` | menu.ts    | the start menu: begin a flow                                   |
 * | `flow:` | flow.ts    | a private flow prompt: amount, duration, cancel                |
 * | `buy:`  | buy.ts     | a summary: confirm, cancel, switch the payment method          |
 * | `lang:` | lang.ts    | the language picker                                            |
 * | `adm:`  | admin.ts   | the admins': /purchases paging, reconciliation, allow or deny   |
 * | `grp:`  | group.ts   | a group premium prompt: duration, cancel                       |
 * | `give:` | giveaway.ts| a giveaway: its kind, stop the checks, confirm, cancel, CSV    |
 */
export * from "./admin.js";
export * from "./buy.js";
export * from "./flow.js";
export * from "./giveaway.js";
export * from "./group.js";
export * from "./lang.js";
export * from "./menu.js";
