/**
 * The emulator's HTTP face: `/bot<token>/<method>` for the bot (JSON, form or query, like
 * Telegram), and `/__emulator/*` JSON endpoints so another process (the terminal chat, e2e tests)
 * can act as people and watch the chats. Listens on 127.0.0.1 only unless told otherwise.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { TelegramEmulator, type TelegramEmulatorOptions } from "./emulator.js";
import { EmulatorClosedError, EmulatorControlError, EmulatorTimeoutError } from "./errors.js";
import { fileAtPath } from "./files.js";
import { readMultipart } from "./multipart.js";
import type { GiftFault } from "./stars.js";
import { payInvoice } from "./stars-api.js";
import { isRecord, type Params } from "./params.js";
import type { ChatMemberStatus, NewGroup, NewUser, UploadedFile } from "./types.js";

const MAX_BODY_BYTES = 1_000_000;
const DEFAULT_HOLD_MS = 25_000;
const MAX_HOLD_MS = 60_000;

class BodyError extends Error {}

async function readBody(request: IncomingMessage): Promise<string> {
  return (await readRawBody(request)).toString("utf8");
}

async function readRawBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyError("request body too large");
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** A file upload: text fields become params, each file an {@link UploadedFile} by field name. */
async function multipartParams(raw: Buffer, contentType: string): Promise<Params> {
  const { fields, files } = await readMultipart(raw, contentType).catch(() => {
    throw new BodyError("malformed multipart body");
  });
  const params: Params = { ...fields };
  for (const [name, file] of Object.entries(files)) {
    params[name] = {
      fileName: file.fileName,
      size: file.content.length,
      content: file.content,
    } satisfies UploadedFile;
  }
  return params;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  if (response.destroyed || response.writableEnded) return;
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

/** Aborts when the client goes away before its answer is sent (a cancelled long poll). */
function closeSignal(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  response.on("close", () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}

async function botParams(request: IncomingMessage, url: URL): Promise<Params> {
  const params: Params = Object.fromEntries(url.searchParams);
  if (request.method !== "POST") return params;
  const contentType = (request.headers["content-type"] ?? "").toLowerCase();
  if (contentType.startsWith("multipart/form-data")) {
    const raw = await readRawBody(request);
    return { ...params, ...(await multipartParams(raw, request.headers["content-type"] ?? "")) };
  }
  const body = await readBody(request);
  if (body === "") return params;
  if (contentType.startsWith("application/json")) {
    const parsed = JSON.parse(body) as unknown;
    if (!isRecord(parsed)) throw new BodyError("JSON body must be an object");
    return { ...params, ...parsed };
  }
  if (contentType.startsWith("application/x-www-form-urlencoded")) {
    return { ...params, ...Object.fromEntries(new URLSearchParams(body)) };
  }
  throw new BodyError("only JSON, form-urlencoded, multipart and query parameters are supported");
}

async function handleBotApi(
  emulator: TelegramEmulator,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  const match = /^\/bot([^/]+)\/([^/]+)$/.exec(url.pathname);
  if (match === null) {
    sendJson(response, 404, { ok: false, error_code: 404, description: "Not Found" });
    return;
  }
  const [, token, method] = match;
  if (token === undefined || method === undefined || decodeURIComponent(token) !== emulator.token) {
    sendJson(response, 401, { ok: false, error_code: 401, description: "Unauthorized" });
    return;
  }
  let params: Params;
  try {
    params = await botParams(request, url);
  } catch (error) {
    const reason = error instanceof BodyError ? error.message : "can't parse request body";
    sendJson(response, 400, { ok: false, error_code: 400, description: `Bad Request: ${reason}` });
    return;
  }
  const answer = await emulator.callApi(method, params, closeSignal(response));
  // A fault: the call did what it did, but its answer never reaches the bot.
  if (!answer.ok && answer.dropped === "reset") {
    request.socket.destroy();
    return;
  }
  if (!answer.ok && answer.dropped === "hang") return;
  sendJson(response, answer.ok ? 200 : answer.error_code, answer);
}

/**
 * `GET /file/bot<token>/<file_path>`: a file's bytes, as Telegram serves the files bots download
 * (the path comes from getFile).
 */
function handleFileDownload(
  emulator: TelegramEmulator,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  const match = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
  const content =
    match !== null &&
    request.method === "GET" &&
    decodeURIComponent(match[1] ?? "") === emulator.token
      ? fileAtPath(emulator.state, decodeURIComponent(match[2] ?? ""))
      : undefined;
  if (content === undefined) {
    sendJson(response, 404, { ok: false, error_code: 404, description: "Not Found" });
  } else {
    response.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-length": content.length,
    });
    response.end(content);
  }
  return Promise.resolve();
}

