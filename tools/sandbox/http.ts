/** Reading requests and writing replies on node:http sockets, for the sandbox's server. */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { isForm } from "./endpoints.js";
import type { Reply } from "./reply.js";
import type { RecordedRequest } from "./types.js";

/** Bodies above this are refused with 413 (the service's bodies are small forms). */
const MAX_BODY_BYTES = 64 * 1024;

/** Reads the body as text; undefined when it exceeds the limit. */
export async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The request as tests see it: lower-case headers, the query, and the form when there is one. */
export function recordRequest(
  req: IncomingMessage,
  url: URL,
  raw: string | undefined,
  at: number,
): RecordedRequest {
  const contentType = req.headers["content-type"];
  return {
    method: req.method ?? "GET",
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: flattenHeaders(req.headers),
    form:
      raw !== undefined && isForm(contentType)
        ? Object.fromEntries(new URLSearchParams(raw))
        : undefined,
    contentType,
    at,
  };
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

/** Writes a reply: a string body as text/plain, anything else as JSON. */
export function writeReply(res: ServerResponse, reply: Reply): void {
  const isText = typeof reply.body === "string";
  res.writeHead(reply.status, {
    "content-type": isText ? "text/plain; charset=utf-8" : "application/json; charset=utf-8",
    ...reply.headers,
  });
  res.end(isText ? (reply.body as string) : JSON.stringify(reply.body));
}
