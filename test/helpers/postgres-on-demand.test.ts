import { join } from "node:path";
import { tmpdir } from "node:os";
import { describe, expect, it, onTestFinished } from "vitest";
import { servePostgresOnDemand } from "./postgres-on-demand.js";

describe("the run's PostgreSQL, started on demand", () => {
  it("a cluster that cannot start fails every test that asks, with the reason", async () => {
    const onDemand = await servePostgresOnDemand(join(tmpdir(), "no-such-folder"));
    onTestFinished(() => onDemand.stop());

    for (const _ask of [1, 2]) {
      const response = await fetch(onDemand.url);
      expect(response.status).toBe(500);
      expect(await response.text()).toMatch(/no-such-folder/);
    }
  });
});
