/**
 * Reading a response body under a size limit (docs/service-contract.md §8). A body larger than
 * the limit, announced or counted, is destroyed unread (which closes its connection) instead of
 * being held in memory: a purchase answered that way is ambiguous, a read unavailable.
 */
import type { request } from "undici";

/** Thrown when a body exceeds the limit; `exchange` turns it into a `too_large` failure. */
export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
}

export type ResponseBody = Awaited<ReturnType<typeof request>>["body"];

/** The body as UTF-8 text, at most `maxBytes`; throws `BodyTooLargeError` beyond that. */
export async function readLimitedBody(
  body: ResponseBody,
  headers: Record<string, string | string[] | undefined>,
  maxBytes: number,
): Promise<string> {
  const announced = Number(headers["content-length"]);
  if (Number.isFinite(announced) && announced > maxBytes) {
    body.destroy();
    throw new BodyTooLargeError();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) {
      body.destroy();
      throw new BodyTooLargeError();
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
