// The admins' Mini App page (src/admin-app/page): its TypeScript and CSS bundled with uPlot into
// dist/src/admin-app/page/app.js and app.css, which the bot serves itself (nothing from another
// origin). Run by scripts/build-if-stale.mjs after tsc. Plain JavaScript: it runs before anything
// is built.
import { join } from "node:path";
import { fileURLToPath, URL } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Bundles the page; throws (esbuild prints why) when it does not build. */
export async function buildAdminPage() {
  await build({
    entryPoints: { app: join(root, "src", "admin-app", "page", "main.ts") },
    outdir: join(root, "dist", "src", "admin-app", "page"),
    bundle: true,
    format: "esm",
    // Telegram's in-app browsers of the last years (Android WebView, iOS WKWebView, desktop)
    // run ES2022 (class private fields) natively.
    target: "es2022",
    minify: true,
    sourcemap: false,
    // uPlot's licence notice stays with its code.
    legalComments: "eof",
    logLevel: "warning",
  });
}
