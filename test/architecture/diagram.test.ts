/**
 * docs/architecture.md's rooms diagram is the import graph: every room of src/ is drawn, every
 * import between two rooms is an arrow and every arrow is an import (madge's graph, read
 * folder by folder). A solid arrow means a value is imported, a dotted one (`-.->`) that only
 * types are: the room is handed the other's objects and never builds or calls into it itself.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type Graph, importGraph } from "./graph.js";

/** A file's room: its top folder under src/; the files at the top are the entry points. */
function roomOf(file: string): string {
  const parts = file.split("/");
  return parts.length === 1 ? "(entry points)" : (parts[0] ?? file);
}

/** A diagram node's room: its id, `_` for `-` (Mermaid ids), `entry` for the entry points. */
function roomOfNode(id: string): string {
  return id === "entry" ? "(entry points)" : id.replaceAll("_", "-");
}

interface Rooms {
  rooms: string[];
  /** `from -> to`, sorted. */
  arrows: string[];
  typeOnly: string[];
}

function arrowsOf(graph: Graph): Set<string> {
  const arrows = new Set<string>();
  for (const [file, imports] of Object.entries(graph)) {
    for (const imported of imports) {
      if (roomOf(file) !== roomOf(imported)) arrows.add(`${roomOf(file)} -> ${roomOf(imported)}`);
    }
  }
  return arrows;
}

/** The rooms and their arrows as madge reads src/. */
async function codeRooms(): Promise<Rooms> {
  const all = await importGraph(true);
  const values = arrowsOf(await importGraph(false));
  const arrows = [...arrowsOf(all)];
  return {
    rooms: [...new Set(Object.keys(all).map(roomOf))].sort(),
    arrows: arrows.filter((arrow) => values.has(arrow)).sort(),
    typeOnly: arrows.filter((arrow) => !values.has(arrow)).sort(),
  };
}

/**
 * The rooms and arrows of the first Mermaid flowchart under `## The rooms`: nodes `id["label"]`,
 * arrows `a --> b & c` (solid) and `a -.-> b` (dotted), one statement a line.
 */
function drawnRooms(markdown: string): Rooms {
  const section = markdown.slice(markdown.indexOf("## The rooms"));
  const chart = /```mermaid\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  const rooms = new Set<string>();
  const arrows = new Set<string>();
  const typeOnly = new Set<string>();
  const node = /^\s*([A-Za-z_]+)(?:\[[^\]]*\])?\s*/;
  for (const line of chart.split("\n").slice(1)) {
    const from = node.exec(line);
    if (from?.[1] === undefined) continue;
    rooms.add(roomOfNode(from[1]));
    const link = /^(-->|-\.->)\s*(.*)$/.exec(line.slice(from[0].length));
    if (link === null) continue;
    for (const target of (link[2] ?? "").split("&")) {
      const to = node.exec(target)?.[1];
      if (to === undefined) continue;
      rooms.add(roomOfNode(to));
      const arrow = `${roomOfNode(from[1])} -> ${roomOfNode(to)}`;
      (link[1] === "-->" ? arrows : typeOnly).add(arrow);
    }
  }
  return { rooms: [...rooms].sort(), arrows: [...arrows].sort(), typeOnly: [...typeOnly].sort() };
}

describe("docs/architecture.md's rooms diagram", () => {
  it("draws every room of src/ and exactly the imports between them, types only dotted", async () => {
    const drawn = drawnRooms(readFileSync("docs/architecture.md", "utf8"));
    expect(drawn).toEqual(await codeRooms());
  });

  it("reads nodes, solid and dotted arrows, and several targets of one arrow", () => {
    const chart = [
      "## The rooms",
      "```mermaid",
      "flowchart TD",
      '  entry["main.ts<br/>(entry points)"] --> app',
      '  app["app"] --> bot & admin_app["admin-app"]',
      "  bot -.-> ledger",
      '  ledger["ledger"]',
      '  types["types"]',
      "```",
    ].join("\n");
    expect(drawnRooms(chart)).toEqual({
      rooms: ["(entry points)", "admin-app", "app", "bot", "ledger", "types"],
      arrows: ["(entry points) -> app", "app -> admin-app", "app -> bot"],
      typeOnly: ["bot -> ledger"],
    });
  });
});
