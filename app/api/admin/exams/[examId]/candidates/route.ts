import { actorOf } from "@/lib/server/auth/actor";
import { enrollCandidates } from "@/lib/server/enrollments/enroll-candidates";
import { importCandidatesCsv } from "@/lib/server/enrollments/import-candidates-csv";
import { listCandidates } from "@/lib/server/enrollments/list-candidates";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AppError, validationError } from "@/lib/shared/errors";
import { DryRunQuerySchema, EnrollCandidatesSchema } from "@/lib/shared/schemas/enrollments";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** The exam's enrolled candidates with their join links and attempts (docs/admin-api.md). */
export const GET = route({ access: "admin", params: ExamParamsSchema }, async ({ params }) =>
  json({ candidates: await listCandidates({ examId: params.examId }) }, { headers: { "Cache-Control": "no-store" } }),
);

/**
 * Enrolls candidates: a JSON roster (201, one entry per input entry), or a `text/csv` file
 * (docs/admin-api.md, "Candidates CSV"): with `?dryRun=1` the preview, written or not (200); without it,
 * the whole file or nothing (200, or 422 with the preview in `error.details`).
 */
export const POST = route(
  { access: "admin", params: ExamParamsSchema, body: EnrollCandidatesSchema, csv: true },
  async ({ params, body, csv, principal, request }) => {
    const query = new URL(request.url).searchParams.get("dryRun");
    const dryRun = query === null ? { success: true as const, data: false } : DryRunQuerySchema.safeParse(query);
    if (!dryRun.success) throw validationError(dryRun.error, "query");
    if (csv !== undefined) {
      const result = await importCandidatesCsv({
        examId: params.examId,
        csv,
        dryRun: dryRun.data,
        actor: actorOf(principal),
      });
      return json(result);
    }
    if (dryRun.data) throw new AppError("BAD_REQUEST", "dryRun previews a CSV upload (Content-Type: text/csv).");
    if (!body) throw new AppError("BAD_REQUEST", "The request needs a JSON body.");
    const candidates = await enrollCandidates({ examId: params.examId, input: body, actor: actorOf(principal) });
    return json({ candidates }, { status: 201 });
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "POST");
