/**
 * The rooms of src/ and their doors, checked on the import graph (madge, the same graph
 * `npx madge --circular --extensions ts src` prints): no cycle between files, no cycle of
 * rooms (folders) of any length, the ledger's vocabulary free of any store, the two database drivers
 * apart from each other and from the store written once over them, and the bot reaching the
 * ledger and the stores through types only (it buys through the desk, reads through the
 * records), and the admins' app (src/admin-app) on the purchases room alone.
 */
import madge from "madge";
import { describe, expect, it } from "vitest";
import { type Graph, importGraph } from "./graph.js";

/**
 * A file's room: its top folder under src/, and in src/bot its feature folder. The bot's own
 * root is two rooms: `bot/index.ts`, which assembles the bot from every feature and nothing
 * imports, and the kit beside it (the context, services, texts and views every feature uses).
 */
function roomOf(file: string): string {
  const parts = file.split("/");
  if (parts.length === 1) return "(entry points)";
  if (file === "bot/index.ts") return "bot/index.ts";
  if (parts[0] === "bot" && parts.length > 2) return `bot/${parts[1]}`;
  return parts[0] ?? file;
}

/** The rooms' graph: for each room, the rooms its files import. */
function roomGraph(graph: Graph): Map<string, Set<string>> {
  const rooms = new Map<string, Set<string>>();
  for (const [file, imports] of Object.entries(graph)) {
    const from = roomOf(file);
    const targets = rooms.get(from) ?? new Set<string>();
    rooms.set(from, targets);
    for (const imported of imports) if (roomOf(imported) !== from) targets.add(roomOf(imported));
  }
  return rooms;
}

/**
 * Every cycle of rooms, of any length, each as the rooms on it: the strongly connected
 * components of the rooms' graph with more than one room (Tarjan's algorithm).
 */
function roomCycles(graph: Graph): string[][] {
  const rooms = roomGraph(graph);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (room: string): void => {
    index.set(room, index.size);
    low.set(room, index.get(room) ?? 0);
    stack.push(room);
    for (const next of rooms.get(room) ?? []) {
      if (!index.has(next)) visit(next);
      if (stack.includes(next)) low.set(room, Math.min(low.get(room) ?? 0, low.get(next) ?? 0));
    }
    if (low.get(room) !== index.get(room)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member !== undefined) component.push(member);
    } while (member !== undefined && member !== room);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const room of [...rooms.keys()].sort()) if (!index.has(room)) visit(room);
  return cycles;
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
  it("has no cycle between files, nor between rooms of any length", async () => {
    const result = await madge("src", { fileExtensions: ["ts"], tsConfig: "tsconfig.json" });
    expect(result.circular()).toEqual([]);
    expect(roomCycles(await importGraph(true))).toEqual([]);
  });

  it("finds a cycle of rooms however long it is", () => {
    // Three rooms of src/bot in a ring (the ring #36 found), and a fourth outside it.
    const ring: Graph = {
      "bot/fair-share/cooldown.ts": ["bot/features/group/throttle.ts"],
      "bot/features/group/throttle.ts": ["bot/services.ts"],
      "bot/services.ts": ["bot/fair-share/cooldown.ts", "shared/logger.ts"],
      "shared/logger.ts": [],
    };
    expect(roomCycles(ring)).toEqual([["bot", "bot/fair-share", "bot/features"]]);
    expect(roomCycles({ ...ring, "bot/services.ts": ["shared/logger.ts"] })).toEqual([]);
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
