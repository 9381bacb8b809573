import { describe, expect, it } from "vitest";
import {
  findButton,
  latestBotMessage,
  numberSentAsTextHint,
  parseChatLine,
} from "../../../tools/telegram-emulator/chat-input.js";
import type { ChatViewMessage } from "../../../tools/telegram-emulator/types.js";

const BOT = { id: 7, is_bot: true, first_name: "Gift bot" };
const UMA = { id: 1002, is_bot: false, first_name: "Uma" };

function message(
  id: number,
  fromBot: boolean,
  text: string,
  buttons: string[][] = [],
): ChatViewMessage {
  const from = fromBot ? BOT : UMA;
  const inline_keyboard = buttons.map((row) =>
    row.map((label) => ({ text: label, callback_data: label.toLowerCase() })),
  );
  const replyMarkup = buttons.length > 0 ? { inline_keyboard } : undefined;
  return {
    id,
    chatId: UMA.id,
    fromBot,
    from,
    text,
    replyMarkup,
    edited: false,
    date: 0,
    message: {
      message_id: id,
      from,
      chat: { id: UMA.id, type: "private" },
      date: 0,
      text,
      ...(replyMarkup ? { reply_markup: replyMarkup } : {}),
    },
  };
}

/** The chat of the issue: the greeting's buttons, then an amount prompt with only Cancel. */
const greeting = message(28, true, "Hi, Uma!", [["⭐ Gift stars", "💎 Gift Premium"]]);
const askAmount = message(30, true, "Send the number of stars: a whole number from 50 to 10000.", [
  ["Cancel"],
]);
const delivered = message(33, true, "✅ Delivered");

describe("terminal chat input: what a typed line means", () => {
  it("sends numbers and any other text as a message", () => {
    expect(parseChatLine("49")).toEqual({ type: "text", text: "49" });
    expect(parseChatLine("  10001 ")).toEqual({ type: "text", text: "10001" });
    expect(parseChatLine("1")).toEqual({ type: "text", text: "1" });
    expect(parseChatLine("alice_friend")).toEqual({ type: "text", text: "alice_friend" });
    expect(parseChatLine("/stars")).toEqual({ type: "text", text: "/stars" });
    expect(parseChatLine("#hashtag")).toEqual({ type: "text", text: "#hashtag" });
    expect(parseChatLine("# 1")).toEqual({ type: "text", text: "# 1" });
    expect(parseChatLine("   ")).toEqual({ type: "empty" });
  });

  it("presses a button only with #N or :press N, naming a message with :press N #M", () => {
    expect(parseChatLine("#1")).toEqual({ type: "press", button: 1 });
    expect(parseChatLine(":press 2")).toEqual({ type: "press", button: 2 });
    expect(parseChatLine(":press 2 #28")).toEqual({ type: "press", button: 2, messageId: 28 });
    expect(parseChatLine(":press 2 28")).toEqual({ type: "press", button: 2, messageId: 28 });
    for (const bad of ["#0", ":press", ":press x", ":press 1 #x", ":press 1 2 3"]) {
      expect(parseChatLine(bad)).toMatchObject({ type: "invalid" });
    }
  });

  it("reads other :commands with their words and the text after the first word", () => {
    expect(parseChatLine(":reply 31 /premium  now")).toEqual({
      type: "command",
      name: "reply",
      args: ["31", "/premium", "now"],
      rest: "31 /premium  now",
    });
    expect(parseChatLine(":expire-session")).toEqual({
      type: "command",
      name: "expire-session",
      args: [],
      rest: "",
    });
  });
});

describe("terminal chat input: which button a press means", () => {
  it("uses the latest bot message that has buttons", () => {
    const chat = [greeting, message(29, false, "alice_friend"), askAmount];
    expect(latestBotMessage(chat)?.id).toBe(30);
    expect(findButton(chat, 1)).toMatchObject({ message: { id: 30 }, row: 0, column: 0 });
    expect(findButton(chat, 2)).toBe("(message #30 has no button 2; it has 1)");
    expect(findButton([], 1)).toBe("(no bot message here yet)");
  });

  it("looks past the bot's later messages without buttons (a list sent as a file, a retyped amount's reply)", () => {
    const card = message(40, true, "🎁 Giveaway", [["✅ Confirm", "✖️ Cancel"], ["📄 List"]]);
    const listFile = message(41, true, "");
    expect(findButton([greeting, card, listFile], 1)).toMatchObject({
      message: { id: 40 },
      button: { text: "✅ Confirm" },
    });
    const again = message(32, true, "That is not a whole number. Send the number again.");
    expect(findButton([greeting, askAmount, message(31, false, "12o"), again], 1)).toMatchObject({
      message: { id: 30 },
      button: { text: "Cancel" },
    });
    // Once no bot message has buttons, a press says so instead of pressing nothing.
    expect(findButton([message(33, true, "✅ Delivered"), listFile], 1)).toBe(
      "(no bot message here has buttons now)",
    );
  });

  it("presses an older message's button when the message is named", () => {
    const chat = [greeting, askAmount, delivered];
    expect(findButton(chat, 2, 28)).toMatchObject({
      message: { id: 28 },
      row: 0,
      column: 1,
      button: { text: "💎 Gift Premium" },
    });
    expect(findButton(chat, 1, 33)).toBe("(message #33 has no buttons)");
    expect(findButton([...chat, message(34, false, "hi")], 1, 34)).toBe(
      "(message #34 is not the bot's)",
    );
    expect(findButton(chat, 1, 99)).toBe("(no message #99 here)");
  });

  it("hints at #N when a number sent as text matches a button #N would press", () => {
    expect(numberSentAsTextHint("1", [greeting, askAmount])).toBe(
      '(sent "1" as a message; to press button 1, "Cancel" of #30, type #1)',
    );
    expect(numberSentAsTextHint("100", [greeting, askAmount])).toBeUndefined();
    expect(numberSentAsTextHint("2", [greeting, delivered])).toBe(
      '(sent "2" as a message; to press button 2, "💎 Gift Premium" of #28, type #2)',
    );
    expect(numberSentAsTextHint("hello", [greeting])).toBeUndefined();
  });
});
