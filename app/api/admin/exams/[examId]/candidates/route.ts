import { z } from "zod";

import { actorOf } from "@/lib/server/auth/actor";
import { enrollCandidates, type EnrolledCandidate } from "@/lib/server/enrollments/enroll-candidates";
import { importCandidatesCsv } from "@/lib/server/enrollments/import-candidates-csv";
import { listCandidates } from "@/lib/server/enrollments/list-candidates";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { requestLocale } from "@/lib/server/http/request-locale";
import { json, route } from "@/lib/server/http/route";
import { AppError, validationError } from "@/lib/shared/errors";
import { UuidSchema } from "@/lib/shared/schemas/attempts";
import { DryRunQuerySchema, EnrollCandidatesSchema } from "@/lib/shared/schemas/enrollments";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { CandidateListSchema, CsvImportResultSchema } from "@/lib/shared/schemas/responses/enrollments";

export const dynamic = "force-dynamic";

/** The 201 body of a JSON enrollment, for the documentation (it `satisfies` what the operation returns). */
const EnrolledCandidatesSchema = z.object({
  candidates: z.array(
    z.object({
      id: UuidSchema,
      name: z.string(),
      email: z.string(),
      externalId: z.string().nullable(),
      extraSeconds: z.number().int().min(0),
      joinToken: z.string(),
      joinUrl: z.url(),
    }),
  ),
}) satisfies z.ZodType<{ candidates: EnrolledCandidate[] }>;

/** The exam's enrolled candidates with their join links and attempts (docs/admin-api.md). */
export const GET = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "listCandidates",
      area: "admin",
      summary: "The exam's candidates",
      description:
        "Each with their join link (active or revoked) and their attempt, if started; by name in the reader's " +
        "order (the holdfast_locale cookie or Accept-Language: pinyin order for Chinese), then email.",
      responses: { 200: { description: "The candidates", schema: CandidateListSchema } },
    },
  },
  async ({ params, request }) =>
    json(
      { candidates: await listCandidates({ examId: params.examId, locale: requestLocale(request) }) },
      { headers: { "Cache-Control": "no-store" } },
    ),
);

/**
 * Enrolls candidates: a JSON roster (201, one entry per input entry), or a `text/csv` file
 * (docs/admin-api.md, "Candidates CSV"): with `?dryRun=1` the preview, written or not (200); without it,
 * the whole file or nothing (200, or 422 with the preview in `error.details`).
 */
export const POST = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    body: EnrollCandidatesSchema,
    csv: true,
    doc: {
      operationId: "enrollCandidates",
      area: "admin",
      summary: "Enroll candidates (JSON or a CSV file)",
      description:
        "JSON: one entry per input entry, in input order, each with a personal join link (201). Enrolling an " +
        "email that is already enrolled is idempotent: the same enrollment and link, with the new name and " +
        "extra time (and student number, when given). An `externalId` (student number) is unique within the exam: " +
        "one another candidate has is 409 EXTERNAL_ID_TAKEN, one given to two emails in the request 422, and " +
        'nothing is enrolled. `text/csv` (docs/admin-api.md, "Candidates CSV"): with `?dryRun=1` the preview, nothing ' +
        "written (200); without it the whole file or nothing: 200 with `written: true`, or 422 VALIDATION_FAILED " +
        "with the preview in `error.details`. An import never changes a candidate already enrolled.",
      query: z.object({
        dryRun: DryRunQuerySchema.optional().describe("`1` or `true`: preview a CSV upload, write nothing"),
      }),
      csvBody:
        "A header line (`name`, `email`, optionally `extra_minutes`; comma or semicolon), then one candidate a " +
        "line. UTF-8, a byte order mark is ignored.",
      responses: {
        200: { description: "A CSV import or preview, line by line", schema: CsvImportResultSchema },
        201: { description: "The enrolled candidates and their join links (JSON)", schema: EnrolledCandidatesSchema },
      },
      errorDetails: {
        EXTERNAL_ID_TAKEN: z.object({
          externalIds: z.array(z.string()).describe("the student numbers other candidates of the exam already have"),
        }),
        VALIDATION_FAILED: z.union([
          z.object({ issues: z.array(z.object({ path: z.string(), message: z.string() })) }),
          CsvImportResultSchema.describe("a refused CSV file: the preview, errors and all"),
        ]),
      },
    },
  },
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
