/**
 * zod schemas of the service's bodies (docs/service-contract.md §3.1, §4). Every object schema is
 * loose: the service says clients preserve unknown fields, and the ledger stores whole bodies as
 * evidence.
 */
import { z } from "zod";

/** Failure body (2.4); the typed fields are checked, everything else is kept as sent. */
export const failureBodySchema = z
  .object({
    ok: z.literal(false),
    error: z.string().optional(),
    reason: z.string().optional(),
    info: z.unknown().optional(),
    retry_after: z.number().int().min(0).optional(),
    flood_wait: z.number().int().min(0).optional(),
    tx_hash: z.string().optional(),
    transient: z.boolean().optional(),
    unconfirmed: z.boolean().optional(),
    insufficient: z.unknown().optional(),
    price_guard: z.unknown().optional(),
  })
  .loose();

/** User-info result (2.2). `ok: false` on 200 means "no such account". */
export const userInfoSchema = z
  .object({
    ok: z.boolean(),
    username: z.string().optional(),
    is_premium: z.boolean().optional(),
  })
  .loose();

/** Purchase success (2.3): only `ok: true` is success; `data` is an object when present. */
export const purchaseSuccessSchema = z
  .object({
    ok: z.literal(true),
    tx_hash: z.string().optional(),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();

/** Any JSON object: the least a body must be to be interpreted at all. */
export const objectBodySchema = z.record(z.string(), z.unknown());
