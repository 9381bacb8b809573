import { describe, expect, it } from "vitest";
import {
  ADMIN_COMMANDS,
  registerAdminCommands,
} from "../../../src/bot/features/admin/command-menu.js";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import { ADMIN, ADMIN2, adminWorld, BUYER } from "../../helpers/admin-bot.js";
import { harness } from "../../helpers/bot.js";

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
      "backup",
      "giveaway",
      "dashboard",
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

describe("/help", () => {
  it("lists the admin commands to admins, in their language, and to nobody else", async () => {
    const { h } = await adminWorld();
    const ada = chatPerson(h, ADMIN);
    await ada.command("help");
    const text = ada.lastMessage().text ?? "";
    expect(text).toMatch(/^I gift Telegram Stars/);
    for (const command of [...ADMIN_COMMANDS, "allowchat", "denychat"]) {
      expect(text).toContain(`/${command}`);
    }
    const boris = chatPerson(h, ADMIN2);
    await boris.command("help");
    expect(boris.lastMessage().text).toContain("Как администратору вам также доступны:");

    const bea = chatPerson(h, BUYER);
    await bea.command("help");
    const buyerHelp = bea.lastMessage().text ?? "";
    expect(buyerHelp).toMatch(/^I gift Telegram Stars/);
    for (const command of ADMIN_COMMANDS) expect(buyerHelp).not.toContain(`/${command}`);
  });
});
