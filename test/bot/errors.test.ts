import { describe, expect, it } from "vitest";
import { chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import { harness } from "../helpers/bot.js";
import { capturingLogger } from "../helpers/log-capture.js";

describe("a handler that fails", () => {
  it("apologises in the person's language and logs the update id, never the token", async () => {
    const { logger, lines } = capturingLogger("debug");
    const h = await harness({ logger });
    const boris = chatPerson(h, testUser(701, { language_code: "ru" }));
    let failed = false;
    h.telegram.answer("sendMessage", (payload) => {
      if (!failed) {
        failed = true;
        return { ok: false, error_code: 400, description: "Bad Request: chat not found" };
      }
      return {
        ok: true,
        result: {
          message_id: 5000,
          date: 0,
          chat: { id: Number(payload.chat_id), type: "private", first_name: "x" },
          text: String(payload.text),
        },
      };
    });
    const update = h.updates.command(boris.user, "help");
    await h.send(update);
    const sent = h.telegram.callsOf("sendMessage").map((c) => c.payload.text);
    expect(sent.at(-1)).toBe("Извините, у меня что-то пошло не так. Попробуйте ещё раз.");
    const failure = lines
      .map((l) => JSON.parse(l) as { msg?: string; error?: { message?: string } })
      .find((l) => l.msg === "update handler failed");
    expect(failure).toMatchObject({
      updateId: update.update_id,
      chatId: boris.chatId,
      userId: boris.user.id,
    });
    expect(failure?.error?.message).toContain("chat not found");
    const all = lines.join("\n");
    expect(all).not.toContain("TEST-TOKEN");
    expect(all).not.toContain("123456:");
  });

  it("a summary that cannot be edited does not lose the purchase outcome, nor log the token", async () => {
    const { logger, lines } = capturingLogger("debug");
    const h = await harness({ logger });
    const alice = chatPerson(h, testUser(702));
    await alice.starsSummary("bob_gifts", "⭐ 100");
    const confirm = alice.findButton("✅ Confirm");
    h.telegram.answer("editMessageText", () => {
      // node-fetch puts the URL, with the bot token in it, into its error messages.
      throw new Error(
        "request to https://api.telegram.org/bot123456:TEST-TOKEN-never-real/editMessageText failed",
      );
    });
    // The fake's fetch throwing is a transport failure for grammY: the handler must survive it.
    await alice.press(confirm.data, confirm.messageId);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
    expect((await h.records.getIntent(confirm.data.split(":")[2] ?? ""))?.status).toBe("succeeded");
    expect(lines.some((l) => l.includes("could not edit the summary message"))).toBe(true);
    expect(lines.join("\n")).not.toContain("TEST-TOKEN");
  });
});
