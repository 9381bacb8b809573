/**
 * Conversation state in the key-value store (SQLite), so that a new bot process on the same
 * database resumes a flow where the person left it. The row is removed when the flow ends.
 */
import type {
  ConversationData,
  ConversationStorage,
  VersionedState,
} from "@grammyjs/conversations";
import type { KeyValueStores } from "../storage/types.js";
import type { BotContext } from "./context.js";

/**
 * Bump when a flow's sequence of waits changes: stored replay logs of the old shape are then
 * discarded instead of being replayed against new code.
 */
const FLOW_STATE_VERSION = 1;

/**
 * Keyed by chat and person, so that in a group each administrator has a flow of their own
 * (and one person's /cancel leaves only their own flow).
 */
function conversationKey(ctx: BotContext): string | undefined {
  if (ctx.chatId === undefined || ctx.from === undefined) return undefined;
  return `${ctx.chatId}:${ctx.from.id}`;
}

export function createConversationStorage(
  stores: KeyValueStores,
): ConversationStorage<BotContext, ConversationData> {
  const store = stores<VersionedState<ConversationData>>("conversations");
  return {
    type: "key",
    version: FLOW_STATE_VERSION,
    getStorageKey: conversationKey,
    adapter: {
      read: (key) => store.read(key),
      // Written at the end of every update: a lock held elsewhere is waited out asynchronously.
      write: (key, state) => store.writeRetrying(key, state),
      delete: (key) => store.deleteRetrying(key),
    },
  };
}
