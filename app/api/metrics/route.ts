import { z } from "zod";

import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { route } from "@/lib/server/http/route";
import { renderMetrics } from "@/lib/server/metrics/render-metrics";

export const dynamic = "force-dynamic";

/**
 * Prometheus text format for operators. Open while METRICS_TOKEN is unset (no candidate, device or answer
 * in it; the per-exam gauges name active exams by id); once set, a scrape sends
 * `Authorization: Bearer $METRICS_TOKEN` (or the admin token, or an admin's session: a proctor may not
 * read other exams' figures). Each instance reports its own counters.
 */
export const GET = route(
  {
    access: "operator",
    doc: {
      operationId: "renderMetrics",
      area: "operations",
      summary: "Prometheus metrics",
      description: "Open while METRICS_TOKEN is unset; once set, `Bearer $METRICS_TOKEN` or what admins use.",
      responses: { 200: { description: "Prometheus text format", contentType: "text/plain", schema: z.string() } },
    },
  },
  async () => {
    const { text, contentType } = await renderMetrics();
    return new Response(text, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
