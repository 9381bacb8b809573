/**
 * The schema's migrations: numbered `.sql` files, one per step, applied in order and never
 * edited once shipped (a database written by an older version is migrated, not dropped), in the
 * layout of graphile-worker's. A step's file is `migrations/NNNN_name.sql`, shared by both
 * databases (write BIGINT for times and ids: SQLite reads it as INTEGER), or
 * `migrations/<dialect>/NNNN_name.sql` where the two truly differ, which then stands for that
 * number on that database. Its first line (`-- name`) names it; a line `-- rebuilds tables`
 * marks a SQLite step that rebuilds a table others reference (./sqlite/driver.ts).
 *
 * History: the steps before the stores were one are per dialect. SQLite's 1 to 11 made the
 * schema step by step; PostgreSQL's 1 to 3 made the same schema at once (its 2 and 3 are
 * SQLite's 2 to 11), so PostgreSQL has no steps 4 to 11, and from 12 on both share the numbers.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { Dialect } from "./db/dialect.js";

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** SQLite: foreign keys are switched off around it and checked before it commits. */
  rebuildsTables: boolean;
}

const FOLDER = new URL("./migrations/", import.meta.url);
const FILE_NAME = /^(\d{4})_[a-z0-9_]+\.sql$/;

/** The numbered files of one folder, by version. */
function stepsIn(folder: URL): Map<number, URL> {
  const steps = new Map<number, URL>();
  for (const name of readdirSync(folder)) {
    const match = FILE_NAME.exec(name);
    if (match?.[1] !== undefined) steps.set(Number(match[1]), new URL(name, folder));
  }
  return steps;
}

const known = new Map<Dialect["name"], readonly Migration[]>();

/** Every step for `dialect`, oldest first (read from the files once). */
export function migrationsFor(dialect: Dialect["name"]): readonly Migration[] {
  let list = known.get(dialect);
  if (list === undefined) {
    const steps = new Map([...stepsIn(FOLDER), ...stepsIn(new URL(`${dialect}/`, FOLDER))]);
    list = [...steps.entries()]
      .sort(([a], [b]) => a - b)
      .map(([version, file]) => {
        const sql = readFileSync(file, "utf8");
        const name = /^-- (.+)$/m.exec(sql)?.[1] ?? file.pathname;
        return { version, name, sql, rebuildsTables: /^-- rebuilds tables$/m.test(sql) };
      });
    known.set(dialect, list);
  }
  return list;
}

/** The newest schema version this build knows for `dialect`. */
export function latestVersion(dialect: Dialect["name"]): number {
  return migrationsFor(dialect).at(-1)?.version ?? 0;
}
