import { z } from "zod";

import { checkHealth, type Health } from "@/lib/server/health/check-health";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { Instant } from "@/lib/shared/schemas/responses/common";

export const dynamic = "force-dynamic";

/** The body, for the documentation (it `satisfies` what checkHealth returns). */
const HealthSchema = z.object({
  status: z.enum(["ok", "degraded", "down"]),
  postgres: z.enum(["up", "down"]),
  redis: z.enum(["up", "down", "not-configured"]),
  mode: z.enum(["redis", "single-instance"]),
  redisBreaker: z
    .enum(["closed", "open", "half-open", "disabled"])
    .describe("the Redis breaker: open while Redis is skipped after failing (status degraded)"),
  serverTime: Instant,
}) satisfies z.ZodType<Health>;

/** 200 while Postgres answers (Redis down is "degraded", still 200); 503 when Postgres does not. */
export const GET = route(
  {
    access: "public",
    doc: {
      operationId: "checkHealth",
      area: "operations",
      summary: "Liveness",
      description: "200 while Postgres answers (Redis down is `degraded`, still 200); 503 when it does not.",
      responses: {
        200: { description: "Up", schema: HealthSchema },
        503: { description: "Postgres does not answer", schema: HealthSchema },
      },
    },
  },
  async () => {
    const health = await checkHealth();
    return json(health, { status: health.postgres === "up" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
