import { describe, expect, it } from "vitest";
import { registerAdminCommands } from "../../../src/bot/features/admin/command-menu.js";
import { harness } from "../helpers.js";

describe("command menus", () => {
  it("lists the admin commands in each admin's own chat, per language, and /premium for group administrators", async () => {
    const h = await harness({ admins: [11, 12], access: { publicPurchases: false } });
    await registerAdminCommands(h.bot.api, h.app.services);
    const calls = h.telegram.callsOf("setMyCommands").map((c) => c.payload);
    expect(calls.map((c) => [c.scope, c.language_code])).toEqual([
      [{ type: "chat", chat_id: 11 }, undefined],
      [{ type: "chat", chat_id: 11 }, "en"],
      [{ type: "chat", chat_id: 11 }, "ru"],
      [{ type: "chat", chat_id: 12 }, undefined],
      [{ type: "chat", chat_id: 12 }, "en"],
      [{ type: "chat", chat_id: 12 }, "ru"],
      [{ type: "all_chat_administrators" }, undefined],
      [{ type: "all_chat_administrators" }, "en"],
      [{ type: "all_chat_administrators" }, "ru"],
    ]);
    const english = calls[1]?.commands as { command: string; description: string }[];
    // A person's own commands first, then the admin ones.
    expect(english.map((c) => c.command)).toEqual([
      "start",
      "stars",
      "premium",
      "history",
      "language",
      "cancel",
      "help",
      "balance",
      "purchases",
      "pending",
      "pause",
      "resume",
      "allow",
      "deny",
      "allowed",
      "limits",
      "export",
    ]);
    expect(english.find((c) => c.command === "pending")?.description).toBe(
      "Purchases with an unknown outcome",
    );
    const russianGroup = calls[8]?.commands as { command: string; description: string }[];
    expect(russianGroup).toEqual([
      { command: "premium", description: "Подарить Telegram Premium участнику" },
    ]);
  });
});
