/**
 * The sandbox service in a process of its own, so that in the bench its CPU time lands on the
 * other core and is not counted as the bot's cost (the real service is another machine).
 * It records the status and time of every answer, which is how the bench counts 429s and the
 * share of the quota used.
 */
import { startSandbox } from "../tools/sandbox/server.js";
import type { Sandbox } from "../tools/sandbox/types.js";
import type { SandboxAnswer, SandboxChildReply, SandboxChildRequest } from "./lib/sandbox.js";

let sandbox: Sandbox | undefined;
let answers: SandboxAnswer[] = [];

function reply(message: SandboxChildReply): void {
  process.send?.(message);
}

process.on("message", (request: SandboxChildRequest) => {
  handle(request).catch((error: unknown) =>
    reply({ error: error instanceof Error ? error.message : String(error) }),
  );
});

async function handle(request: SandboxChildRequest): Promise<void> {
  switch (request.type) {
    case "start":
      sandbox = await startSandbox({
        quota: request.quota,
        balance: { ton: "1000000000", usdt: "1000000000" },
        latencyMs: 0,
        // One line per answer: "<METHOD> <path> -> <status>"; never header values.
        log: (line) => {
          const match = /^(\S+) (\S+) -> (\S+)$/.exec(line);
          answers.push({ at: Date.now(), path: match?.[2] ?? "?", status: match?.[3] ?? "?" });
        },
      });
      reply({ type: "ready", url: sandbox.url });
      return;
    case "answers":
      reply({ type: "answers", answers });
      return;
    case "usernames":
      reply({
        type: "usernames",
        usernames: (sandbox?.requests ?? []).flatMap((r) => {
          const name = r.query["username"] ?? r.form?.["username"];
          return name === undefined ? [] : [name];
        }),
      });
      return;
    case "clear":
      answers = [];
      reply({ type: "cleared" });
      return;
    case "close":
      await sandbox?.close();
      reply({ type: "closed" });
      process.disconnect();
      return;
  }
}
