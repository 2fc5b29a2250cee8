import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { readStaffResult } from "@/lib/server/results/staff-result";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { StaffAttemptResultSchema } from "@/lib/shared/schemas/responses/results";

export const dynamic = "force-dynamic";

/** One paper's current result and every version of it, newest first (docs/results.md, "Result versions"). */
export const GET = route(
  {
    access: "admin",
    params: AttemptParamsSchema,
    doc: {
      operationId: "getAttemptResult",
      area: "admin",
      summary: "A paper's result and every version of it",
      description:
        "The candidate (name, email), the current result with per-question points in the exam's order, the marks " +
        "and accepted late answers behind it, and every result version newest first: its cause, who, when, why, " +
        "total and per-question points. Versions are append-only, so an earlier one reads exactly as it was. " +
        "An attempt not submitted yet has no current result and no versions.",
      responses: { 200: { description: "The result with its versions", schema: StaffAttemptResultSchema } },
    },
  },
  async ({ params }) =>
    json(await readStaffResult({ attemptId: params.attemptId }), { headers: { "Cache-Control": "no-store" } }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
