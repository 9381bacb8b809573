// The build step of `npm start` and `npm run build`. Before `npm start` it compiles only when a
// compiled file could be out of date, so a start on an unchanged checkout goes straight to
// `node dist/src/main.js` (tsc alone takes seconds on a small server, even with nothing to do).
// Plain JavaScript: it must run before anything is built.
//
// Out of date means: no `dist/src/main.js`, no stamp, or anything the build reads (a file or a
// folder under `src/` or `tools/`, the tsconfig files, package.json) changed after the last build
// this script ran. A folder's time moves when a file is added, removed or renamed in it, so a
// deleted source file counts too. The compile itself is incremental (tsconfig.build.json keeps
// its tsbuildinfo in `dist/`), so a stale build redoes only what changed.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath, URL } from "node:url";
import { buildAdminPage } from "./build-admin-page.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const stamp = join(root, "dist", ".build-stamp");
const inputs = ["src", "tools", "tsconfig.json", "tsconfig.build.json", "package.json"];

/** The newest modification time (ms) of a path and, for a folder, of everything in it. */
function newest(path) {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return 0;
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = stats.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

function isStale() {
  if (!existsSync(join(root, "dist", "src", "main.js"))) return true;
  const built = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return true;
  return inputs.some((input) => newest(join(root, input)) > built);
}

// `npm run build` passes --always: it compiles (incrementally) whatever the stamp says.
if (process.argv.includes("--always") || isStale()) {
  // The stamp is written only after a successful compile, and dated from before it started, so
  // a file saved during the compile makes the next start compile again.
  const startedAt = new Date();
  // A compile takes seconds (a first one about ten): say so, on stderr, which `npm start`'s
  // JSON log lines do not share.
  process.stderr.write("Compiling the TypeScript sources (tsc)…\n");
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // The schema's migrations are .sql files read at run time (src/storage/migrations.ts): tsc
  // compiles only TypeScript, so they are copied beside the compiled code, a removed one too.
  const migrations = join("src", "storage", "migrations");
  rmSync(join(root, "dist", migrations), { recursive: true, force: true });
  cpSync(join(root, migrations), join(root, "dist", migrations), { recursive: true });
  // The admins' Mini App page, bundled for the browser (about a tenth of a second).
  try {
    await buildAdminPage();
  } catch {
    process.exit(1);
  }
  const seconds = ((Date.now() - startedAt.getTime()) / 1000).toFixed(1);
  process.stderr.write(`Compiled in ${seconds} s.\n`);
  writeFileSync(stamp, `${startedAt.toISOString()}\n`);
  utimesSync(stamp, startedAt, startedAt);
}
