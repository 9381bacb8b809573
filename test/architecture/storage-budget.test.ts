/**
 * The store's size and shape (issue #36): src/storage at most 3,900 lines, every file under it
 * counted (the .ts and the .sql migrations) as `find src/storage -type f | xargs wc -l` counts
 * them; no file of one database driver importing the other's, read from the source text (so a
 * type-only or dynamic import counts too); and the claim's conditions written in one place.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const STORAGE = "src/storage";
const MAX_LINES = 3_900;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** As `wc -l`: the newline characters. */
function lineCount(path: string): number {
  return readFileSync(path, "utf8").split("\n").length - 1;
}

/** Every module a file names: `import … from`, `export … from`, `import "…"`, `import("…")`. */
function specifiersOf(path: string): string[] {
  const text = readFileSync(path, "utf8");
  const found = text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g);
  return [...found].map((match) => match[1] ?? "");
}

/**
 * The claim's conditions, each by a piece of SQL only it holds: where the claim's one UPDATE is
 * built (src/storage/ledger/claims.ts), and the day's running totals the limits add to, looked
 * up by the one builder the claim and the usage shown to people share (queries.ts `spent`).
 */
const CLAIM_CONDITIONS: Record<string, { sql: string; file: string }> = {
  "not paused": { sql: "AND value = 'true'", file: "src/storage/ledger/claims.ts" },
  "nothing unconfirmed": {
    sql: "WHERE o.status = 'unconfirmed'",
    file: "src/storage/ledger/claims.ts",
  },
  "nothing sending": { sql: "WHERE s.status = 'sending'", file: "src/storage/ledger/claims.ts" },
  "the fence: this process holds the sender lease": {
    sql: "owner = @fenceOwner",
    file: "src/storage/ledger/claims.ts",
  },
  "each spending limit, from the one table": {
    sql: "LIMIT_RULES.map(limitCondition)",
    file: "src/storage/ledger/claims.ts",
  },
  "what the limits have counted today": {
    sql: "FROM daily_spending",
    file: "src/storage/ledger/queries.ts",
  },
};

describe("src/storage", () => {
  it(`is at most ${MAX_LINES} lines, its .ts and .sql files together`, () => {
    const total = filesUnder(STORAGE).reduce((sum, file) => sum + lineCount(file), 0);
    expect(total).toBeLessThanOrEqual(MAX_LINES);
  });

  it("has no file of one driver importing a file of the other", () => {
    const crossings = (["sqlite", "postgres"] as const).flatMap((driver) => {
      const other = resolve(STORAGE, driver === "sqlite" ? "postgres" : "sqlite");
      return filesUnder(join(STORAGE, driver)).flatMap((file) =>
        specifiersOf(file)
          .filter((specifier) => specifier.startsWith("."))
          .filter((specifier) => resolve(dirname(file), specifier).startsWith(`${other}/`))
          .map((specifier) => `${file} -> ${specifier}`),
      );
    });
    expect(crossings).toEqual([]);
  });

  it("writes each of the claim's conditions once, in one place", () => {
    const sources = filesUnder("src")
      .filter((file) => file.endsWith(".ts"))
      .map((file) => ({ file, text: readFileSync(file, "utf8") }));
    const where = Object.fromEntries(
      Object.entries(CLAIM_CONDITIONS).map(([condition, { sql }]) => [
        condition,
        sources.flatMap(({ file, text }) => Array<string>(text.split(sql).length - 1).fill(file)),
      ]),
    );
    const expected = Object.fromEntries(
      Object.entries(CLAIM_CONDITIONS).map(([condition, { file }]) => [condition, [file]]),
    );
    expect(where).toEqual(expected);
  });

  it("keeps PostgreSQL's casts (`::`) in its driver: the store's SQL is what both speak", () => {
    const casts = filesUnder(STORAGE)
      .filter((file) => file.endsWith(".ts") && !file.startsWith(join(STORAGE, "postgres")))
      .filter((file) => /::[a-z]/i.test(readFileSync(file, "utf8")));
    expect(casts).toEqual([]);
  });
});
