/**
 * The fair peer: the smallest sensible grammY bot that does the same stars flow as ours, to
 * measure what our architecture costs on top of what any conversations bot must do.
 *
 * What it shares with ours: grammY, `sequentialize` before `@grammyjs/conversations` v2, the
 * conversation state in a better-sqlite3 key-value table (read, write, delete per update), the
 * same five steps and the same button data (`menu:stars`, `flow:cancel`, `flow:amount:<n>`,
 * `buy:confirm:<id>`, `buy:cancel:<id>`), the same Telegram calls per step (1, 2, 2, 3, 3), an
 * `orders` table written at the draft and twice at Confirm (the claim before the request, the
 * outcome after it), and the same two service requests per purchase through undici to the same
 * sandbox process (the recipient check and the purchase). Confirm is handled outside the
 * conversation, keyed by the order id, as ours does.
 *
 * What it leaves out, on purpose: i18n through Fluent (it has an English and a Russian table),
 * the access gate, admin features, spending limits, the balance read, the quota scheduler, the
 * purchase outcome rules and logging. Those are exactly what the ratio prices.
 */
import { randomBytes } from "node:crypto";
import {
  type Conversation,
  type ConversationData,
  type ConversationFlavor,
  conversations,
  createConversation,
  type VersionedState,
} from "@grammyjs/conversations";
import { sequentialize } from "@grammyjs/runner";
import Database from "better-sqlite3";
import { type ApiClientOptions, Bot, type Context, InlineKeyboard } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import { Agent, request } from "undici";

type PeerContext = ConversationFlavor<Context>;

const TEXTS = {
  en: {
    greeting: (name: string) => `Hi, ${name}! What would you like to gift?`,
    stars: "⭐ Gift stars",
    premium: "💎 Gift Premium",
    cancel: "Cancel",
    askRecipient: "Who should get the stars? Send their @username.",
    badRecipient: "That is not a username. Send one like @durov.",
    notFound: (u: string) => `@${u} was not found.`,
    askAmount: (u: string) => `How many stars for @${u}?`,
    amount: (n: number) => `${n} ⭐`,
    other: "Other amount",
    summary: (u: string, n: number) => `Gift ${n} stars to @${u}. Confirm?`,
    confirm: "Confirm",
    sending: "Sending…",
    delivered: (u: string, n: number) => `✅ Delivered: ${n} stars to @${u}.`,
    failed: "Not delivered.",
  },
  ru: {
    greeting: (name: string) => `Привет, ${name}! Что подарим?`,
    stars: "⭐ Подарить звёзды",
    premium: "💎 Подарить Premium",
    cancel: "Отмена",
    askRecipient: "Кому подарить звёзды? Пришлите @username.",
    badRecipient: "Это не имя пользователя. Пришлите, например, @durov.",
    notFound: (u: string) => `@${u} не найден.`,
    askAmount: (u: string) => `Сколько звёзд для @${u}?`,
    amount: (n: number) => `${n} ⭐`,
    other: "Другое количество",
    summary: (u: string, n: number) => `Подарить ${n} звёзд @${u}. Подтвердить?`,
    confirm: "Подтвердить",
    sending: "Отправляем…",
    delivered: (u: string, n: number) => `✅ Доставлено: ${n} звёзд @${u}.`,
    failed: "Не доставлено.",
  },
};

const texts = (ctx: Context) => (ctx.from?.language_code === "ru" ? TEXTS.ru : TEXTS.en);

const USERNAME = /^@?([A-Za-z][A-Za-z0-9_]{3,31})$/;
const PRESETS = [50, 100, 250, 500, 1000, 2500];

export interface PeerOptions {
  dbPath: string;
  serviceUrl: string;
  fetch: NonNullable<ApiClientOptions["fetch"]>;
  botInfo: UserFromGetMe;
  credentials: { mnemonic: string; cookie: string };
}

export interface PeerBot {
  bot: Bot<PeerContext>;
  close(): Promise<void>;
}

