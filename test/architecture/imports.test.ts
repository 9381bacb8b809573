/**
 * The rooms of src/ and their doors, checked on the import graph (madge, the same graph
 * `npx madge --circular --extensions ts src` prints): no cycle between files, no two folders
 * that import each other, the ledger's vocabulary free of any store, the two database drivers
 * apart from each other and from the store written once over them, and the bot reaching the
 * ledger and the stores through types only (it buys through the desk, reads through the
 * records), and the admins' app (src/admin-app) on the purchases room alone.
 */
import madge from "madge";
import { describe, expect, it } from "vitest";

type Graph = Record<string, string[]>;

async function importGraph(typesToo: boolean): Promise<Graph> {
  const result = await madge("src", {
    fileExtensions: ["ts"],
    tsConfig: "tsconfig.json",
    detectiveOptions: { ts: { skipTypeImports: !typesToo } },
  });
  return result.obj();
}

/** A file's room: its top folder under src/, and in src/bot its feature folder. */
function roomOf(file: string): string {
  const parts = file.split("/");
  if (parts.length === 1) return "(entry points)";
  if (parts[0] === "bot" && parts.length > 2) return `bot/${parts[1]}`;
  return parts[0] ?? file;
}

/** Pairs of rooms with an import each way; the bot's own root (its kit) is left out. */
function mutualRooms(graph: Graph): string[] {
  const arrows = new Set<string>();
  for (const [file, imports] of Object.entries(graph)) {
    for (const imported of imports) {
      const from = roomOf(file);
      const to = roomOf(imported);
      if (from !== to) arrows.add(`${from} -> ${to}`);
    }
  }
  const mutual: string[] = [];
  for (const arrow of arrows) {
    const [from = "", to = ""] = arrow.split(" -> ");
    if (from === "bot" || to === "bot") continue;
    if (from < to && arrows.has(`${to} -> ${from}`)) mutual.push(`${from} <-> ${to}`);
  }
  return mutual;
}

function importsInto(graph: Graph, fromPrefix: string, toPrefixes: string[]): string[] {
  return Object.entries(graph).flatMap(([file, imports]) =>
    file.startsWith(fromPrefix)
      ? imports
          .filter((imported) => toPrefixes.some((prefix) => imported.startsWith(prefix)))
          .map((imported) => `${file} -> ${imported}`)
      : [],
  );
}

describe("the import graph of src/", () => {
  it("has no cycle, and no two rooms import each other", async () => {
    const result = await madge("src", { fileExtensions: ["ts"], tsConfig: "tsconfig.json" });
    expect(result.circular()).toEqual([]);
    expect(mutualRooms(await importGraph(true))).toEqual([]);
  });

  it("keeps the ledger's vocabulary free of every store", async () => {
    expect(importsInto(await importGraph(true), "ledger/", ["storage/"])).toEqual([]);
  });

  it("keeps each database driver apart: nothing under one imports the other's", async () => {
    const graph = await importGraph(true);
    expect(importsInto(graph, "storage/sqlite/", ["storage/postgres/"])).toEqual([]);
    expect(importsInto(graph, "storage/postgres/", ["storage/sqlite/"])).toEqual([]);
    // The store written once over the port knows neither driver.
    const shared = Object.fromEntries(
      Object.entries(graph).filter(
        ([file]) =>
          file.startsWith("storage/") &&
          !file.startsWith("storage/sqlite/") &&
          !file.startsWith("storage/postgres/"),
      ),
    );
    expect(importsInto(shared, "storage/", ["storage/sqlite/", "storage/postgres/"])).toEqual([]);
  });

  it("lets the bot reach the ledger and the stores through types only", async () => {
    expect(importsInto(await importGraph(false), "bot/", ["ledger/", "storage/"])).toEqual([]);
  });

  it("keeps the admins' app on the purchases room: never the bot, a store, the service or SQL", async () => {
    const rooms = ["bot/", "storage/", "service/", "run/", "app/", "access/", "metrics/"];
    expect(importsInto(await importGraph(true), "admin-app/", rooms)).toEqual([]);
    // The purchases and the ledger's vocabulary, as types: it is handed their objects.
    expect(importsInto(await importGraph(false), "admin-app/", ["purchases/", "ledger/"])).toEqual(
      [],
    );
  });
});
