/**
 * Names of the people the bot has seen, so admins read "@bea_buyer (2001)" instead of a bare
 * id. Kept through the key-value store interface (one small record per person: the name they
 * showed in their latest update), written only when it changes; an in-memory map of what was
 * last written keeps an unchanged name from costing a read or a write on every update.
 */
import type { User } from "grammy/types";
import { LRUCache } from "lru-cache";
import type { KeyValue, KeyValueStores } from "../storage/types.js";

/** A person's name (or a group's title) for admins, or undefined when the bot has never seen it. */
export type NameLookup = (userId: number) => string | undefined;

/** People whose last written name is remembered in memory; older ones are read again. */
const MAX_REMEMBERED = 10_000;

/** What admins are shown for a Telegram user: their @username, else their name. */
function displayName(user: Pick<User, "username" | "first_name" | "last_name">): string {
  if (user.username !== undefined && user.username !== "") return `@${user.username}`;
  return [user.first_name, user.last_name].filter((part) => part !== undefined).join(" ");
}

export class KnownPeople {
  readonly #names: KeyValue<string>;
  /** Who last showed each @username (lower case), for Premium gifted by id (issue #39). */
  readonly #ids: KeyValue<number>;
  readonly #written = new LRUCache<number, string>({ max: MAX_REMEMBERED });
  /** The @usernames written lately, by lower-case name: seen at once, before the store answers. */
  readonly #idsWritten = new LRUCache<string, number>({ max: MAX_REMEMBERED });

  constructor(stores: KeyValueStores) {
    this.#names = stores<string>("people");
    this.#ids = stores<number>("people-by-username");
  }

  /** Remembers the name `user` shows now (bots are not people to remember). */
  note(user: User): void {
    if (user.is_bot) return;
    this.#remember(user.id, displayName(user));
  }

  /**
   * The Telegram id of whoever showed `username` to the bot, or undefined: never guessed. The
   * name that id showed last must still be this one, so a username that changed hands since
   * (the first owner showed another name after it) names nobody.
   */
  async idOf(username: string): Promise<number | undefined> {
    const key = username.replace(/^@/, "").toLowerCase();
    const id = this.#idsWritten.get(key) ?? (await this.#ids.read(key));
    if (id === undefined) return undefined;
    const shown = this.#written.get(id) ?? (await this.#names.read(String(id)));
    return shown?.toLowerCase() === `@${key}` ? id : undefined;
  }

  /**
   * Remembers a group's title, so /allowed names a group from ALLOWED_CHAT_IDS too. Group ids
   * are negative and user ids positive, so one record per id never mixes the two up.
   */
  noteGroup(chat: { id: number; title: string }): void {
    if (chat.id >= 0) return;
    this.#remember(chat.id, chat.title);
  }

  #remember(id: number, shown: string): void {
    const name = shown.slice(0, 100);
    if (name === "" || this.#written.get(id) === name) return;
    const key = String(id);
    this.#written.set(id, name);
    if (id > 0 && name.startsWith("@")) this.#idsWritten.set(name.slice(1).toLowerCase(), id);
    void (async () => {
      if ((await this.#names.read(key)) !== name) await this.#names.write(key, name);
      // A person's @username points back at them (groups' titles never start with "@").
      if (id > 0 && name.startsWith("@")) await this.#ids.write(name.slice(1).toLowerCase(), id);
    })().catch(() => this.#written.delete(id));
  }

  /**
   * `view` rendered with every name it asks for. The store answers later than a lookup made
   * while the view is built: the first rendering finds which names it asked for that memory
   * lacks, they are read, and the view is rendered again with them (once, when memory has them
   * all). A name that cannot be read is left out (the id is shown).
   */
  async render<T>(view: (names: NameLookup) => T): Promise<T> {
    const reads = new Map<number, Promise<string | undefined>>();
    const first = view((userId) => {
      const known = this.#written.get(userId);
      if (known !== undefined) return known;
      reads.set(userId, this.#names.read(String(userId)));
      return undefined;
    });
    if (reads.size === 0) return first;
    const found = new Map<number, string | undefined>();
    await Promise.all(
      [...reads].map(async ([userId, read]) => {
        const name = await read.catch(() => undefined);
        found.set(userId, name);
        if (name !== undefined) this.#written.set(userId, name);
      }),
    );
    return view((userId) => (found.has(userId) ? found.get(userId) : this.#nameOf(userId)));
  }

  /**
   * The name last seen for this person, if any, without waiting: the store's answer fills the
   * memory for the next time, and this time the id alone is shown.
   */
  readonly #nameOf: NameLookup = (userId) => {
    const known = this.#written.get(userId);
    if (known !== undefined) return known;
    void this.#names
      .read(String(userId))
      .then((name) => name !== undefined && this.#written.set(userId, name))
      .catch(() => undefined);
    return undefined;
  };
}