/** The peer's SQLite file: the conversations' key-value table and the orders. */
function openPeerDatabase(path: string) {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec(`
    CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS orders (
      id TEXT PRIMARY KEY, user_id INTEGER NOT NULL, chat_id INTEGER NOT NULL,
      recipient TEXT NOT NULL, amount INTEGER NOT NULL, status TEXT NOT NULL,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS orders_by_user ON orders (user_id, created_at);`);
  return {
    db,
    kvRead: db.prepare<[string], { value: string }>("SELECT value FROM kv WHERE key = ?"),
    kvWrite: db.prepare<[string, string]>(
      "INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ),
    kvDelete: db.prepare<[string]>("DELETE FROM kv WHERE key = ?"),
    insertDraft: db.prepare<[string, number, number, string, number, number, number]>(
      `INSERT INTO orders (id, user_id, chat_id, recipient, amount, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'draft', ?, ?)`,
    ),
    getOrder: db.prepare<
      [string],
      { user_id: number; chat_id: number; recipient: string; amount: number; status: string }
    >("SELECT user_id, chat_id, recipient, amount, status FROM orders WHERE id = ?"),
    claim: db.prepare<[number, string]>(
      "UPDATE orders SET status = 'sending', updated_at = ? WHERE id = ? AND status = 'draft'",
    ),
    settle: db.prepare<[string, number, string]>(
      "UPDATE orders SET status = ?, updated_at = ? WHERE id = ?",
    ),
  };
}

/** Builds the peer bot (not started: the bench feeds it with handleUpdate). */
export function createPeerBot(options: PeerOptions): PeerBot {
  const store = openPeerDatabase(options.dbPath);
  const agent = new Agent({ keepAliveTimeout: 4_000 });
  const service = async (
    method: "GET" | "POST",
    path: string,
    form: Record<string, string>,
    headers: Record<string, string>,
  ): Promise<{ ok: boolean; status: number }> => {
    const query = new URLSearchParams(form).toString();
    const response = await request(
      method === "GET" ? `${options.serviceUrl}${path}?${query}` : `${options.serviceUrl}${path}`,
      {
        method,
        dispatcher: agent,
        headers: { Accept: "application/json", ...headers },
        ...(method === "POST" ? { body: query } : {}),
      },
    );
    const body = (await response.body.json()) as { ok?: boolean };
    return { ok: response.statusCode === 200 && body.ok === true, status: response.statusCode };
  };

  const bot = new Bot<PeerContext>("123456:BENCH-TOKEN-never-real", {
    botInfo: options.botInfo,
    client: { fetch: options.fetch },
  });
  bot.use(sequentialize((ctx) => ctx.chat?.id.toString()));
  bot.use(
    conversations({
      storage: {
        type: "key",
        version: 1,
        adapter: {
          read: (key) => {
            const row = store.kvRead.get(key);
            return row === undefined
              ? undefined
              : (JSON.parse(row.value) as VersionedState<ConversationData>);
          },
          write: (key, state) => void store.kvWrite.run(key, JSON.stringify(state)),
          delete: (key) => void store.kvDelete.run(key),
        },
      },
    }),
  );

  async function starsFlow(conversation: Conversation<PeerContext, Context>, ctx: Context) {
    const t = texts(ctx);
    const cancel = new InlineKeyboard().text(t.cancel, "flow:cancel");
    const ask = await ctx.reply(t.askRecipient, { reply_markup: cancel });
    let username = "";
    let last: Context;
    for (;;) {
      last = await conversation.waitFor("message:text");
      const match = USERNAME.exec(last.message?.text?.trim() ?? "");
      if (match?.[1] === undefined) {
        await last.reply(t.badRecipient);
        continue;
      }
      const name = match[1];
      const found = await conversation.external(
        async () => (await service("GET", "/get-user-info/", { username: name }, {})).ok,
      );
      if (found) {
        username = name;
        break;
      }
      await last.reply(t.notFound(name));
    }
    await last.api.editMessageReplyMarkup(ask.chat.id, ask.message_id);
    const amounts = new InlineKeyboard();
    PRESETS.forEach((n, i) => {
      amounts.text(t.amount(n), `flow:amount:${n}`);
      if (i % 3 === 2) amounts.row();
    });
    amounts.text(t.other, "flow:amount:other").row().text(t.cancel, "flow:cancel");
    const askAmount = await last.reply(t.askAmount(username), { reply_markup: amounts });
    const press = await conversation.waitForCallbackQuery(/^flow:amount:\d+$/);
    const amount = Number(press.callbackQuery.data.split(":")[2]);
    await press.answerCallbackQuery();
    await press.api.editMessageReplyMarkup(askAmount.chat.id, askAmount.message_id);
    const chatId = askAmount.chat.id;
    const userId = press.from.id;
    const id = await conversation.external(() => {
      const orderId = randomBytes(12).toString("base64url");
      const now = Date.now();
      store.insertDraft.run(orderId, userId, chatId, username, amount, now, now);
      return orderId;
    });
    await press.reply(t.summary(username, amount), {
      reply_markup: new InlineKeyboard()
        .text(t.confirm, `buy:confirm:${id}`)
        .text(t.cancel, `buy:cancel:${id}`),
    });
  }

  bot.use(createConversation(starsFlow, "stars"));
  bot.command("start", async (ctx) => {
    const t = texts(ctx);
    await ctx.reply(t.greeting(ctx.from?.first_name ?? ""), {
      reply_markup: new InlineKeyboard()
        .text(t.stars, "menu:stars")
        .text(t.premium, "menu:premium"),
    });
  });
  bot.callbackQuery("menu:stars", async (ctx) => {
    await ctx.answerCallbackQuery();
    await ctx.conversation.enter("stars");
  });
  bot.callbackQuery(/^buy:confirm:([A-Za-z0-9_-]{6,40})$/, async (ctx) => {
    const t = texts(ctx);
    const id = ctx.match[1] ?? "";
    const order = store.getOrder.get(id);
    if (order === undefined || order.user_id !== ctx.from.id || order.status !== "draft") {
      await ctx.answerCallbackQuery({ text: t.failed });
      return;
    }
    // The claim is written before the request, the outcome after it.
    if (store.claim.run(Date.now(), id).changes !== 1) {
      await ctx.answerCallbackQuery({ text: t.failed });
      return;
    }
    await ctx.answerCallbackQuery({ text: t.sending });
    await ctx.editMessageText(t.sending);
    const bought = await service(
      "POST",
      "/buy-stars/",
      { username: order.recipient, amount: String(order.amount), payment_method: "usdt_ton" },
      {
        "Content-Type": "application/x-www-form-urlencoded",
        Mnemonic: options.credentials.mnemonic,
        Cookie: options.credentials.cookie,
      },
    ).catch(() => ({ ok: false, status: 0 }));
    store.settle.run(bought.ok ? "succeeded" : "failed", Date.now(), id);
    await ctx.editMessageText(bought.ok ? t.delivered(order.recipient, order.amount) : t.failed);
  });
  return {
    bot,
    async close() {
      await agent.close();
      store.db.close();
    },
  };
}
