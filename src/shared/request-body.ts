/**
 * A request's body, read to its end whatever its size, or undefined when it is larger than
 * `maxBytes`. Read to the end (and dropped) rather than cut off: an answer given before the body
 * is read leaves it in the kept-alive connection, and breaking out of the read destroys the
 * connection under the answer, so the next request on it (a proxy reuses it) is reset.
 */
import type { IncomingMessage } from "node:http";

export async function readBodyUpTo(
  request: IncomingMessage,
  maxBytes: number,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const piece = chunk as Buffer;
    size += piece.length;
    if (size <= maxBytes) chunks.push(piece);
  }
  return size > maxBytes ? undefined : Buffer.concat(chunks);
}