function intParam(source: Params, name: string, fallback?: number): number {
  const value = source[name];
  const number = typeof value === "string" && value !== "" ? Number(value) : value;
  if (typeof number === "number" && Number.isInteger(number)) return number;
  if (value === undefined && fallback !== undefined) return fallback;
  throw new EmulatorControlError(`"${name}" must be an integer`);
}

function optionalIntParam(source: Params, name: string): number | undefined {
  return source[name] === undefined || source[name] === "" ? undefined : intParam(source, name);
}

function stringParam(source: Params, name: string): string {
  const value = source[name];
  if (typeof value !== "string") throw new EmulatorControlError(`"${name}" must be a string`);
  return value;
}

function holdMs(query: Params, fallback: number): number {
  return Math.min(Math.max(intParam(query, "timeout_ms", fallback), 0), MAX_HOLD_MS);
}

type ControlRoute = (emulator: TelegramEmulator, input: Params, signal: AbortSignal) => unknown;

/** The control endpoints; POST ones read a JSON body, GET ones the query string. */
const CONTROL_ROUTES: Record<string, ControlRoute> = {
  "GET info": (emulator) => ({
    botId: emulator.botInfo.id,
    botUsername: emulator.botInfo.username,
    apiRoot: emulator.apiRoot,
  }),
  "POST users": (emulator, input) => ({ user: emulator.addUser(input as unknown as NewUser) }),
  "POST groups": (emulator, input) => ({ chat: emulator.addGroup(input as unknown as NewGroup) }),
  "POST members": (emulator, input) => {
    emulator.setChatMember(
      intParam(input, "chatId"),
      intParam(input, "userId"),
      stringParam(input, "status") as ChatMemberStatus,
    );
    return { ok: true };
  },
  "POST block": (emulator, input) => {
    emulator.blockBot(intParam(input, "userId"), input.blocked !== false);
    return { ok: true };
  },
  "POST send-text": (emulator, input) => {
    const replyToMessageId = optionalIntParam(input, "replyToMessageId");
    return emulator.sendText(
      intParam(input, "userId"),
      intParam(input, "chatId"),
      stringParam(input, "text"),
      replyToMessageId === undefined ? {} : { replyToMessageId },
    );
  },
  "POST send-document": (emulator, input) => {
    const replyToMessageId = optionalIntParam(input, "replyToMessageId");
    const caption = input.caption === undefined ? undefined : stringParam(input, "caption");
    return emulator.sendDocument(
      intParam(input, "userId"),
      intParam(input, "chatId"),
      {
        fileName: stringParam(input, "fileName"),
        content: Buffer.from(stringParam(input, "contentBase64"), "base64"),
        ...(caption === undefined ? {} : { caption }),
      },
      replyToMessageId === undefined ? {} : { replyToMessageId },
    );
  },
  "POST press-button": (emulator, input) =>
    emulator.pressButton(
      intParam(input, "userId"),
      intParam(input, "chatId"),
      intParam(input, "messageId"),
      stringParam(input, "callbackData"),
    ),
  "POST press-button-at": (emulator, input) =>
    emulator.pressButtonAt(
      intParam(input, "userId"),
      intParam(input, "chatId"),
      intParam(input, "messageId"),
      intParam(input, "row"),
      intParam(input, "col"),
    ),
  "POST inject-error": (emulator, input) => {
    const retryAfter = optionalIntParam(input, "retryAfter");
    emulator.injectApiError(
      stringParam(input, "method"),
      {
        errorCode: intParam(input, "errorCode"),
        description: stringParam(input, "description"),
        ...(retryAfter === undefined ? {} : { retryAfter }),
      },
      { times: intParam(input, "times", 1) },
    );
    return { ok: true };
  },
  "POST stars": (emulator, input) => {
    const balance = optionalIntParam(input, "balance");
    if (balance !== undefined) emulator.state.stars.balance = balance;
    const faults = Array.isArray(input.faults) ? input.faults : [];
    emulator.state.stars.fault(...(faults as GiftFault[]));
    return { balance: emulator.state.stars.balance };
  },
  "GET stars": (emulator) => ({
    balance: emulator.state.stars.balance,
    transactions: emulator.state.stars.transactions,
    giftCalls: emulator.state.stars.giftCalls,
  }),
  "POST pay-invoice": (emulator, input) => ({
    updateId: payInvoice(
      emulator.state,
      intParam(input, "userId"),
      intParam(input, "chatId"),
      intParam(input, "messageId"),
    ),
  }),
  "GET chat": (emulator, query) => ({
    messages: emulator.chat(intParam(query, "chat")),
    lastEventSeq: emulator.lastEventSeq,
  }),
  "GET events": async (emulator, query, signal) => {
    const chatId = optionalIntParam(query, "chat");
    const events = await emulator.waitForEvents(intParam(query, "after", 0), {
      timeoutMs: holdMs(query, DEFAULT_HOLD_MS),
      signal,
      ...(chatId === undefined ? {} : { chatId }),
    });
    return { events, lastEventSeq: emulator.lastEventSeq };
  },
  "GET wait-call": async (emulator, query, signal) => {
    const call = await emulator.waitForCall(stringParam(query, "method"), () => true, {
      afterSeq: intParam(query, "after", 0),
      timeoutMs: holdMs(query, 10_000),
      signal,
    });
    return { call };
  },
  "GET wait-polling": async (emulator, query, signal) => {
    await emulator.waitFor((e) => e.pollPending, { timeoutMs: holdMs(query, 10_000), signal });
    return { polling: true };
  },
  "GET calls": (emulator, query) => {
    const after = intParam(query, "after", 0);
    const method = query.method;
    return {
      calls: emulator.calls.filter(
        (call) => call.seq > after && (method === undefined || call.method === method),
      ),
    };
  },
  "GET callback-answers": (emulator) => ({ answers: emulator.callbackAnswers }),
  "GET next-bot-message": async (emulator, query, signal) => {
    const after = optionalIntParam(query, "after");
    const message = await emulator.nextBotMessage(intParam(query, "chat"), {
      timeoutMs: holdMs(query, 10_000),
      signal,
      ...(after === undefined ? {} : { after }),
    });
    return { message };
  },
  "GET commands": (emulator, query) => {
    const scope =
      typeof query.scope === "string" ? (JSON.parse(query.scope) as unknown) : undefined;
    const language = typeof query.language_code === "string" ? query.language_code : "";
    return { commands: emulator.commands(isRecord(scope) ? scope : undefined, language) };
  },
  "GET updates": (emulator) => ({ updates: emulator.pendingUpdates() }),
  "GET webhook": (emulator) => ({ webhook: emulator.webhook ?? null }),
};
// The brief's name for the held event wait.
CONTROL_ROUTES["GET wait"] = CONTROL_ROUTES["GET events"] as ControlRoute;

