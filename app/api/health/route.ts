import { checkHealth } from "@/lib/server/health/check-health";
import { json, route } from "@/lib/server/http/route";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** 200 while Postgres answers (Redis down is "degraded", still 200); 503 when Postgres does not. */
export const GET = route({ access: "public" }, async () => {
  const health = await checkHealth();
  return json(health, { status: health.postgres === "up" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
