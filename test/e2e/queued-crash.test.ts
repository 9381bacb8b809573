/**
 * The promise made to people whose confirmation waits behind a purchase in flight, kept across
 * a crash of the real process: SIGKILL while one purchase is held by the service and three
 * confirmations are queued behind it, then a restart. Nothing is sent twice, every queued
 * person learns an outcome, and the one in flight is unconfirmed with the admins told.
 */
import { describe, expect, it } from "vitest";
import { TelegramEmulatorClient } from "../../tools/telegram-emulator/client.js";
import {
  buttons,
  DEMO_ADMIN,
  DEMO_USER,
  Person,
  secretsIn,
  starsSummary,
  startBot,
  startWorld,
  WAIT_MS,
} from "../helpers/built-process.js";

/** Three more allowed buyers, each in their own private chat. */
const BUYERS = [
  { id: 2101, first_name: "Kim", username: "kim_buyer", language_code: "en" },
  { id: 2102, first_name: "Lev", username: "lev_buyer", language_code: "en" },
  { id: 2103, first_name: "Mia", username: "mia_buyer", language_code: "en" },
] as const;

describe("a crash with confirmations queued behind a purchase in flight", () => {
  it(
    "SIGKILL, restart: zero duplicate requests, every queued person told, the in-flight one unconfirmed",
    async () => {
      const world = await startWorld();
      const emulator = new TelegramEmulatorClient(world.emulator.url);
      for (const buyer of BUYERS) await emulator.addUser({ ...buyer, startedBot: true });
      const env = {
        ALLOWED_USER_IDS: [DEMO_USER.id, ...BUYERS.map((b) => b.id)].join(","),
        // The held purchase must still be waiting for its answer when the process dies.
        SERVICE_TIMEOUT_MS: "60000",
        SHUTDOWN_GRACE_SECONDS: "70",
      };
      const first = await startBot(world, env);

      const uma = new Person(world.emulator, DEMO_USER.id);
      const held = await starsSummary(uma, "alice_friend");
      world.sandbox.injectFault({ type: "delay", ms: 60_000 }, { path: "/buy-stars/" });
      await uma.press(held, "✅ Confirm");
      await world.sandbox.waitForRequests(1, "/buy-stars/");

      const queued: { person: Person; summaryId: number; recipient: string }[] = [];
      for (const [i, buyer] of BUYERS.entries()) {
        const person = new Person(world.emulator, buyer.id);
        const recipient = `friend_${i}_of_${buyer.username}`;
        const summary = await starsSummary(person, recipient);
        await person.press(summary, "✅ Confirm");
        await person.waitForText(summary.id, /your gift is queued/);
        queued.push({ person, summaryId: summary.id, recipient });
      }
      // What the people were promised is in the database before the crash.
      const before = await world.intents();
      expect(before.filter((i) => i.status === "sending").map((i) => i.recipient)).toEqual([
        "alice_friend",
      ]);
      expect(before.filter((i) => i.status === "queued")).toHaveLength(BUYERS.length);

      first.child.kill("SIGKILL");
      expect(await first.exited).toMatchObject({ signal: "SIGKILL" });

      const second = await startBot(world, env);
      // The one in flight: unconfirmed, its person and the admins told.
      const told = await uma.waitForText(held.id, /outcome is unknown/);
      expect(buttons(told)).toEqual([]);
      await new Person(world.emulator, DEMO_ADMIN.id).waitForMessage(
        /unknown outcome: 50 Telegram Stars to @alice_friend/,
      );
      // Every queued person learns the outcome of their Confirm, on the summary they pressed.
      for (const { person, summaryId } of queued) {
        const outcome = await person.waitForText(
          summaryId,
          /^(?!.*queued)[\s\S]*(Not sent|Delivered)/,
        );
        expect(outcome.text).toMatch(/❌ Not sent: purchases are on hold while the admins check/);
        expect(buttons(outcome)).toEqual([]);
      }

      const after = await world.intents();
      expect(after.find((i) => i.recipient === "alice_friend")?.status).toBe("unconfirmed");
      for (const { recipient } of queued) {
        expect(after.find((i) => i.recipient === recipient)).toMatchObject({
          status: "rejected",
          outcomeDetail: "not sent: frozen",
        });
      }
      // Zero duplicates: one purchase request in all, for the one in flight.
      const perRecipient = new Map<string, number>();
      for (const request of world.sandbox.purchaseRequests()) {
        const name = request.form?.username ?? request.query.username ?? "?";
        perRecipient.set(name, (perRecipient.get(name) ?? 0) + 1);
      }
      expect([...perRecipient.values()].every((n) => n <= 1)).toBe(true);
      expect(world.sandbox.purchaseRequests()).toHaveLength(1);
      expect(second.logs.some((l) => l.msg === "queued confirmations resolved")).toBe(true);
      expect(secretsIn(first.output() + second.output(), second.env)).toEqual([]);
    },
    4 * WAIT_MS,
  );
});
