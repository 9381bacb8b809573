/**
 * The people and the group of the local demo, shared by the terminal chat and whoever starts the
 * bot for the demo (its ADMIN_IDS must contain DEMO_ADMIN.id, ALLOWED_CHAT_IDS DEMO_GROUP.id).
 */
import type { TelegramEmulatorClient } from "./client.js";
import type { NewGroup, NewUser } from "./types.js";

/** The demo's bot administrator. */
export const DEMO_ADMIN = {
  id: 1001,
  first_name: "Ada",
  username: "ada_admin",
  language_code: "en",
} as const satisfies NewUser;

/** The demo's ordinary person. */
export const DEMO_USER = {
  id: 1002,
  first_name: "Uma",
  username: "uma_user",
  language_code: "en",
} as const satisfies NewUser;

/** The demo group: the admin administers it, the user is a member. */
export const DEMO_GROUP = {
  id: -1001000000001,
  title: "Gift demo group",
  type: "supergroup",
} as const satisfies NewGroup;

/**
 * Adds the demo people and group to a running emulator. Idempotent. Both people have "started"
 * the bot so it may message them first (admin notifications).
 */
export async function setUpDemoPeople(client: TelegramEmulatorClient): Promise<void> {
  await client.addUser({ ...DEMO_ADMIN, startedBot: true });
  await client.addUser({ ...DEMO_USER, startedBot: true });
  await client.addGroup(DEMO_GROUP);
  await client.setChatMember(DEMO_GROUP.id, DEMO_ADMIN.id, "administrator");
  await client.setChatMember(DEMO_GROUP.id, DEMO_USER.id, "member");
}
