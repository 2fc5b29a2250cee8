import "server-only";

import { beginExamHealthScrape, registerExamHealthGauges } from "../exam-health/register-exam-health-gauges";
import { getMetrics } from "../metrics/registry";

/**
 * This instance's metrics in the Prometheus text format. Each instance is scraped on its own; the per-exam
 * gauges are the same on every instance, summed over all of them through Redis.
 */
export async function renderMetrics(): Promise<{ text: string; contentType: string }> {
  const { registry } = getMetrics();
  // Registered here rather than in registry.ts: they read Postgres and Redis, which the counters never need.
  registerExamHealthGauges(registry);
  beginExamHealthScrape();
  return { text: await registry.metrics(), contentType: registry.contentType };
}
