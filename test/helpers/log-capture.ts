/**
 * The bot's own logger (src/shared/logger.ts, with its scrubbing serializer) writing into
 * memory: every line a test's code logs, as written, to search for secrets or read as JSON.
 */
import { Writable } from "node:stream";
import { createLogger, type Logger } from "../../src/shared/logger.js";

export interface CapturedLogs {
  logger: Logger;
  /** Each line as pino wrote it (JSON text). */
  lines: string[];
  /** The lines parsed. */
  records: () => Record<string, unknown>[];
}

export function capturingLogger(level: "trace" | "debug" | "info" = "trace"): CapturedLogs {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString("utf8"));
      done();
    },
  });
  return {
    logger: createLogger({ level, destination }),
    lines,
    records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
