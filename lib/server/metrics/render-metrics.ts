import "server-only";

import { getMetrics } from "./registry";

/** This instance's metrics in the Prometheus text format (each instance is scraped on its own). */
export async function renderMetrics(): Promise<{ text: string; contentType: string }> {
  const { registry } = getMetrics();
  return { text: await registry.metrics(), contentType: registry.contentType };
}
