/**
 * A giveaway's list sent as a file: its text, downloaded from Telegram. `getFile` goes through
 * grammY's API (its fetch, its API root); the file itself through the same fetch from
 * `<apiRoot>/file/bot<token>/<file_path>`, as grammY's files plugin does. The size is bounded
 * twice, by what Telegram says before anything is downloaded and by the bytes as they arrive,
 * so a large file is refused without being read. The URL holds the bot token: it is never
 * logged and never in an error (a failed download is only `{ kind: "failed" }`).
 */
import type { ApiClientOptions } from "grammy";
import type { Document } from "grammy/types";

/** A list file's size at most: 200 t.me links take 8 KB; a spreadsheet's export more. */
export const MAX_LIST_FILE_BYTES = 64 * 1024;

/** The file names a list may have. */
const LIST_FILE = /\.(txt|csv)$/i;

const DEFAULT_API_ROOT = "https://api.telegram.org";

export type ListFile =
  | { kind: "ok"; fileName: string; text: string }
  | { kind: "not_a_list" }
  | { kind: "too_large" }
  | { kind: "failed" };

export interface ListFileSource {
  /** grammY's `getFile`: the file's path on Telegram's side (and its size). */
  getFile(fileId: string): Promise<{ file_path?: string; file_size?: number }>;
  /** The bot token, for the download URL only. */
  token: string;
}

export interface DownloadOptions {
  /** TELEGRAM_API_ROOT, or Telegram's. */
  apiRoot?: string | undefined;
  /** grammY's fetch (the tests' fake Telegram), or the global one. */
  fetch?: ApiClientOptions["fetch"];
  maxBytes?: number;
}

/** The text of a .txt or .csv document, or why there is none. */
export async function downloadListFile(
  source: ListFileSource,
  document: Pick<Document, "file_id" | "file_name" | "file_size">,
  options: DownloadOptions = {},
): Promise<ListFile> {
  const fileName = document.file_name ?? "";
  if (!LIST_FILE.test(fileName)) return { kind: "not_a_list" };
  const maxBytes = options.maxBytes ?? MAX_LIST_FILE_BYTES;
  if ((document.file_size ?? 0) > maxBytes) return { kind: "too_large" };
  try {
    const file = await source.getFile(document.file_id);
    if (file.file_path === undefined) return { kind: "failed" };
    if ((file.file_size ?? 0) > maxBytes) return { kind: "too_large" };
    const root = options.apiRoot ?? DEFAULT_API_ROOT;
    const fetchFile = options.fetch ?? fetch;
    const response = await fetchFile(`${root}/file/bot${source.token}/${file.file_path}`);
    if (!response.ok || response.body === null) return { kind: "failed" };
    const bytes = await readAtMost(response.body, maxBytes);
    if (bytes === undefined) return { kind: "too_large" };
    return { kind: "ok", fileName, text: new TextDecoder("utf-8").decode(bytes) };
  } catch {
    // The error may carry the URL, and with it the token: nothing of it is kept.
    return { kind: "failed" };
  }
}

/** The body's bytes, or undefined as soon as there are more than `maxBytes`. */
async function readAtMost(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
