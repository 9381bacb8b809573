/**
 * The last 30 days, drawn with uPlot (bundled into the page's script; nothing from another
 * origin): the gifts, stars and Premium months delivered per day, and what they cost in each
 * of the wallet's currencies.
 */
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { type PageContext, text } from "./context.js";
import { h } from "./dom.js";
import type { Day } from "./types.js";

const HEIGHT = 180;

/** Two charts (what was delivered; what it cost), in `parent`, sized to its width. */
export function drawSpending(context: PageContext, parent: HTMLElement, days: Day[]): void {
  const width = Math.max(280, parent.clientWidth - 8);
  const x = days.map((day) => Date.parse(`${day.day}T00:00:00Z`) / 1000);
  const style = getComputedStyle(document.documentElement);
  const color = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const axis = { stroke: color("--text", "#000"), grid: { stroke: color("--grid", "#ddd") } };
  const bars = uPlot.paths.bars?.({ size: [0.6, 40] });
  const gifts = h("div", { className: "chart", "data-chart": "gifts" });
  const spent = h("div", { className: "chart", "data-chart": "spent" });
  parent.replaceChildren(gifts, spent);
  new uPlot(
    {
      width,
      height: HEIGHT,
      scales: { x: { time: true }, count: {}, stars: {} },
      axes: [axis, { ...axis, scale: "count" }, { ...axis, scale: "stars", side: 1 }],
      series: [
        {},
        {
          label: text(context, "app-chart-gifts"),
          scale: "count",
          fill: color("--accent-soft", "#2481cc55"),
          stroke: color("--accent", "#2481cc"),
          ...(bars === undefined ? {} : { paths: bars }),
        },
        { label: text(context, "app-chart-premium"), scale: "count", stroke: "#9b59b6", width: 2 },
        { label: text(context, "app-chart-stars"), scale: "stars", stroke: "#f5a623", width: 2 },
      ],
    },
    [x, days.map((d) => d.gifts), days.map((d) => d.premiumMonths), days.map((d) => d.stars)],
    gifts,
  );
  new uPlot(
    {
      width,
      height: HEIGHT,
      scales: { x: { time: true } },
      axes: [axis, axis],
      series: [
        {},
        { label: text(context, "app-chart-ton"), stroke: "#0098ea", width: 2 },
        { label: text(context, "app-chart-usdt"), stroke: "#26a17b", width: 2 },
      ],
    },
    [x, days.map((d) => Number(d.spent.ton)), days.map((d) => Number(d.spent.usdt))],
    spent,
  );
}
