import { route } from "@/lib/server/http/route";
import { renderMetrics } from "@/lib/server/metrics/render-metrics";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/**
 * Prometheus text format for operators. Open while METRICS_TOKEN is unset (no ids, no answers in it);
 * once set, a scrape sends `Authorization: Bearer $METRICS_TOKEN` (or the admin token, or a staff
 * session). Each instance reports its own counters.
 */
export const GET = route({ access: "operator" }, async () => {
  const { text, contentType } = await renderMetrics();
  return new Response(text, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
