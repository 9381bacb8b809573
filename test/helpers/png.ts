/**
 * What a screenshot shows, roughly: how many colours and how much of it is one colour. The
 * browser decodes the PNG (a blank page of its own, no policy of ours), so no decoder is needed
 * here; a blank or one-colour screenshot has few colours and one of them everywhere.
 */
import { readFileSync } from "node:fs";
import type { LocalBrowser } from "../../tools/testing/browser.js";

export interface PixelStats {
  /** Distinct colours (each channel rounded to 16 levels, so antialiasing counts little). */
  colours: number;
  /** The share of pixels of `hex` (`#rrggbb`, within the same rounding). */
  share(hex: string): number;
}

/**
 * Runs in the page (written as text: this project's TypeScript knows Node's globals, not the
 * browser's): the PNG drawn on a canvas, its colours counted.
 */
const COUNT_COLOURS = `async (base64) => {
  const image = new Image();
  image.src = "data:image/png;base64," + base64;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const found = {};
  for (let i = 0; i < data.length; i += 4) {
    const key = (data[i] >> 4) + "," + (data[i + 1] >> 4) + "," + (data[i + 2] >> 4);
    found[key] = (found[key] || 0) + 1;
  }
  return { found, total: data.length / 4 };
}`;

export async function pixelStats(browser: LocalBrowser, png: Buffer | string): Promise<PixelStats> {
  const bytes = typeof png === "string" ? readFileSync(png) : png;
  const page = await browser.newPage();
  try {
    const counts = await page.evaluate<{ found: Record<string, number>; total: number }>(
      `(${COUNT_COLOURS})(${JSON.stringify(bytes.toString("base64"))})`,
    );
    return {
      colours: Object.keys(counts.found).length,
      share: (hex) => {
        const value = parseInt(hex.slice(1), 16);
        const key = [(value >> 16) & 255, (value >> 8) & 255, value & 255]
          .map((v) => v >> 4)
          .join(",");
        return (counts.found[key] ?? 0) / counts.total;
      },
    };
  } finally {
    await page.context().close();
  }
}
