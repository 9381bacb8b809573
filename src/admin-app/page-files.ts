/**
 * The page's files: its HTML (written here: nothing in it needs building) and the script and
 * stylesheet the build bundles from src/admin-app/page with uPlot (scripts/build-admin-page.mjs,
 * run by `npm run build`), read once into memory. Nothing is loaded from another origin.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface PageFile {
  type: string;
  body: Buffer;
}

/** The built bundle's folder, relative to the repository (or the image's /app). */
const BUILT = join("dist", "src", "admin-app", "page");

/**
 * The bundle's folder: beside this module when it runs from dist/, else the repository's
 * dist/ (tests and `npm run dev` run the sources with tsx).
 */
function bundleDirectory(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  if (existsSync(join(here, "page", "app.js"))) return join(here, "page");
  let dir = here;
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(dir, BUILT);
    if (existsSync(join(candidate, "app.js"))) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`The admin app's page (${BUILT}/app.js) is not built: run npm run build.`);
}

/**
 * The page: a module script and a stylesheet of our own origin, no inline script or style
 * (the Content-Security-Policy allows none). The page writes its own title and texts.
 */
const HTML = `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title></title>
<link rel="stylesheet" href="app.css">
<script type="module" src="app.js"></script>
</head>
<body><main id="app" aria-busy="true"></main></body>
</html>
`;

/** The page's files by name (`""` is the page itself). */
export function loadPageFiles(): Map<string, PageFile> {
  const dir = bundleDirectory();
  return new Map<string, PageFile>([
    ["", { type: "text/html; charset=utf-8", body: Buffer.from(HTML) }],
    ["app.js", { type: "text/javascript; charset=utf-8", body: readFileSync(join(dir, "app.js")) }],
    ["app.css", { type: "text/css; charset=utf-8", body: readFileSync(join(dir, "app.css")) }],
  ]);
}
