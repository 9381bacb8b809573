/**
 * /admin/api/: the JSON API the page calls. Every call carries the init data
 * (`Authorization: tma …`) and is checked afresh (init-data.ts): 401 without a valid and
 * recent signature, 403 for anyone but an admin. Writes are also limited per admin, logged,
 * and done only by the replica that sends (decisions.ts).
 */
import { INTENT_ID_PATTERN } from "../gifts/catalogue.js";
import { AppDecisions, type GiveawayAction, type WriteAnswer } from "./decisions.js";
import { type AppUser, checkInitData } from "./init-data.js";
import { WriteLimit } from "./rate-limit.js";
import { AppReads } from "./reads.js";
import { localeOf } from "./texts.js";
import type { AdminAppDeps } from "./types.js";

/** An API answer: the status and the JSON body. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** A request as the API sees it: method, path under /admin/api/, query, header, body. */
export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  /** The JSON body of a write (undefined without one). */
  body: unknown;
}

/** Writes one admin may make per minute. */
const WRITES_PER_MINUTE = 30;

const BATCH_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export class AdminApi {
  readonly #deps: AdminAppDeps;
  readonly #reads: AppReads;
  readonly #decisions: AppDecisions;
  readonly #writes: WriteLimit;

  constructor(deps: AdminAppDeps) {
    this.#deps = deps;
    this.#reads = new AppReads(deps);
    this.#decisions = new AppDecisions(deps);
    this.#writes = new WriteLimit({ max: WRITES_PER_MINUTE, windowMs: 60_000, clock: deps.clock });
  }

  async handle(request: ApiRequest): Promise<ApiAnswer> {
    const check = checkInitData(request.authorization, {
      token: this.#deps.token,
      maxAgeSeconds: this.#deps.maxAgeSeconds,
      isAdmin: this.#deps.isAdmin,
      nowSeconds: () => Math.floor(this.#deps.clock() / 1000),
    });
    if (!check.ok) {
      this.#deps.logger.info({ reason: check.reason }, "admin app: a call was refused");
      return { status: check.status, body: { error: check.reason } };
    }
    if (request.method === "GET") return this.#read(request, check.user);
    if (request.method === "POST") return this.#write(request, check.user);
    return { status: 405, body: { error: "method" } };
  }

  async #read(request: ApiRequest, user: AppUser): Promise<ApiAnswer> {
    const reads = this.#reads;
    const [resource, id] = request.path.split("/");
    const found = (body: unknown): ApiAnswer =>
      body === undefined ? notFound() : { status: 200, body };
    switch (resource) {
      case "session":
        return found(await reads.session(user));
      case "overview":
        return found(await reads.overview());
      case "balance":
        return found(await reads.balance());
      case "spending":
        return found(await reads.spending());
      case "giveaways":
        return found({ giveaways: await reads.giveaways() });
      case "purchases":
        if (id === undefined) return found(await reads.purchases(request.query));
        return INTENT_ID_PATTERN.test(id) ? found(await reads.purchase(id)) : notFound();
      default:
        return notFound();
    }
  }

  async #write(request: ApiRequest, user: AppUser): Promise<ApiAnswer> {
    const locale = await localeOf(user, this.#deps.texts);
    const action = writeOf(request.path);
    if (action === undefined) return notFound();
    const answer =
      this.#decisions.standby(locale) ??
      (this.#writes.take(user.id)
        ? await this.#act(action, user, locale, request)
        : refused(429, this.#deps.texts.t(locale, "app-refused-rate")));
    this.#deps.logger.info(
      {
        adminId: user.id,
        action: action.name === "giveaway" ? `giveaway_${action.verb}` : action.name,
        target: action.target,
        status: answer.status,
      },
      "admin app: a decision",
    );
    return { status: answer.status, body: { ok: answer.ok, message: answer.message } };
  }

  async #act(
    action: WriteAction,
    user: AppUser,
    locale: string,
    request: ApiRequest,
  ): Promise<WriteAnswer> {
    const decisions = this.#decisions;
    switch (action.name) {
      case "pause":
        return decisions.pause(user, locale);
      case "resume":
        return decisions.resume(user, locale);
      case "settle": {
        const delivered = (request.body as { delivered?: unknown } | undefined)?.delivered;
        if (typeof delivered !== "boolean") return refused(400, "delivered: true or false");
        return decisions.settle(user, locale, action.target, delivered);
      }
      case "giveaway":
        return decisions.giveaway(locale, action.target, action.verb);
    }
  }
}

type WriteAction =
  | { name: "pause" | "resume"; target: undefined }
  | { name: "settle"; target: string }
  | { name: "giveaway"; verb: GiveawayAction; target: string };

/** Which write a POST path names: pause, resume, a purchase's settle, a giveaway's action. */
function writeOf(path: string): WriteAction | undefined {
  if (path === "pause" || path === "resume") return { name: path, target: undefined };
  const [resource, id = "", verb] = path.split("/");
  if (resource === "purchases" && verb === "settle" && INTENT_ID_PATTERN.test(id)) {
    return { name: "settle", target: id };
  }
  if (
    resource === "giveaways" &&
    BATCH_ID_PATTERN.test(id) &&
    (verb === "pause" || verb === "resume" || verb === "cancel")
  ) {
    return { name: "giveaway", verb, target: id };
  }
  return undefined;
}

function notFound(): ApiAnswer {
  return { status: 404, body: { error: "not_found" } };
}

function refused(status: number, message: string): WriteAnswer {
  return { status, ok: false, message };
}
