import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { readStaffResult } from "@/lib/server/results/staff-result";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** One paper's current result and every version of it, newest first (docs/results.md, "Result versions"). */
export const GET = route({ access: "admin", params: AttemptParamsSchema }, async ({ params }) =>
  json(await readStaffResult({ attemptId: params.attemptId }), { headers: { "Cache-Control": "no-store" } }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
