import { GrammyError, HttpError } from "grammy";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createLogger } from "../src/shared/logger.js";
import { capturingLogger } from "./helpers/log-capture.js";

const TOKEN = "1234567890:canary-token-not-real-canary-token_xyz";

describe("logger", () => {
  it("writes the process's stdout synchronously, so the last lines of a stop keep their order", () => {
    // An asynchronous stdout let "stopped cleanly" overtake "stopped: database closed" at exit.
    const logger = createLogger() as unknown as Record<symbol, { sync?: boolean; fd?: number }>;
    const stream = logger[pino.symbols.streamSym];
    expect(stream?.fd).toBe(1);
    expect(stream?.sync).toBe(true);
  });

  it("never prints a bot token held inside grammY's network error", () => {
    const { lines, logger } = capturingLogger();
    const inner = new Error(`request to https://api.telegram.org/bot${TOKEN}/sendMessage failed`);
    const httpError = new HttpError("Network request for 'sendMessage' failed!", inner);
    logger.error({ err: httpError }, "failed");
    logger.warn({ error: inner }, "failed again");
    const output = lines.join("\n");
    expect(output).not.toContain(TOKEN);
    expect(output).toContain("Network request for 'sendMessage' failed!");
    expect(output).toContain("/bot[redacted]/sendMessage failed");
  });

  it("keeps the useful part of an API error and redacts secret-named fields", () => {
    const { lines, logger } = capturingLogger();
    const apiError = new GrammyError(
      "Call to 'sendMessage' failed!",
      { ok: false, error_code: 400, description: "Bad Request: chat not found" },
      "sendMessage",
      { chat_id: 1, text: "hi" },
    );
    logger.error({ err: apiError, token: TOKEN, headers: { mnemonic: "w1 w2" } }, "api");
    const output = lines.join("\n");
    expect(output).toContain("chat not found");
    expect(output).not.toContain(TOKEN);
    expect(output).not.toContain("w1 w2");
  });

  it("never prints a database URL's password, in a field or inside an error's text", () => {
    const { lines, logger } = capturingLogger();
    const url = "postgres://giftbot:pg-canary-password@db.internal:5432/giftbot";
    logger.error({ err: new Error(`could not connect to ${url}`), databaseUrl: url }, "db");
    logger.info({ options: { connectionString: url } }, "pool");
    const output = lines.join("\n");
    expect(output).not.toContain("pg-canary-password");
    expect(output).toContain("postgres://giftbot:[redacted]@db.internal");
  });
});
