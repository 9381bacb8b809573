/**
 * The shipped Prometheus rules name only metrics the bot exposes (a renamed metric would leave an
 * alert that never fires), and alert on the age of the last good backup.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/metrics/metrics.js";

const ROOT = resolve(import.meta.dirname, "../..");
const rules = readFileSync(join(ROOT, "deploy/prometheus/giftbot-rules.yml"), "utf8");

describe("deploy/prometheus/giftbot-rules.yml", () => {
  it("names only metrics the bot exposes", async () => {
    const metrics = createMetrics({
      deskStatus: () => Promise.resolve({ paused: false, unconfirmed: 0 }),
      lastBackupAt: () => Date.UTC(2030, 0, 1),
      backupIntervalSeconds: () => 86_400,
    });
    const exposed = new Set(
      [...(await metrics.expose()).body.matchAll(/^# TYPE (\S+)/gm)].map((match) => match[1]),
    );
    const named = [...rules.matchAll(/\bgiftbot_[a-z_]+/g)].map((match) => match[0]);
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(exposed, name).toContain(name);
  });

  it("alerts when the last good backup is older than two intervals while backups are on", () => {
    expect(rules).toMatch(/- alert: GiftbotBackupTooOld/);
    expect(rules).toMatch(/giftbot_backup_interval_seconds > 0/);
    expect(rules).toMatch(/time\(\) - giftbot_backup_last_success_timestamp_seconds/);
  });
});
