/**
 * A real Chromium from npm alone: `@sparticuz/chromium` ships the browser inside its package
 * (unpacked to the temporary folder on first use) and `playwright-core` drives it; nothing from
 * apt, nothing downloaded. Used by the admin app's tests and the bench; the caller closes it
 * (`close()` ends the browser and every process it started).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import sparticuz from "@sparticuz/chromium";
import { type Browser, chromium, type Page } from "playwright-core";

/**
 * The package's flags (headless, no sandbox: tests run as root) but one process per role: its
 * --single-process (for AWS Lambda) ends the whole browser when a context closes.
 */
const PACKAGE_ARGS = sparticuz.args.filter(
  (arg) => arg !== "--single-process" && arg !== "--no-zygote",
);

/** Quiet, local-only flags on top of the package's own. */
const EXTRA_ARGS = [
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-default-apps",
  "--disable-sync",
  "--metrics-recording-only",
  "--no-first-run",
  "--mute-audio",
];

export interface LocalBrowser {
  browser: Browser;
  /** A page of `width`×`height` CSS pixels (a phone held upright by default). */
  newPage(size?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/** The package's folder (node_modules/@sparticuz/chromium) and its version. */
function chromiumPackage(): { dir: string; version: string } {
  let dir = dirname(fileURLToPath(import.meta.resolve("@sparticuz/chromium")));
  for (let depth = 0; depth < 5; depth++, dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (!existsSync(file)) continue;
    const found = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
    if (found.name === "@sparticuz/chromium" && found.version !== undefined) {
      return { dir, version: found.version };
    }
  }
  throw new Error("@sparticuz/chromium's package.json was not found: run npm ci");
}

/**
 * The unpacked browser, in node_modules/.cache (the package unpacks to the temporary folder,
 * which a test run must leave empty): unpacked once per version, into a folder of this process
 * first and then renamed into place, so two test workers never read a half-written binary.
 */
async function chromiumPath(): Promise<string> {
  const { dir, version } = chromiumPackage();
  const cache = join(dir, "..", "..", ".cache", `sparticuz-chromium-${version}`);
  const binary = join(cache, "chromium");
  if (existsSync(binary)) return binary;
  const staging = `${cache}.unpacking-${process.pid}`;
  mkdirSync(staging, { recursive: true });
  const tmp = process.env.TMPDIR;
  // The package unpacks into os.tmpdir(), which reads TMPDIR at each call.
  process.env.TMPDIR = staging;
  try {
    await sparticuz.executablePath();
  } finally {
    if (tmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmp;
  }
  try {
    renameSync(staging, cache);
  } catch {
    // Another process put it in place first.
    rmSync(staging, { recursive: true, force: true });
  }
  return binary;
}

export async function launchBrowser(): Promise<LocalBrowser> {
  const executablePath = await chromiumPath();
  const browser = await chromium.launch({
    executablePath,
    args: [...PACKAGE_ARGS, ...EXTRA_ARGS],
    headless: true,
    // The test's environment goes with it (the leftover check finds it by its marker).
    env: { ...process.env },
  });
  return {
    browser,
    newPage: async (size = { width: 420, height: 860 }) => {
      // A locale of its own: the environment's (C, POSIX) is no valid language tag in a page.
      const context = await browser.newContext({
        viewport: size,
        deviceScaleFactor: 1,
        locale: "en-US",
      });
      return context.newPage();
    },
    close: () => browser.close(),
  };
}
