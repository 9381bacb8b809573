import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { Observability } from "../../src/app/observability.js";
import { silentLogger } from "../../src/shared/logger.js";
import type { HealthReport } from "../../src/run/health.js";
import { testConfig } from "../../tools/testing/test-config.js";

const health = (): Promise<HealthReport> =>
  Promise.resolve({
    status: "up",
    database: "up",
    service: "up",
    serviceLastAnsweredAt: undefined,
  });

/** Whether `handler` answers GET `path` (a handler that does not is a 404 for its server). */
function answers(handler: (req: IncomingMessage, res: ServerResponse) => boolean, path: string) {
  const response = { writeHead: () => response, end: () => response };
  const request = { method: "GET", url: path } as IncomingMessage;
  return handler(request, response as unknown as ServerResponse);
}

function observability(ports: { healthPort?: number; metricsPort?: number }) {
  const { run } = testConfig({ serviceUrl: "http://127.0.0.1:9", databasePath: ":memory:" });
  return new Observability(
    {
      ...run,
      mode: "webhook",
      port: 8443,
      healthPort: undefined,
      metricsPort: undefined,
      ...ports,
    },
    silentLogger,
    {},
  );
}

describe("the probes the webhook server answers", () => {
  it("leave /metrics to METRICS_PORT: the webhook port faces the internet", () => {
    const o = observability({ metricsPort: 9100 });
    expect(answers(o.probes(health), "/metrics")).toBe(true);
    expect(answers(o.probes(health, { onWebhookPort: true }), "/metrics")).toBe(false);
    expect(answers(o.probes(health, { onWebhookPort: true }), "/livez")).toBe(true);
  });

  it("answer /metrics there only when the operator put METRICS_PORT on PORT", () => {
    const onPort = observability({ metricsPort: 8443 });
    expect(answers(onPort.probes(health, { onWebhookPort: true }), "/metrics")).toBe(true);
    // HEALTH_PORT = PORT, as in the image: the probes, not the wallet's balance.
    const healthOnPort = observability({ healthPort: 8443 });
    expect(answers(healthOnPort.probes(health, { onWebhookPort: true }), "/metrics")).toBe(false);
    expect(answers(healthOnPort.probes(health, { onWebhookPort: true }), "/readyz")).toBe(true);
  });
});
