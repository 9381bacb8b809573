/**
 * The page's calls to its server (`api/…` beside the page): every one sends the launch's init
 * data as `Authorization: tma <init data>`, as the server requires.
 */
import type { PageTexts } from "../text-keys.js";

/** A call the server refused as unauthorised (401) or not an admin's (403). */
export class Refused extends Error {
  constructor(readonly status: 401 | 403) {
    super(`refused: ${status}`);
  }
}

export interface WriteResult {
  ok: boolean;
  message: string;
}

export class Api {
  readonly #authorization: string;

  constructor(initData: string) {
    this.#authorization = `tma ${initData}`;
  }

  async get<T>(path: string, query?: URLSearchParams): Promise<T> {
    const suffix = query === undefined || query.size === 0 ? "" : `?${query.toString()}`;
    const response = await fetch(`api/${path}${suffix}`, {
      headers: { authorization: this.#authorization },
    });
    return (await this.#body(response)) as T;
  }

  /** A write: the server's sentence about what was done, or why not. */
  async post(path: string, body?: unknown): Promise<WriteResult> {
    const response = await fetch(`api/${path}`, {
      method: "POST",
      headers: { authorization: this.#authorization, "content-type": "application/json" },
      body: JSON.stringify(body ?? {}),
    });
    return (await this.#body(response, true)) as WriteResult;
  }

  async #body(response: Response, write = false): Promise<unknown> {
    if (response.status === 401 || response.status === 403) throw new Refused(response.status);
    // A write's refusal (409, 429) still says why, in the admin's language.
    if (!response.ok && !(write && response.status < 500)) {
      throw new Error(`HTTP ${response.status}`);
    }
    return response.json();
  }
}

/** The page's texts without a session (to say why it was refused): public, by language. */
export async function publicTexts(languageCode: string | undefined): Promise<PageTexts> {
  const locale = (languageCode ?? "en").toLowerCase().split("-")[0] ?? "en";
  const response = await fetch(`texts/${encodeURIComponent(locale)}.json`);
  return (await response.json()) as PageTexts;
}
