/**
 * Test helpers shared by the bot's specs (and by other rooms' bot specs): a recording fake of
 * the Telegram Bot API behind `client.fetch`, real update objects, a readable chat driver, a
 * hand-moved clock, and a bot wired to the real sandbox, client, ledger and desk on SQLite.
 */
export {
  type BotHarness,
  type BotHarnessOptions,
  createBotHarness,
  TEST_CREDENTIALS,
} from "./bot-harness.js";
export { buttonsOf, type ChatPerson, type ChatWorld, chatPerson } from "./chat-person.js";
export { createTestClock, type TestClock } from "./clock.js";
export {
  type AnswerFn,
  type CannedAnswer,
  createTelegramFake,
  keyboardOf,
  type RecordedCall,
  TEST_BOT_INFO,
  type TelegramFake,
  type TelegramFakeOptions,
} from "./telegram-fake.js";
export { createUpdateFactory, type TestUser, testUser, type UpdateFactory } from "./updates.js";
