/**
 * The sandbox's HTTP control endpoints under `/__sandbox/`, so the demo and end-to-end tests can
 * steer a sandbox that runs as another process the same way in-process tests use the `Sandbox`
 * object. Secret header values are masked in what these endpoints return, so an e2e test that
 * prints recorded requests cannot leak a real mnemonic or cookie.
 */
import { z } from "zod";
import type { RecordedRequest, Sandbox } from "./types.js";

/** A cap on the `huge` fault over HTTP, so a control call cannot exhaust the sandbox's memory. */
const HUGE_MAX_BYTES = 64 * 1024 * 1024;

const faultSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("status"),
    status: z.number().int().min(100).max(599),
    body: z.unknown().optional(),
    headers: z.record(z.string(), z.string()).optional(),
  }),
  z.object({ type: z.literal("delay"), ms: z.number().int().min(0) }),
  z.object({ type: z.literal("drop"), executed: z.boolean().optional() }),
  z.object({ type: z.literal("malformed"), executed: z.boolean().optional() }),
  z.object({ type: z.literal("unconfirmed"), executed: z.boolean().optional() }),
  z.object({
    type: z.literal("huge"),
    bytes: z.number().int().min(1).max(HUGE_MAX_BYTES).optional(),
    executed: z.boolean().optional(),
  }),
  z.object({
    type: z.literal("trickle"),
    intervalMs: z.number().int().min(1).optional(),
    executed: z.boolean().optional(),
  }),
]);

const injectSchema = z.object({
  fault: faultSchema,
  path: z.string().optional(),
  times: z.number().int().min(1).optional(),
});

const userSchema = z.object({
  username: z.string().min(1),
  exists: z.boolean().optional(),
  isPremium: z.boolean().optional(),
});

const decimal = z.string().regex(/^\d+(?:\.\d{1,9})?$/);
const balanceSchema = z.object({ ton: decimal, usdt: decimal });
const quotaSchema = z.union([
  z.literal(false),
  z.object({ limit: z.number().int().min(1), windowMs: z.number().int().min(1) }),
]);

/** Header names whose values are secrets (docs/service-contract.md §10). */
const SECRET_HEADERS: ReadonlySet<string> = new Set(["mnemonic", "cookie", "proxy", "api-key"]);

/** A recorded request with secret header values replaced, for output over HTTP. */
function maskRequest(request: RecordedRequest): RecordedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = SECRET_HEADERS.has(name) ? "[redacted]" : value;
  }
  return { ...request, headers };
}

/** What a control endpoint answers. */
export interface ControlReply {
  status: number;
  body: unknown;
}

/**
 * Routes a control request. Endpoints:
 * GET requests · POST faults {fault, path?, times?} · DELETE faults · POST users
 * {username, exists?, isPremium?} · GET/POST balance {ton, usdt} · POST wallet/drain · POST
 * wallet/refill · GET session · POST session/expire · POST session/restore · POST quota
 * {limit, windowMs}|false · POST reset.
 */
export function handleControl(
  sandbox: Sandbox,
  method: string,
  path: string,
  raw: string | undefined,
  setQuota: (quota: { limit: number; windowMs: number } | false) => void,
): ControlReply {
  const route = `${method} ${path.replace(/\/+$/, "")}`;
  let json: unknown;
  if (method === "POST") {
    try {
      json = raw ? JSON.parse(raw) : undefined;
    } catch {
      return { status: 400, body: { ok: false, error: "control bodies are JSON" } };
    }
  }
  const parsed = <T>(schema: z.ZodType<T>): T | ControlReply => {
    const result = schema.safeParse(json);
    return result.success
      ? result.data
      : { status: 400, body: { ok: false, error: z.prettifyError(result.error) } };
  };
  const isReply = (value: unknown): value is ControlReply =>
    typeof value === "object" && value !== null && "status" in value && "body" in value;

  switch (route) {
    case "GET /__sandbox/requests":
      return { status: 200, body: { ok: true, requests: sandbox.requests.map(maskRequest) } };
    case "POST /__sandbox/faults": {
      const input = parsed(injectSchema);
      if (isReply(input)) return input;
      sandbox.injectFault(input.fault, { path: input.path, times: input.times });
      return { status: 200, body: { ok: true } };
    }
    case "DELETE /__sandbox/faults":
      sandbox.clearFaults();
      return { status: 200, body: { ok: true } };
    case "POST /__sandbox/users": {
      const input = parsed(userSchema);
      if (isReply(input)) return input;
      sandbox.setUser(input.username, { exists: input.exists, isPremium: input.isPremium });
      return { status: 200, body: { ok: true } };
    }
    case "GET /__sandbox/balance":
      return { status: 200, body: { ok: true, ...sandbox.getBalance() } };
    case "POST /__sandbox/balance": {
      const input = parsed(balanceSchema);
      if (isReply(input)) return input;
      sandbox.setBalance(input);
      return { status: 200, body: { ok: true } };
    }
    case "POST /__sandbox/wallet/drain":
      sandbox.drainWallet();
      return { status: 200, body: { ok: true, ...sandbox.getBalance() } };
    case "POST /__sandbox/wallet/refill":
      sandbox.refillWallet();
      return { status: 200, body: { ok: true, ...sandbox.getBalance() } };
    case "GET /__sandbox/session":
      return { status: 200, body: { ok: true, expired: sandbox.sessionExpired() } };
    case "POST /__sandbox/session/expire":
      sandbox.expireSession();
      return { status: 200, body: { ok: true, expired: true } };
    case "POST /__sandbox/session/restore":
      sandbox.restoreSession();
      return { status: 200, body: { ok: true, expired: false } };
    case "POST /__sandbox/quota": {
      const input = parsed(quotaSchema);
      if (isReply(input)) return input;
      setQuota(input);
      return { status: 200, body: { ok: true } };
    }
    case "POST /__sandbox/reset":
      sandbox.reset();
      return { status: 200, body: { ok: true } };
    default:
      return { status: 404, body: { ok: false, error: "unknown control endpoint" } };
  }
}