async function handleControl(
  emulator: TelegramEmulator,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  const name = url.pathname.slice("/__emulator/".length);
  const route = CONTROL_ROUTES[`${request.method ?? "GET"} ${name}`];
  if (route === undefined) {
    sendJson(response, 404, { error: `no control endpoint ${request.method} ${url.pathname}` });
    return;
  }
  try {
    let input: Params = Object.fromEntries(url.searchParams);
    if (request.method === "POST") {
      const body = await readBody(request);
      const parsed = body === "" ? {} : (JSON.parse(body) as unknown);
      if (!isRecord(parsed)) throw new EmulatorControlError("the body must be a JSON object");
      input = parsed;
    }
    sendJson(response, 200, await route(emulator, input, closeSignal(response)));
  } catch (error) {
    if (error instanceof EmulatorControlError)
      sendJson(response, error.status, { error: error.message });
    else if (error instanceof EmulatorTimeoutError)
      sendJson(response, 408, { error: error.message });
    else if (error instanceof EmulatorClosedError)
      sendJson(response, 503, { error: error.message });
    else if (error instanceof SyntaxError || error instanceof BodyError) {
      sendJson(response, 400, { error: error.message });
    } else sendJson(response, 500, { error: "internal emulator error" });
  }
}

/**
 * Starts an emulator and its HTTP server. Give the bot
 * `new Bot(emulator.token, { client: { apiRoot: emulator.apiRoot } })`.
 */
export async function startTelegramEmulator(
  options: TelegramEmulatorOptions = {},
): Promise<TelegramEmulator> {
  const emulator = new TelegramEmulator(options);
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://emulator.local");
    const handler = url.pathname.startsWith("/__emulator/")
      ? handleControl
      : url.pathname.startsWith("/file/")
        ? handleFileDownload
        : handleBotApi;
    handler(emulator, request, response, url).catch(() => {
      sendJson(response, 500, { ok: false, error_code: 500, description: "Internal Server Error" });
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  emulator.attach(`http://${shownHost}:${port}`, async () => {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  });
  return emulator;
}
