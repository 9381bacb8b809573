/**
 * 3. Memory and storage: a bot process parks `count` conversations mid-flow (each person sent
 * /stars and a recipient and now waits at the amount step, state in SQLite); its RSS after a
 * GC and the database size are read. Then a fresh process on the same database resumes parked
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
  /** RSS growth per parked flow between a tenth and all of them parked (KB). */
  rss_kb_per_parked: number;
  heap_used_mb_parked: number;
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
    return await ask<R>(child, request, 170_000);
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
    if (parked.conversationsStored !== options.count) {
      throw new Error(`${parked.conversationsStored} conversations stored, not ${options.count}`);
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
      rss_kb_per_parked: round(
        ((parked.rssAfterMb - parked.rssTenthMb) * 1024) /
          (options.count - Math.max(1, Math.floor(options.count / 10))),
        2,
      ),
      heap_used_mb_parked: round(parked.heapUsedAfterMb, 1),
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
