/**
 * A local simulator of the Gift Purchase Service. It lets the client, the ledger and the bot be
 * tested over real sockets against the service's rules (form-urlencoded purchases, header checks,
 * the shared quota, premium rejection, balances that go down) and against the failures the real
 * service can show (faults), without real money.
 *
 * The pieces: endpoints.ts answers a request from the state (recipients.ts, wallet.ts), faults.ts
 * holds injected misbehaviour, quota.ts the shared quota, recorder.ts what arrived, control.ts the
 * `/__sandbox/` endpoints. This module puts them on a socket.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { handleControl } from "./control.js";
import { answerServiceRequest, PURCHASE_PATHS, type ServiceState } from "./endpoints.js";
import { type AnswerFault, answerFault, FaultQueue } from "./faults.js";
import { readBody, recordRequest, writeReply } from "./http.js";
import { SlidingQuota } from "./quota.js";
import { Recipients } from "./recipients.js";
import { RequestRecorder } from "./recorder.js";
import { failure, type Reply } from "./reply.js";
import { MarketplaceSession } from "./session.js";
import { HeldAnswers, SandboxTimers } from "./timers.js";
import type { RecordedRequest, Sandbox, SandboxOptions } from "./types.js";
import { Wallet } from "./wallet.js";

export { SandboxClosedError } from "./recorder.js";
export type { Fault, Sandbox, SandboxOptions } from "./types.js";

/** The defaults the sandbox starts with, exported so tests and docs can refer to them. */
const SANDBOX_DEFAULTS = {
  host: "127.0.0.1",
  quota: { limit: 30, windowMs: 60_000 },
  balance: { ton: "100", usdt: "1000" },
} as const;

type QuotaSetting = { limit: number; windowMs: number } | false;

function quotaFor(setting: QuotaSetting): SlidingQuota | undefined {
  return setting ? new SlidingQuota(setting.limit, setting.windowMs) : undefined;
}

/** The 429 the service answers once the shared quota is used up. */
function quotaExceeded(retryAfterSeconds: number): Reply {
  return {
    status: 429,
    body: {
      ok: false,
      error: "FLOOD_WAIT",
      reason: `Too many requests: wait ${retryAfterSeconds} s`,
      retry_after: retryAfterSeconds,
    },
    headers: { "retry-after": String(retryAfterSeconds) },
  };
}

/** The running simulator: its state, and how one HTTP request goes through it. */
class SandboxService {
  readonly recorder = new RequestRecorder();
  readonly faults = new FaultQueue();
  readonly recipients = new Recipients();
  readonly session = new MarketplaceSession();
  readonly wallet: Wallet;
  readonly timers = new SandboxTimers();
  readonly held = new HeldAnswers();
  quota: SlidingQuota | undefined;
  closed = false;

  constructor(private readonly options: SandboxOptions) {
    this.wallet = new Wallet(options.balance ?? SANDBOX_DEFAULTS.balance);
    this.quota = quotaFor(options.quota === undefined ? SANDBOX_DEFAULTS.quota : options.quota);
  }

  get state(): ServiceState {
    return { recipients: this.recipients, wallet: this.wallet, session: this.session };
  }

  /** Control endpoints first; every other request is recorded, then answered. */
  async handle(sandbox: Sandbox, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now();
    const url = new URL(req.url ?? "/", "http://sandbox.invalid");
    const raw = await readBody(req);
    if (url.pathname.startsWith("/__sandbox/")) {
      const reply = handleControl(sandbox, req.method ?? "GET", url.pathname, raw, (setting) => {
        this.quota = quotaFor(setting);
      });
      writeReply(res, reply);
      return;
    }
    const request = recordRequest(req, url, raw, at);
    this.recorder.record(request);
    if (raw === undefined) {
      this.quota?.record(at);
      await this.send(res, request, failure(413, "BODY_TOO_LARGE", "The body is too large"));
      return;
    }
    await this.answer(req, res, request);
  }

  /** An injected fault (counted against the quota), else the quota, else the service's answer. */
  private async answer(
    req: IncomingMessage,
    res: ServerResponse,
    request: RecordedRequest,
  ): Promise<void> {
    const fault = this.faults.take(request.path);
    if (fault && fault.type !== "delay" && fault.type !== "hold") {
      this.quota?.record(request.at);
      await this.answerWithFault(fault, req, res, request);
      return;
    }
    const admission = this.quota?.tryAdmit(request.at);
    if (admission && !admission.admitted) {
      await this.send(res, request, quotaExceeded(admission.retryAfterSeconds));
      return;
    }
    if (fault?.type === "delay") await this.timers.sleep(fault.ms);
    if (fault?.type === "hold") await this.held.hold();
    if (this.closed) return;
    await this.send(res, request, answerServiceRequest(request, this.state));
  }

