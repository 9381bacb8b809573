/**
 * The admins' Mini App server on HOST:ADMIN_APP_PORT: the page at /admin/ and its JSON API at
 * /admin/api/. Telegram opens ADMIN_APP_URL (the public HTTPS address, behind the same reverse
 * proxy as the webhook), which leads here. Every answer carries a strict Content-Security-Policy
 * (`default-src 'self'`): the page runs only its own script and style, and talks only to this
 * server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBodyUpTo } from "../shared/request-body.js";
import { AdminApi, type ApiAnswer } from "./api.js";
import { loadPageFiles } from "./page-files.js";
import { pageTexts } from "./texts.js";
import type { AdminAppDeps, AppTexts } from "./types.js";

export interface AdminAppServer {
  /** Where it listens (`http://127.0.0.1:PORT`). */
  url: string;
  /** Stops listening and ends its connections. */
  close(): Promise<void>;
}

/** Sent with every answer (the page and the API alike). */
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
} as const;

/** Larger bodies are no write of ours. */
const MAX_BODY_BYTES = 4096;

const PREFIX = "/admin/";
const API_PREFIX = "/admin/api/";

export async function startAdminApp(
  deps: AdminAppDeps,
  listen: { host: string; port: number },
): Promise<AdminAppServer> {
  const files = loadPageFiles();
  const api = new AdminApi(deps);
  const server = createServer((request, response) => {
    serve(request, response, { files, api, texts: deps.texts }).catch((error: unknown) => {
      deps.logger.error({ err: error }, "admin app: a request failed");
      if (!response.headersSent) send(response, 500, { error: "internal" });
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

async function serve(
  request: IncomingMessage,
  response: ServerResponse,
  parts: { files: ReturnType<typeof loadPageFiles>; api: AdminApi; texts: AppTexts },
): Promise<void> {
  const { files, api, texts } = parts;
  const url = new URL(request.url ?? "/", "http://localhost");
  // The page's texts without a session, to say why it was refused: public (they are the
  // locale files' own), in a language we speak or the default.
  const textsOf = /^\/admin\/texts\/([a-z]{2,8})\.json$/.exec(url.pathname)?.[1];
  if (textsOf !== undefined && request.method === "GET") {
    const locale = texts.locales.includes(textsOf) ? textsOf : (texts.locales[0] ?? "en");
    send(response, 200, pageTexts(texts, locale));
    return;
  }
  if (url.pathname.startsWith(API_PREFIX)) {
    // Read whole before answering: an answer given over an unread body breaks the kept-alive
    // connection under it (see src/run/replicas.ts).
    const method = request.method ?? "GET";
    const answer = await api.handle({
      method,
      path: url.pathname.slice(API_PREFIX.length),
      query: url.searchParams,
      authorization: request.headers.authorization,
      body: method === "POST" ? await readJson(request) : undefined,
    });
    send(response, answer.status, answer.body);
    return;
  }
  if (url.pathname === "/admin") {
    response.writeHead(301, { ...SECURITY_HEADERS, location: PREFIX }).end();
    return;
  }
  const file = url.pathname.startsWith(PREFIX)
    ? files.get(url.pathname.slice(PREFIX.length))
    : undefined;
  if (file === undefined || (request.method !== "GET" && request.method !== "HEAD")) {
    response.writeHead(404, SECURITY_HEADERS).end();
    return;
  }
  response
    .writeHead(200, {
      ...SECURITY_HEADERS,
      "content-type": file.type,
      "content-length": file.body.length,
      // The page is small: always asked again, so a new release is never mixed with the old.
      "cache-control": "no-cache",
    })
    .end(request.method === "HEAD" ? undefined : file.body);
}

function send(response: ServerResponse, status: ApiAnswer["status"], body: unknown): void {
  const text = JSON.stringify(body);
  response
    .writeHead(status, {
      ...SECURITY_HEADERS,
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(text),
      "cache-control": "no-store",
    })
    .end(text);
}

/** A small JSON body; undefined when it is not JSON or larger than any write of ours. */
async function readJson(request: IncomingMessage): Promise<unknown> {
  const body = await readBodyUpTo(request, MAX_BODY_BYTES);
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body.toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}
