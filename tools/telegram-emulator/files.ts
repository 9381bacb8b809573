/**
 * Files people send the bot, and how the bot gets them back, as Telegram does it: the message
 * carries a document with a `file_id`; `getFile` turns the id into a `file_path`; the bytes are
 * downloaded from `<apiRoot>/file/bot<token>/<file_path>` (what a giveaway's list file takes).
 * The bytes stay in memory for the emulator's life.
 */
import { extname } from "node:path";
import { badRequest } from "./errors.js";
import { optionalString, type Params } from "./params.js";
import type { EmulatorState } from "./state.js";
import type { ApiDocument } from "./types.js";

/** A file a person sent, kept so the bot can download it. */
export interface StoredFile {
  document: ApiDocument;
  /** The path getFile answers, under which the bytes are served. */
  path: string;
  content: Buffer;
}

/** Telegram's MIME types for the files a person is likely to send the bot. */
const MIME_TYPES: Readonly<Record<string, string>> = {
  ".txt": "text/plain",
  ".csv": "text/csv",
  ".json": "application/json",
};

/** Keeps a person's file and describes it as the message's `document`. */
export function storePersonFile(
  state: EmulatorState,
  fileName: string,
  content: Buffer,
): ApiDocument {
  const number = state.files.size + 1;
  const fileId = `person-file-${number}`;
  const document: ApiDocument = {
    file_id: fileId,
    file_unique_id: fileId,
    file_name: fileName,
    mime_type: MIME_TYPES[extname(fileName).toLowerCase()] ?? "application/octet-stream",
    file_size: content.length,
  };
  // Telegram's paths look like "documents/file_12.csv": the extension kept, the name not.
  const path = `documents/file_${number}${extname(fileName).toLowerCase()}`;
  state.files.set(fileId, { document, path, content });
  return document;
}

/** Bot API `getFile`: the file's size and the path to download it from. */
export function getFile(state: EmulatorState, params: Params): Record<string, unknown> {
  const fileId = optionalString(params, "file_id") ?? "";
  if (fileId === "") throw badRequest("file_id is empty");
  const file = state.files.get(fileId);
  if (file === undefined) throw badRequest("invalid file_id");
  return {
    file_id: file.document.file_id,
    file_unique_id: file.document.file_unique_id,
    file_size: file.document.file_size,
    file_path: file.path,
  };
}

/** The bytes served at `file_path`, or undefined when no file has that path. */
export function fileAtPath(state: EmulatorState, path: string): Buffer | undefined {
  for (const file of state.files.values()) {
    if (file.path === path) return file.content;
  }
  return undefined;
}
