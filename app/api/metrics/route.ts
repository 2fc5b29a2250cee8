import { route } from "@/lib/server/http/route";
import { renderMetrics } from "@/lib/server/metrics/render-metrics";

export const dynamic = "force-dynamic";

/**
 * Prometheus text format for operators: an admin or proctor session, or `Authorization: Bearer
 * $ADMIN_API_TOKEN` (what a Prometheus scrape job sends). Each instance reports its own counters.
 */
export const GET = route({ access: "proctor" }, async () => {
  const { text, contentType } = await renderMetrics();
  return new Response(text, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
});
