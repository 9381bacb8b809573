/**
 * Several replicas behind one webhook URL (PostgreSQL, DATABASE_URL). The proxy in front spreads
 * Telegram's posts over every replica, but ONE process handles them: the holder of the sender
 * lease. A replica on standby hands each update on to the holder's webhook server (its
 * REPLICA_URL, kept in the store beside the lease) and gives Telegram the holder's answer.
 *
 * Why one handler rather than every replica handling what it receives:
 * - one chat's updates never interleave across processes (conversations read, change and write
 *   their state with no version check; in one process `sequentialize` orders them);
 * - the service's quota (30 requests per client IP per minute, across all endpoints) is kept in
 *   total by one scheduler, not once per replica: a replica on standby sends the service nothing;
 * - purchases already had one sender (the lease, fenced in the claim itself).
 * What replicas add is availability: the holder's crash or stop hands the lease to a standby
 * (at once on a clean stop, within LEASE_SECONDS after a crash), which then handles the updates
 * itself; conversations carry on, since their state is in the database. Throughput is one
 * process's, which the service's quota caps anyway.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { SenderLease } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";
import type { KeyValue } from "../storage/types.js";
import { readBodyUpTo } from "../shared/request-body.js";
import { hasCredentials, withoutCredentials } from "../shared/url-credentials.js";

/** Marks an update one replica handed to another: it is never handed on again (no loops). */
const FORWARDED_HEADER = "x-giftbot-forwarded";

/** The key-value namespace where a lease holder publishes its REPLICA_URL, by lease owner. */
export const REPLICA_URLS_NAMESPACE = "replica_urls";

/** Telegram's own secret header: forwarded as received, checked again by the holder. */
const SECRET_HEADER = "x-telegram-bot-api-secret-token";

/** Telegram's updates are small; anything larger is not one (Bot API: at most a few KB). */
const MAX_UPDATE_BYTES = 1_000_000;

/**
 * How long a replica waits for the holder's answer: a little longer than the holder's own
 * webhook handler waits before answering early (50 s, src/run/webhook-server.ts).
 */
const FORWARD_TIMEOUT_MS = 55_000;

/** A published address: where the replica that owns the lease is reached. */
interface ReplicaAddress {
  url: string;
}

/** Who holds the lease and where it is reached, from the lease row and the address book. */
export class ReplicaDirectory {
  readonly #lease: SenderLease;
  readonly #book: KeyValue<ReplicaAddress>;

  constructor(lease: SenderLease, book: KeyValue<ReplicaAddress>) {
    this.#lease = lease;
    this.#book = book;
  }

  /** Says where the lease owner `owner` (this process) is reached, before it takes updates. */
  async publish(owner: string, url: string): Promise<void> {
    await this.#book.write(owner, { url });
  }

  /** Takes the address away at a stop (a crashed process leaves one small row behind). */
  async withdraw(owner: string): Promise<void> {
    await this.#book.delete(owner);
  }

  /** The lease holder's published address, unless `self` holds it, nobody does, or it has none. */
  async holderUrl(self: string): Promise<string | undefined> {
    const holder = await this.#lease.holder();
    if (holder === undefined || holder.owner === self) return undefined;
    return (await this.#book.read(holder.owner))?.url;
  }
}

export interface ForwarderOptions {
  directory: Pick<ReplicaDirectory, "holderUrl">;
  /** This process's lease owner id. */
  self: string;
  /** The webhook's path (WEBHOOK_URL's): the holder serves the same one. */
  path: string;
  secretToken: string;
  logger: Logger;
}

/**
 * What a replica on standby does with Telegram's post: checks the secret (a forged post is not
 * relayed), hands the update to the holder and answers with the holder's status. Telegram gets
 * 503 (it sends the update again later) when no holder can be reached, when the post was already
 * handed on once, or when the holder does not answer in time.
 */
export function updateForwarder(
  options: ForwarderOptions,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const expected = Buffer.from(options.secretToken);
  return async (request, response) => {
    if (request.headers[FORWARDED_HEADER] !== undefined) return tryLater(response);
    const given = Buffer.from(String(request.headers[SECRET_HEADER] ?? ""));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      response.writeHead(401).end();
      return;
    }
    const holder = await options.directory.holderUrl(options.self).catch((error: unknown) => {
      options.logger.warn({ err: error }, "could not look up the lease holder's address");
      return undefined;
    });
    if (holder === undefined) return tryLater(response);
    const body = await readBodyUpTo(request, MAX_UPDATE_BYTES);
    if (body === undefined) {
      response.writeHead(413).end();
      return;
    }
    const status = await forward(holder, options, body).catch((error: unknown) => {
      options.logger.warn(
        { err: error, holder: withoutCredentials(holder) },
        "could not hand an update to the lease holder",
      );
      return 503;
    });
    if (status === 503) return tryLater(response);
    response.writeHead(status).end();
  };
}

/**
 * Posts `body` to the holder's webhook path and returns its status. It throws (the holder is
 * unreachable) rather than send the webhook secret anywhere else: a redirect is never followed,
 * and an address with `user:password@` is never posted to (the config refuses one; an older
 * release may have published it).
 */
async function forward(
  holder: string,
  options: Pick<ForwarderOptions, "path" | "secretToken">,
  body: Buffer,
): Promise<number> {
  if (hasCredentials(holder)) {
    throw new Error("the holder's REPLICA_URL carries a user name or password: unset them there");
  }
  const answer = await fetch(`${holder}${options.path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      [SECRET_HEADER]: options.secretToken,
      [FORWARDED_HEADER]: "1",
    },
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
  });
  await answer.arrayBuffer();
  if (answer.status >= 300 && answer.status < 400) {
    throw new Error(`the holder answered ${answer.status} (a redirect, never followed)`);
  }
  return answer.status;
}

function tryLater(response: ServerResponse): void {
  response.writeHead(503, { "Retry-After": "5" }).end();
}
