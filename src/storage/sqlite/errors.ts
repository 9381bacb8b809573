/**
 * Why the database cannot be used at all, told at start with one line and an exit code of its
 * own (see main.ts and docs/operations.md "Backups and restore"), rather than a stack trace: a
 * damaged file needs a restore, a file from a newer bot needs that bot (or a restore), and
 * neither is mended by a restart.
 */

/** The file is not a SQLite database any more, or SQLite's quick check finds it damaged. */
export class DatabaseDamagedError extends Error {
  override readonly name = "DatabaseDamagedError";
  /** The exit code `main` ends with. */
  static readonly exitCode = 3;

  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`the database ${path} is damaged (${detail})`);
  }
}

/** The file's schema is newer than this build's migrations: a newer bot wrote it. */
export class DatabaseTooNewError extends Error {
  override readonly name = "DatabaseTooNewError";
  static readonly exitCode = 4;

  constructor(
    readonly path: string,
    readonly version: number,
    readonly known: number,
  ) {
    super(
      `the database ${path} has schema version ${version}, newer than this bot knows (${known}): it was written by a newer version of the bot`,
    );
  }
}