  private async answerWithFault(
    fault: AnswerFault,
    req: IncomingMessage,
    res: ServerResponse,
    request: RecordedRequest,
  ): Promise<void> {
    const answer = answerFault(fault, request, () => answerServiceRequest(request, this.state));
    if (answer === "drop") {
      this.log(`${request.method} ${request.path} -> dropped`);
      req.socket.destroy();
    } else if ("trickleMs" in answer) {
      await this.trickle(res, request, answer.trickleMs);
    } else {
      await this.send(res, request, answer);
    }
  }

  /** Writes a reply after the configured latency, unless the client already left. */
  private async send(res: ServerResponse, request: RecordedRequest, reply: Reply): Promise<void> {
    const latencyMs = this.options.latencyMs ?? 0;
    if (latencyMs > 0) await this.timers.sleep(latencyMs);
    if (res.destroyed) return;
    writeReply(res, reply);
    this.log(`${request.method} ${request.path} -> ${reply.status}`);
  }

  /** Headers and the start of a JSON body, then a byte per interval until the client leaves. */
  private async trickle(
    res: ServerResponse,
    request: RecordedRequest,
    intervalMs: number,
  ): Promise<void> {
    if (res.destroyed) return;
    let gone = false;
    res.once("close", () => {
      gone = true;
    });
    // A write racing the client's disconnect must not crash the sandbox.
    res.on("error", () => {
      gone = true;
    });
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    res.write('{"ok":true,"padding":"');
    this.log(`${request.method} ${request.path} -> 200 (trickling)`);
    // Ends when the client closes the socket or close() destroys it (and clears the timers).
    const open = (): boolean => !gone && !res.destroyed && !this.closed;
    while (open()) {
      await this.timers.sleep(intervalMs);
      if (open()) res.write("x");
    }
  }

  /**
   * Forget requests, faults, users, quota history and expired sessions; the wallet goes back to
   * its start.
   */
  reset(): void {
    this.recorder.clear();
    this.session.reset();
    this.faults.clear();
    this.recipients.clear();
    this.quota?.clear();
    this.wallet.refill();
  }

  private log(line: string): void {
    this.options.log?.(line);
  }
}

/** The `Sandbox` handle tests hold: a thin face over the service and its server. */
function sandboxHandle(service: SandboxService, server: Server): Sandbox {
  return {
    url: "",
    requests: service.recorder.requests,
    purchaseRequests: () =>
      service.recorder.requests.filter((r) => r.method === "POST" && PURCHASE_PATHS.has(r.path)),
    injectFault: (fault, faultOptions) => service.faults.add(fault, faultOptions),
    clearFaults: () => service.faults.clear(),
    setUser: (username, user) => service.recipients.set(username, user),
    setBalance: (balance) => service.wallet.set(balance),
    getBalance: () => service.wallet.get(),
    drainWallet: () => service.wallet.drain(),
    refillWallet: () => service.wallet.refill(),
    expireSession: () => service.session.expire(),
    restoreSession: () => service.session.restore(),
    sessionExpired: () => service.session.state().expired,
    releaseHeld: () => service.held.release(),
    waitForRequests: (count, path) => service.recorder.waitFor(count, path),
    reset: () => service.reset(),
    close: () => closeSandbox(service, server),
  };
}

async function closeSandbox(service: SandboxService, server: Server): Promise<void> {
  if (service.closed) return;
  service.closed = true;
  service.timers.clear();
  service.held.release();
  service.recorder.close();
  const closing = once(server, "close");
  server.close();
  server.closeAllConnections();
  await closing;
}

/** Starts the sandbox on 127.0.0.1 (any free port unless told otherwise). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const service = new SandboxService(options);
  const server = createServer();
  const sandbox = sandboxHandle(service, server);
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    service.handle(sandbox, req, res).catch(() => {
      // Only a bug of the sandbox lands here; answer 500 rather than hang the client.
      if (!res.headersSent && !res.destroyed) {
        writeReply(res, { status: 500, body: { ok: false, error: "SANDBOX_ERROR" } });
      }
    });
  });
  server.listen(options.port ?? 0, options.host ?? SANDBOX_DEFAULTS.host);
  await once(server, "listening");
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  sandbox.url = `http://${host}:${address.port}`;
  return sandbox;
}
