/**
 * 3. Memory and storage: a bot process parks `count` conversations mid-flow (each person sent
 * /stars and a recipient and now waits at the amount step, state in SQLite); its RSS and heap
 * after a GC and the database size are read. A second round of `count` other people parks the
 * same way (RSS again), and `count` more distinct recipients are checked through the desk (heap
 * again, after 3 x `count` distinct recipients). Then a fresh process on the same database resumes parked
 * people: the first resume is cold (new process, first query, first service connection), the
 * rest show the warm cost.
 */
import { join } from "node:path";
import { ask, forkBenchModule, waitForExit } from "../lib/child.js";
import { startSandboxProcess } from "../lib/sandbox.js";
import { percentile, round } from "../lib/stats.js";
import type { ParkReply, ParkRequest, ResumeReply } from "../park-child.js";

export interface MemoryResult {
  conversations: number;
  rss_mb_before: number;
  rss_mb_10k_parked: number;
  /** After a second round of `count` other people parked. */
  rss_mb_second_round: number;
  /** RSS growth per flow parked in the second round (KB): about 0 for a high-water mark. */
  rss_kb_per_parked: number;
  rss_mb_three_rounds: number;
  heap_used_mb_parked: number;
  heap_used_mb_second_round: number;
  /** Heap after GC with `count` and with 3 x `count` distinct recipients seen. */
  heap_mb_recipients: number;
  heap_mb_3x_recipients: number;
  memory_mb_before: Record<string, number>;
  memory_mb_parked: Record<string, number>;
  db_mb_10k_parked: number;
  db_bytes_per_conversation: number;
  park_seconds: number;
  resume_ms: number;
  resume_handled_ms: number;
  resume_warm_p50_ms: number;
  resume_warm_p99_ms: number;
  resumed: number;
  rss_mb_resume_process: number;
}

async function inChild<R>(request: ParkRequest): Promise<R> {
  const child = forkBenchModule("park-child.ts");
  try {
    // Generous: two rounds of parking on a busy 2-core machine take minutes.
    return await ask<R>(child, request, 900_000);
  } finally {
    await waitForExit(child);
  }
}

export async function runMemory(options: {
  dir: string;
  count: number;
  resumes: number;
}): Promise<MemoryResult> {
  const sandbox = await startSandboxProcess(false);
  const dbPath = join(options.dir, "parked.sqlite");
  const firstId = 3_000_000;
  try {
    const parked = await inChild<ParkReply>({
      type: "park",
      dbPath,
      serviceUrl: sandbox.url,
      count: options.count,
      firstId,
    });
    if (
      parked.conversationsStored !== options.count ||
      parked.conversationsStoredSecondRound !== 2 * options.count
    ) {
      throw new Error(
        `${parked.conversationsStored} then ${parked.conversationsStoredSecondRound} conversations stored, not ${options.count} then ${2 * options.count}`,
      );
    }
    // The first resumed person is in the middle of the table; then a spread of others.
    const step = Math.max(1, Math.floor(options.count / (options.resumes + 1)));
    const userIds = [firstId + Math.floor(options.count / 2)];
    for (let i = 0; userIds.length < options.resumes + 1 && i < options.count; i += step) {
      if (firstId + i !== userIds[0]) userIds.push(firstId + i);
    }
    const resumed = await inChild<ResumeReply>({
      type: "resume",
      dbPath,
      serviceUrl: sandbox.url,
      userIds,
    });
    const warm = resumed.replyMs.slice(1);
    return {
      conversations: parked.conversationsStored,
      rss_mb_before: round(parked.rssBeforeMb, 1),
      rss_mb_10k_parked: round(parked.rssAfterMb, 1),
      rss_mb_second_round: round(parked.rssSecondRoundMb, 1),
      rss_kb_per_parked: round(
        ((parked.rssSecondRoundMb - parked.rssAfterMb) * 1024) / options.count,
        2,
      ),
      rss_mb_three_rounds: round(parked.rssThreeRoundsMb, 1),
      heap_used_mb_parked: round(parked.heapUsedAfterMb, 1),
      heap_used_mb_second_round: round(parked.heapUsedSecondRoundMb, 1),
      heap_mb_recipients: round(parked.heapUsedAfterMb, 1),
      heap_mb_3x_recipients: round(parked.heapUsedThreeRoundsMb, 1),
      memory_mb_before: parked.memoryBeforeMb,
      memory_mb_parked: parked.memoryAfterMb,
      db_mb_10k_parked: round((parked.dbBytes + parked.walBytes) / 1024 / 1024, 1),
      db_bytes_per_conversation: Math.round((parked.dbBytes + parked.walBytes) / options.count),
      park_seconds: round(parked.parkSeconds, 1),
      resume_ms: round(resumed.replyMs[0] ?? Number.NaN, 1),
      resume_handled_ms: round(resumed.handledMs[0] ?? Number.NaN, 1),
      resume_warm_p50_ms: round(percentile(warm, 50), 2),
      resume_warm_p99_ms: round(percentile(warm, 99), 2),
      resumed: resumed.replyMs.length,
      rss_mb_resume_process: round(resumed.rssAfterMb, 1),
    };
  } finally {
    await sandbox.close();
  }
}
